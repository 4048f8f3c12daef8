/**
 * Indexing API: groups per datasource, under `/api/indexing`
 * (service-account key, or an administrator's browser session).
 *
 *   POST   /groups                              {datasource, group: {name}} -> {datasource, group: {name}}
 *   GET    /groups/{datasource}                 -> {datasource, groups: [{name, member_emails, member_groups}]}
 *   PUT    /groups/{datasource}/{group_name}    {group_name}                -> {datasource, group: {name}, previous_name}
 *   DELETE /groups/{datasource}/{group_name}    -> {datasource, group, deleted: true, memberships_removed}
 */
import { Hono } from 'hono';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { createGroup, deleteGroup, listGroups, renameGroup } from '../controlplane/index.ts';
import { CreateGroupSchema, RenameGroupSchema } from '../controlplane/schemas.ts';
import type { Services } from '../services.ts';
import { requireServiceAccount } from '../auth/middleware.ts';

export function indexingGroupRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireServiceAccount(services, { adminSessions: true });

  app.post('/groups', auth, async (c) => {
    const body = await jsonBody(c, CreateGroupSchema);
    return c.json(await createGroup(services, body.datasource, body.group.name));
  });
  app.get('/groups/:datasource', auth, (c) => c.json(listGroups(services, c.req.param('datasource'))));
  app.put('/groups/:datasource/:group_name', auth, async (c) => {
    const body = await jsonBody(c, RenameGroupSchema);
    return c.json(await renameGroup(services, c.req.param('datasource'), c.req.param('group_name'), body.group_name));
  });
  app.delete('/groups/:datasource/:group_name', auth, async (c) =>
    c.json(await deleteGroup(services, c.req.param('datasource'), c.req.param('group_name'))),
  );
  return app;
}
