/**
 * Admin API, service accounts (spec, Authentication 2):
 *   POST /api/admin/service-accounts {name, expires_at?} -> {id, name, key, key_id, expires_at}
 *        only the master key or an account with both the administrator and
 *        developer roles (403 otherwise); the `svcsa_` key is shown only here;
 *        409 when the name (case-insensitively) is taken.
 *   GET  /api/admin/service-accounts -> {service_accounts: [...]} (never secrets)
 * Revoke a service account's key with DELETE /api/admin/keys/{key_id}.
 */
import { Hono } from 'hono';
import { createServiceAccount, listServiceAccounts } from '../accounts/service-accounts.ts';
import { assertServiceAccountManager, principalLabel } from '../accounts/principal.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';
import { createServiceAccountBody } from '../accounts/schemas.ts';

export function adminServiceAccountsRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = requireAdmin(services);

  app.post('/api/admin/service-accounts', admin, async (c) => {
    const principal = c.get('principal');
    assertServiceAccountManager(principal);
    const body = await jsonBody(c, createServiceAccountBody(services.now));
    const created = await createServiceAccount(services, {
      name: body.name,
      expiresAt: body.expires_at ?? null,
      createdBy: principalLabel(principal),
    });
    return c.json(created);
  });

  app.get('/api/admin/service-accounts', admin, (c) => c.json({ service_accounts: listServiceAccounts(services) }));

  return app;
}
