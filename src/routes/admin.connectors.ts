/**
 * Admin API, connectors (master key or an administrator account):
 *   GET    /api/admin/connector-types           -> {types: [{type, category, description, takes_credentials}]}
 *   POST   /api/admin/connectors                {name, type, datasource, interval_minutes?, settings?, credentials?, paused?} -> 201 connector
 *   GET    /api/admin/connectors                -> {connectors: [connector]}
 *   GET    /api/admin/connectors/{id}           -> connector
 *   PATCH  /api/admin/connectors/{id}           partial update (also PUT) -> connector
 *   DELETE /api/admin/connectors/{id}           -> {id, deleted: true}
 *   POST   /api/admin/connectors/{id}/pause     -> connector
 *   POST   /api/admin/connectors/{id}/resume    -> connector (a run starts at once)
 *   POST   /api/admin/connectors/{id}/run       -> 202 {id, run}
 *   GET    /api/admin/connectors/{id}/status    -> {state, current_run, last_run, last_success_at, next_run_at}
 * Credentials are answered masked. Unknown ids 404, a running or paused connector's run 409,
 * credentials without CONNECTOR_SECRET 503, invalid bodies 422.
 */
import { Hono } from 'hono';
import { requireAdmin } from '../auth/middleware.ts';
import {
  connectorStatus,
  createConnector,
  deleteConnector,
  getConnector,
  listConnectors,
  listConnectorTypes,
  pauseConnector,
  requireConnector,
  resumeConnector,
  runConnector,
  updateConnector,
  type ConnectorDeps,
} from '../connectors/connectors.ts';
import type { ConnectorScheduler } from '../connectors/scheduler.ts';
import { CreateConnectorBody, UpdateConnectorBody } from '../connectors/schemas.ts';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';

export function adminConnectorRoutes(services: Services & { connectors: ConnectorScheduler }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = requireAdmin(services);
  const deps: ConnectorDeps = {
    state: services.state,
    now: services.now,
    config: services.config,
    scheduler: services.connectors,
  };
  const base = '/api/admin/connectors';

  app.get('/api/admin/connector-types', admin, (c) => c.json(listConnectorTypes()));
  app.post(base, admin, async (c) => c.json(await createConnector(deps, await jsonBody(c, CreateConnectorBody)), 201));
  app.get(base, admin, (c) => c.json(listConnectors(deps)));
  app.get(`${base}/:id`, admin, (c) => c.json(getConnector(deps, c.req.param('id'))));
  app.on(['PATCH', 'PUT'], `${base}/:id`, admin, async (c) => {
    const id = c.req.param('id');
    requireConnector(deps, id);
    return c.json(await updateConnector(deps, id, await jsonBody(c, UpdateConnectorBody)));
  });
  app.delete(`${base}/:id`, admin, async (c) => c.json(await deleteConnector(deps, c.req.param('id'))));
  app.post(`${base}/:id/pause`, admin, async (c) => c.json(await pauseConnector(deps, c.req.param('id'))));
  app.post(`${base}/:id/resume`, admin, async (c) => c.json(await resumeConnector(deps, c.req.param('id'))));
  app.post(`${base}/:id/run`, admin, async (c) => c.json(await runConnector(deps, c.req.param('id')), 202));
  app.get(`${base}/:id/status`, admin, (c) => c.json(connectorStatus(deps, c.req.param('id'))));
  return app;
}
