/**
 * Indexing API: datasources, their subs, and the document file types, under
 * `/api/indexing`. Every route requires a service-account key (or an
 * administrator's browser session: the dashboard). Handlers
 * validate, call one domain function and answer its result as JSON (200).
 *
 *   POST   /datasources                      -> datasource view
 *   GET    /datasources                      -> {datasources: [view]}
 *   GET    /datasources/{name}               -> datasource view (full sub tree)
 *   PUT    /datasources/{name}               -> datasource view
 *   DELETE /datasources/{name}               -> {datasource, deleted, removed: {subs, users, groups, memberships}}
 *   POST   /datasources/{name}/subs          -> datasource view
 *   DELETE /datasources/{name}/subs/{key}    -> datasource view (?parent_key= picks a child key used under several parents)
 *   GET    /file-types                       -> {file_types: [...18 values]}
 */
import { Hono } from 'hono';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import {
  addSub,
  createDatasource,
  deleteDatasource,
  deleteSub,
  getDatasource,
  listDatasources,
  updateDatasource,
} from '../controlplane/index.ts';
import { DOCUMENT_FILE_TYPES } from '../documents/file-types.ts';
import { CreateDatasourceSchema, SubSchema, UpdateDatasourceSchema } from '../controlplane/schemas.ts';
import type { Services } from '../services.ts';
import { requireServiceAccount } from '../auth/middleware.ts';

export function indexingDatasourceRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireServiceAccount(services, { adminSessions: true });

  app.post('/datasources', auth, async (c) =>
    c.json(await createDatasource(services, await jsonBody(c, CreateDatasourceSchema))),
  );
  app.get('/datasources', auth, (c) => c.json({ datasources: listDatasources(services) }));
  app.get('/datasources/:name', auth, (c) => c.json(getDatasource(services, c.req.param('name'))));
  app.put('/datasources/:name', auth, async (c) =>
    c.json(await updateDatasource(services, c.req.param('name'), await jsonBody(c, UpdateDatasourceSchema))),
  );
  app.delete('/datasources/:name', auth, async (c) => c.json(await deleteDatasource(services, c.req.param('name'))));
  app.post('/datasources/:name/subs', auth, async (c) =>
    c.json(await addSub(services, c.req.param('name'), await jsonBody(c, SubSchema))),
  );
  app.delete('/datasources/:name/subs/:sub_key', auth, async (c) =>
    c.json(
      await deleteSub(services, c.req.param('name'), c.req.param('sub_key'), c.req.query('parent_key') || undefined),
    ),
  );
  app.get('/file-types', auth, (c) => c.json({ file_types: [...DOCUMENT_FILE_TYPES] }));
  return app;
}
