/**
 * Admin API, accounts: create, list and delete accounts (master key or an
 * administrator account). Deleting an account revokes its keys, ends its
 * sessions and erases its saved conversations and analytics history. An account
 * caller may create or delete only accounts whose roles it holds itself (403).
 *   POST   /api/admin/accounts          {email, name?, roles?} -> account
 *   GET    /api/admin/accounts          -> {accounts: [account with keys, no secrets]}
 *   DELETE /api/admin/accounts/{email}  -> {email, deleted: true, revoked_keys}
 *   PUT    /api/admin/accounts/{email}/roles {roles} -> account
 *          the caller must hold every role the account has and gets (403 otherwise)
 */
import { Hono } from 'hono';
import { removeAccount } from '../account-removal.ts';
import { createAccount, listAccounts, setRoles } from '../accounts/accounts.ts';
import { actorOf } from '../accounts/principal.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';
import { CreateAccountBody, SetRolesBody } from '../accounts/schemas.ts';

export function adminAccountsRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = requireAdmin(services);

  app.post('/api/admin/accounts', admin, async (c) => {
    const body = await jsonBody(c, CreateAccountBody);
    return c.json(await createAccount(services, body, actorOf(c.get('principal'))));
  });

  app.get('/api/admin/accounts', admin, (c) => c.json({ accounts: listAccounts(services) }));

  app.delete('/api/admin/accounts/:email', admin, async (c) => {
    const result = await removeAccount(services, c.req.param('email'), actorOf(c.get('principal')));
    return c.json({ email: result.email, deleted: true, revoked_keys: result.revoked_keys });
  });

  app.put('/api/admin/accounts/:email/roles', admin, async (c) => {
    const body = await jsonBody(c, SetRolesBody);
    return c.json(await setRoles(services, c.req.param('email'), body.roles, actorOf(c.get('principal'))));
  });

  return app;
}
