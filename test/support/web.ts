/**
 * The web app's test kit: the real server (documents harness: real engine,
 * real durable queue, real state) with the browser assets, listening on
 * 127.0.0.1 on a free port, plus helpers to make people (account, password,
 * datasource registration) and to drive page forms over plain HTTP with a
 * cookie jar. Search analytics record under `<dir>/analytics` (ANALYTICS in
 * `env` chooses the mode). Browser tests add Chromium (browser.ts).
 */
import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { MASTER_KEY as MASTER, testConfig } from './app.ts';
import { docsHarness, type DocsHarnessOptions } from './documents.ts';
import { loadWebAssets, type WebAssets } from '../../src/web/assets/store.ts';
import { ConversationStore, conversationsDir } from '../../src/conversations/store.ts';
import { silentLogger } from '../../src/log.ts';
import { analyticsDir, SearchAnalytics } from '../../src/analytics/analytics.ts';

let assets: Promise<WebAssets> | undefined;
/** The assets, built once per test process. */
export const testAssets = (): Promise<WebAssets> => (assets ??= loadWebAssets());

export interface Person {
  email: string;
  password: string;
  key: string;
}

export async function webServer(opts: DocsHarnessOptions = {}) {
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'web-test-')));
  const conversations = new ConversationStore({ dir: conversationsDir(dir), log: silentLogger, now: () => Date.now() });
  const analytics =
    opts.services?.analytics ??
    new SearchAnalytics({
      dir: analyticsDir(dir),
      log: silentLogger,
      now: opts.now ?? (() => Date.now()),
      ...testConfig({ DATA_DIR: dir, ...opts.env }).analytics,
    });
  const h = await docsHarness({
    ...opts,
    dir,
    services: { webAssets: await testAssets(), conversations, analytics, ...opts.services },
  });
  const server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** An account with a password and a personal key, registered on `datasources`. */
  async function person(
    email: string,
    init: { password?: string | null; roles?: string[]; name?: string; datasources?: string[] } = {},
  ): Promise<Person> {
    const password = init.password === undefined ? 'correct horse battery staple' : init.password;
    const created = await h.call('POST', '/api/admin/accounts', MASTER, {
      email,
      name: init.name ?? null,
      roles: init.roles ?? [],
    });
    if (created.status !== 200) throw new Error(`account ${email}: ${JSON.stringify(created.body)}`);
    if (password !== null) {
      const set = await h.call('PUT', `/api/admin/accounts/${encodeURIComponent(email)}/password`, MASTER, {
        password,
      });
      if (set.status !== 200) throw new Error(`password ${email}: ${JSON.stringify(set.body)}`);
    }
    const key = await h.call('POST', `/api/admin/accounts/${encodeURIComponent(email)}/keys`, MASTER, {});
    for (const datasource of init.datasources ?? []) {
      const user = await h.api('POST', '/users', { datasource, user: { email } });
      if (user.status !== 200) throw new Error(`user ${email} on ${datasource}: ${JSON.stringify(user.body)}`);
    }
    return { email, password: password ?? '', key: key.body.key as string };
  }

  return {
    ...h,
    base,
    person,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await conversations.close();
      await analytics.close();
      await h.close(opts.dir === undefined);
    },
  };
}

export type WebServer = Awaited<ReturnType<typeof webServer>>;

/** A minimal cookie jar over fetch for driving pages without a browser (no redirects followed). */
export class HttpBrowser {
  readonly cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  async request(
    path: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string>; body?: string } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined = init.body;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(this.base + path, {
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
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** The `_csrf` value of the first form on a page. */
  static formToken(html: string): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(html);
    if (!m) throw new Error('no _csrf field on the page');
    return m[1];
  }

  /** GET /signin, then post the form (signed out first); answers the POST's response. */
  async signIn(email: string, password: string, next = '/') {
    this.cookies.delete('es_session');
    const page = await this.request(`/signin?next=${encodeURIComponent(next)}`);
    const token = HttpBrowser.formToken(page.text);
    return this.request('/signin', { form: { _csrf: token, next, email, password } });
  }
}
