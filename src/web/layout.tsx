/**
 * The page shell every page shares: document head (stylesheet, module
 * scripts, the CSRF token for fetch calls, the client messages as inert
 * JSON), a header with the product name, the main navigation, the language
 * switch and sign-out, a skip link, the `main` landmark and a footer. Every
 * text goes through JSX, which escapes it.
 */
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { Viewer } from './env.ts';
import { LANGUAGES, t, type Lang } from './i18n/i18n.ts';
import type { WebAssets } from './assets/store.ts';

export interface PageProps {
  lang: Lang;
  title: string;
  assets: WebAssets;
  /** Token for forms and fetch calls (viewer.ts). */
  formToken: string;
  viewer?: Viewer;
  /** Which navigation entry is current. */
  current?: 'search' | 'chat' | 'admin';
  /** Browser modules to load (client/<name>.ts), besides the shared page module. */
  scripts?: string[];
  /** Data for the browser modules, serialised as inert JSON (`<script type="application/json">`). */
  data?: unknown;
  /** The address to come back to after switching the language. */
  here: string;
  children?: Child;
}

/** JSON safe inside a script element: `<` is escaped, so `</script>` in data cannot end it. */
export function inertJson(value: unknown): string {
  return JSON.stringify(value ?? null)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function CsrfField(props: { token: string }) {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

function LanguageSwitch(props: { lang: Lang; token: string; here: string }) {
  return (
    <form method="post" action="/settings/language" class="lang-switch" aria-label={t(props.lang, 'lang.label')}>
      <CsrfField token={props.token} />
      <input type="hidden" name="next" value={props.here} />
      {LANGUAGES.map((l) => (
        <button type="submit" name="lang" value={l} lang={l} aria-pressed={l === props.lang ? 'true' : 'false'}>
          {t(props.lang, `lang.${l}`)}
        </button>
      ))}
    </form>
  );
}

function Header(props: PageProps) {
  const { lang, viewer } = props;
  return (
    <header class="top">
      <a class="brand" href="/">
        <img src={props.assets.url('icon.svg')} alt="" width="24" height="24" />
        <span>{t(lang, 'app.name')}</span>
      </a>
      {viewer && (
        <nav aria-label={t(lang, 'nav.label')}>
          <a href="/" aria-current={props.current === 'search' ? 'page' : undefined}>
            {t(lang, 'nav.search')}
          </a>
          <a href="/chat" aria-current={props.current === 'chat' ? 'page' : undefined}>
            {t(lang, 'nav.chat')}
          </a>
          {viewer.roles.includes('administrator') && (
            <a href="/admin" aria-current={props.current === 'admin' ? 'page' : undefined}>
              {t(lang, 'nav.admin')}
            </a>
          )}
        </nav>
      )}
      <div class="top-tools">
        <LanguageSwitch lang={lang} token={props.formToken} here={props.here} />
        {viewer && (
          <form method="post" action="/signout" class="signout">
            <CsrfField token={props.formToken} />
            <span class="who" title={t(lang, 'nav.signedInAs', { email: viewer.email })}>
              {viewer.name ?? viewer.email}
            </span>
            <button type="submit">{t(lang, 'nav.signout')}</button>
          </form>
        )}
      </div>
    </header>
  );
}

export function Page(props: PageProps) {
  const { lang, assets } = props;
  const scripts = ['page', ...(props.scripts ?? [])];
  return (
    <>
      {raw('<!DOCTYPE html>')}
      <html lang={lang}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <meta name="csrf-token" content={props.formToken} />
          <title>{`${props.title} – ${t(lang, 'app.name')}`}</title>
          <link rel="icon" href={assets.url('icon.svg')} type="image/svg+xml" />
          <link rel="stylesheet" href={assets.url('app.css')} />
          {scripts.map((name) => (
            <script type="module" src={assets.url(`${name}.js`)}></script>
          ))}
        </head>
        <body>
          <a class="skip-link" href="#main">
            {t(lang, 'app.skip')}
          </a>
          <Header {...props} />
          <main id="main" tabindex={-1}>
            {props.children}
          </main>
          <footer class="bottom">{t(lang, 'footer.text')}</footer>
          {props.data !== undefined && (
            <script
              type="application/json"
              id="page-data"
              dangerouslySetInnerHTML={{ __html: inertJson(props.data) }}
            />
          )}
        </body>
      </html>
    </>
  );
}
