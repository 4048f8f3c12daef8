/**
 * Admin API, personal keys (master key or an administrator account):
 *   POST   /api/admin/accounts/{email}/keys  {expires_at?} -> {id, key, expires_at}
 *          (the secret `key` appears only in this response)
 *   DELETE /api/admin/keys/{id}  -> {id, kind, created_at, expires_at, revoked_at}
 *          revokes a key (idempotent); a service-account key additionally needs
 *          the master key or the administrator and developer roles.
 *   PUT    /api/admin/keys/{id}/expiry  {expires_at: ISO 8601 in the future | null} -> the key record
 *          sets or clears when a key expires (same permissions as revoking; 409 for a revoked key)
 * An account caller may issue or revoke keys only of accounts whose roles it
 * holds itself (403): no administrator-only account can mint a developer's key.
 */
import { Hono } from 'hono';
import { createPersonalKey, revokeKey, setKeyExpiry } from '../accounts/accounts.ts';
import { actorOf, canManageServiceAccounts } from '../accounts/principal.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { jsonBody, readJson } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { validate } from '../validation/pydantic.ts';
import type { Services } from '../services.ts';
import { createKeyBody, keyExpiryBody } from '../accounts/schemas.ts';

export function adminKeysRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = requireAdmin(services);

  app.post('/api/admin/accounts/:email/keys', admin, async (c) => {
    const body = validate(createKeyBody(services.now), (await readJson(c)) ?? {}, 'body');
    return c.json(
      await createPersonalKey(services, c.req.param('email'), body.expires_at ?? null, actorOf(c.get('principal'))),
    );
  });

  app.delete('/api/admin/keys/:id', admin, async (c) => {
    const principal = c.get('principal');
    const opts = { mayRevokeServiceKeys: canManageServiceAccounts(principal), actor: actorOf(principal) };
    return c.json(await revokeKey(services, c.req.param('id'), opts));
  });

  app.put('/api/admin/keys/:id/expiry', admin, async (c) => {
    const body = await jsonBody(c, keyExpiryBody(services.now));
    const principal = c.get('principal');
    const opts = { mayRevokeServiceKeys: canManageServiceAccounts(principal), actor: actorOf(principal) };
    return c.json(await setKeyExpiry(services, c.req.param('id'), body.expires_at, opts));
  });

  return app;
}
