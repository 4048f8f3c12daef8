/**
 * Admin API, browser sign-in of accounts (master key or an administrator):
 *   PUT    /api/admin/accounts/{email}/password      {password} -> {email, password_set_at}
 *          sets the password (at least 10 characters); ends the account's earlier sessions
 *   POST   /api/admin/accounts/{email}/sign-in-links {} -> {email, url, expires_at}
 *          a one-time link (24 h) with which the person chooses a password and is signed in;
 *          the `url` is shown only in this answer
 *   GET    /api/admin/accounts/{email}/sessions      -> {sessions: [...]} (no secrets)
 *   DELETE /api/admin/accounts/{email}/sessions      -> {email, ended}: signs the account out everywhere
 * As for keys, an account caller may act only on accounts whose roles it holds itself (403).
 * With PASSWORD_SIGNIN=false (single sign-on only) passwords and links answer 409.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { assertMayManage, findAccount, normalizeEmail, setPassword } from '../accounts/accounts.ts';
import { checkPasswordPolicy } from '../accounts/passwords.ts';
import { actorOf, principalLabel } from '../accounts/principal.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { conflict, notFound, RequestValidationError } from '../errors.ts';
import { readJson } from '../http/body.ts';
import { requestOrigin } from '../http/client.ts';
import type { AppEnv } from '../http/env.ts';
import { pyIssue, validate } from '../validation/pydantic.ts';
import type { Services } from '../services.ts';
import { createSignInLink } from '../sessions/links.ts';
import { endSessionsOf, listSessions } from '../sessions/sessions.ts';

const PasswordBody = v.strictObject({
  password: v.pipe(
    v.string(),
    v.check(
      (s) => checkPasswordPolicy(s) === undefined,
      (issue) => pyIssue('value_error', `Value error, ${checkPasswordPolicy(issue.input as string)}`, { error: {} }),
    ),
  ),
});

const EmptyBody = v.strictObject({});

/** Like `validate`, but a 422 never echoes the password (shown as Pydantic shows a SecretStr). */
function validateSecret<const S extends v.GenericSchema>(schema: S, raw: unknown): v.InferOutput<S> {
  if (raw === undefined || raw === null) {
    throw new RequestValidationError([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
  }
  try {
    return validate(schema, raw, 'body');
  } catch (err) {
    if (!(err instanceof RequestValidationError)) throw err;
    throw new RequestValidationError(
      err.items.map((item) =>
        item.loc[1] === 'password' && 'input' in item ? { ...item, input: '**********' } : item,
      ),
    );
  }
}

export function adminSignInRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = requireAdmin(services);
  const sessionDeps = { state: services.state, now: services.now, sessions: services.config.web.session };

  /** The account behind the path's email, after the no-escalation check. */
  function managed(email: string, actor: ReturnType<typeof actorOf>, what: string) {
    const account = findAccount(services, email);
    if (!account) throw notFound(`No account with email ${normalizeEmail(email)}`);
    assertMayManage(actor, account.roles, what);
    return account;
  }

  const passwordsOn: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (services.config.web.passwordSignIn) return next();
    throw conflict('Password sign-in is turned off here (PASSWORD_SIGNIN=false); people sign in with single sign-on');
  };

  app.put('/api/admin/accounts/:email/password', admin, passwordsOn, async (c) => {
    const body = validateSecret(PasswordBody, await readJson(c));
    return c.json(await setPassword(services, c.req.param('email'), body.password, actorOf(c.get('principal'))));
  });

  app.post('/api/admin/accounts/:email/sign-in-links', admin, passwordsOn, async (c) => {
    validate(EmptyBody, (await readJson(c)) ?? {}, 'body');
    const principal = c.get('principal');
    const link = await createSignInLink(
      sessionDeps,
      c.req.param('email'),
      actorOf(principal),
      principalLabel(principal),
    );
    const origin = services.config.web.publicUrl ?? requestOrigin(c, services.config.web.trustProxy);
    return c.json({ email: link.email, url: `${origin}/signin/link/${link.token}`, expires_at: link.expires_at });
  });

  app.get('/api/admin/accounts/:email/sessions', admin, (c) => {
    const account = managed(c.req.param('email'), actorOf(c.get('principal')), "Listing this account's sessions");
    return c.json({ sessions: listSessions(sessionDeps, account.id) });
  });

  app.delete('/api/admin/accounts/:email/sessions', admin, async (c) => {
    const account = managed(c.req.param('email'), actorOf(c.get('principal')), "Ending this account's sessions");
    return c.json({ email: account.email, ended: await endSessionsOf(sessionDeps, account.id) });
  });

  return app;
}
