/**
 * The views of the sign-in pages: the sign-in form (single sign-on button
 * when configured, the email and password form unless turned off), the form
 * where a sign-in link's owner chooses a password, and page helpers. Text
 * goes through JSX, which escapes it.
 */
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import { PASSWORD_MIN_CHARS } from '../../accounts/passwords.ts';
import type { Services } from '../../services.ts';
import type { WebAssets } from '../assets/store.ts';
import type { WebEnv } from '../env.ts';
import { t, type Lang } from '../i18n/i18n.ts';
import { CsrfField, Page } from '../layout.tsx';
import { safeNext } from '../viewer.ts';

export interface Notice {
  kind: 'error' | 'status';
  text: string;
}

interface SignInFormProps {
  lang: Lang;
  token: string;
  next: string;
  email?: string;
  notice?: Notice;
  /** Label of the single sign-on button, when SSO is configured. */
  sso?: string;
  /** Whether the email and password form is offered. */
  passwords: boolean;
}

function SsoButton(props: { lang: Lang; token: string; next: string; label: string }) {
  return (
    <form method="post" action="/signin/oidc" class="stack sso">
      <CsrfField token={props.token} />
      <input type="hidden" name="next" value={props.next} />
      <button type="submit" class="primary" id="sso">
        {t(props.lang, 'sso.button', { label: props.label })}
      </button>
    </form>
  );
}

export function SignInForm(props: SignInFormProps) {
  const { lang } = props;
  return (
    <section class="card narrow" aria-labelledby="signin-title">
      <h1 id="signin-title">{t(lang, 'signin.title')}</h1>
      {props.notice && (
        <p class={props.notice.kind} role={props.notice.kind === 'error' ? 'alert' : 'status'} id="signin-notice">
          {props.notice.text}
        </p>
      )}
      {props.sso !== undefined && <SsoButton lang={lang} token={props.token} next={props.next} label={props.sso} />}
      {props.sso !== undefined && props.passwords && <p class="hint or">{t(lang, 'sso.or')}</p>}
      {props.passwords && <PasswordForm {...props} />}
      {props.passwords && <p class="hint">{t(lang, 'signin.help')}</p>}
    </section>
  );
}

function PasswordForm(props: SignInFormProps) {
  const { lang } = props;
  return (
    <form method="post" action="/signin" class="stack" id="password-form">
      <CsrfField token={props.token} />
      <input type="hidden" name="next" value={props.next} />
      <label for="email">{t(lang, 'signin.email')}</label>
      <input
        id="email"
        name="email"
        type="email"
        autocomplete="username"
        required
        autofocus
        value={props.email ?? ''}
        maxlength={320}
      />
      <label for="password">{t(lang, 'signin.password')}</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required maxlength={1024} />
      <button type="submit" class="primary">
        {t(lang, 'signin.submit')}
      </button>
    </form>
  );
}

export function LinkForm(props: { lang: Lang; token: string; action: string; email: string; error?: string }) {
  const { lang } = props;
  return (
    <section class="card narrow" aria-labelledby="link-title">
      <h1 id="link-title">{t(lang, 'link.title')}</h1>
      <p>{t(lang, 'link.intro', { email: props.email })}</p>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <form method="post" action={props.action} class="stack">
        <CsrfField token={props.token} />
        <input type="hidden" name="username" value={props.email} autocomplete="username" />
        <label for="new-password">{t(lang, 'link.password')}</label>
        <input
          id="new-password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minlength={PASSWORD_MIN_CHARS}
          maxlength={256}
          aria-describedby="password-rules"
          autofocus
        />
        <p id="password-rules" class="hint">
          {t(lang, 'link.rules')}
        </p>
        <label for="confirm-password">{t(lang, 'link.confirm')}</label>
        <input
          id="confirm-password"
          name="confirm"
          type="password"
          autocomplete="new-password"
          required
          maxlength={256}
        />
        <button type="submit" class="primary">
          {t(lang, 'link.submit')}
        </button>
      </form>
    </section>
  );
}

/** A page with the shell and no signed-in navigation. */
export function renderPage(c: Context<WebEnv>, assets: WebAssets, title: string, body: Child, status = 200) {
  const here = new URL(c.req.url);
  return c.html(
    <Page
      lang={c.get('lang')}
      title={title}
      assets={assets}
      formToken={c.get('formToken')}
      here={safeNext(here.pathname + here.search)}
    >
      {body}
    </Page>,
    status as 200,
  );
}

/** The sign-in page: the SSO button when configured, the password form unless turned off. */
export function renderSignIn(
  c: Context<WebEnv>,
  services: Services,
  assets: WebAssets,
  next: string,
  extra: { email?: string; notice?: Notice } = {},
  status = 200,
) {
  return renderPage(
    c,
    assets,
    t(c.get('lang'), 'signin.title'),
    <SignInForm
      lang={c.get('lang')}
      token={c.get('formToken')}
      next={next}
      sso={services.oidc?.label}
      passwords={services.config.web.passwordSignIn}
      {...extra}
    />,
    status,
  );
}
