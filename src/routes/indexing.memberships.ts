/**
 * Indexing API: group memberships per datasource, under `/api/indexing`
 * (service-account key, or an administrator's browser session).
 *
 *   POST   /memberships  {datasource, membership: {group_name, member_email | member_group_name}}
 *          -> {datasource, membership: {group_name, member_type, member_email | member_group_name}}
 *   DELETE /memberships/{datasource}/{group_name}/{member_type}/{member_id}
 *          -> {datasource, membership, deleted: true}
 */
import { Hono } from 'hono';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { createMembership, deleteMembership } from '../controlplane/index.ts';
import { CreateMembershipSchema } from '../controlplane/schemas.ts';
import type { Services } from '../services.ts';
import { requireServiceAccount } from '../auth/middleware.ts';

export function indexingMembershipRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireServiceAccount(services, { adminSessions: true });

  app.post('/memberships', auth, async (c) => {
    const body = await jsonBody(c, CreateMembershipSchema);
    return c.json(await createMembership(services, body.datasource, body.membership));
  });
  app.delete('/memberships/:datasource/:group_name/:member_type/:member_id', auth, async (c) => {
    const p = c.req.param();
    return c.json(await deleteMembership(services, p.datasource, p.group_name, p.member_type, p.member_id));
  });
  return app;
}
