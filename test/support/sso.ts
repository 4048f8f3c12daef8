/**
 * Drives a single sign-on over HTTP without a browser: cookie jars per
 * origin, redirects followed by hand, the provider's development login and
 * consent forms filled in. Answers the relying party's last response (the
 * callback's answer) and the jar of our server.
 */
import type { OpenIdProvider } from './oidc-provider.ts';

export class Jar {
  private readonly byOrigin = new Map<string, Map<string, string>>();

  async fetch(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const target = new URL(url);
    const cookies = this.byOrigin.get(target.origin) ?? new Map<string, string>();
    const headers: Record<string, string> = {};
    if (cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(target, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const gone =
        value === '' || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a));
      if (gone) cookies.delete(name);
      else cookies.set(name, value);
    }
    this.byOrigin.set(target.origin, cookies);
    const location = res.headers.get('location');
    return {
      status: res.status,
      text: await res.text(),
      location: location ? new URL(location, target).href : undefined,
      headers: res.headers,
    };
  }

  cookie(origin: string, name: string): string | undefined {
    return this.byOrigin.get(origin)?.get(name);
  }
}

function formAction(html: string, base: string): string {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form on the provider's page:\n${html.slice(0, 500)}`);
  return new URL(action.replace(/&amp;/g, '&'), base).href;
}

/**
 * Starts the sign-in on our server (`base`), logs in at the provider as `login`, consents, and
 * answers our server's response to the callback. `stopAtCallback` returns the callback URL
 * instead of calling it (to replay or tamper with it).
 */
export async function ssoSignIn(jar: Jar, base: string, provider: OpenIdProvider, login: string, next = '/') {
  const page = await jar.fetch(`${base}/signin`);
  const token = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  let res = await jar.fetch(`${base}/signin/oidc`, { form: { _csrf: token, next } });
  if (res.status !== 303 || !res.location?.startsWith(provider.issuer)) return { callback: undefined, res };
  let url = res.location;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(base)) return { callback: url, res };
    res = await jar.fetch(url);
    if (res.status === 200 && /name="prompt" value="login"/.test(res.text)) {
      res = await jar.fetch(formAction(res.text, url), { form: { prompt: 'login', login, password: 'any' } });
    } else if (res.status === 200 && /name="prompt" value="consent"/.test(res.text)) {
      res = await jar.fetch(formAction(res.text, url), { form: { prompt: 'consent' } });
    }
    if (!res.location) throw new Error(`the provider stopped at ${url} with ${res.status}:\n${res.text.slice(0, 500)}`);
    url = res.location;
  }
  throw new Error('too many redirects at the provider');
}
