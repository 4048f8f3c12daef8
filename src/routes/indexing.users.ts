/**
 * Indexing API: users per datasource, under `/api/indexing`
 * (service-account key, or an administrator's browser session).
 *
 *   POST   /users                       {datasource, user: {email, name?}} -> {datasource, user: {email, name}}
 *   GET    /users/{datasource}          -> {datasource, users: [{email, name}]}
 *   PUT    /users/{datasource}/{email}  {name}                             -> {datasource, user}
 *   DELETE /users/{datasource}/{email}  -> {datasource, user, deleted: true, memberships_removed}
 */
import { Hono } from 'hono';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { createUser, deleteUser, listUsers, updateUser } from '../controlplane/index.ts';
import { CreateUserSchema, UpdateUserSchema } from '../controlplane/schemas.ts';
import type { Services } from '../services.ts';
import { requireServiceAccount } from '../auth/middleware.ts';

export function indexingUserRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireServiceAccount(services, { adminSessions: true });

  app.post('/users', auth, async (c) => {
    const body = await jsonBody(c, CreateUserSchema);
    return c.json(await createUser(services, body.datasource, body.user));
  });
  app.get('/users/:datasource', auth, (c) => c.json(listUsers(services, c.req.param('datasource'))));
  app.put('/users/:datasource/:email', auth, async (c) => {
    const body = await jsonBody(c, UpdateUserSchema);
    return c.json(await updateUser(services, c.req.param('datasource'), c.req.param('email'), body.name));
  });
  app.delete('/users/:datasource/:email', auth, async (c) =>
    c.json(await deleteUser(services, c.req.param('datasource'), c.req.param('email'))),
  );
  return app;
}
