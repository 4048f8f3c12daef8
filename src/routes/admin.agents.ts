/**
 * Admin API, chat agents (master key or an administrator account):
 *   POST   /api/admin/agents        {name, description?, instructions?, model?, tools?, datasources?} -> agent
 *   GET    /api/admin/agents        -> {agents: [agent]}
 *   GET    /api/admin/agents/{id}   -> agent
 *   PATCH  /api/admin/agents/{id}   partial update (also PUT) -> agent
 *   DELETE /api/admin/agents/{id}   -> {id, deleted: true}
 * Unknown ids answer 404 `{detail}`; bodies are validated strictly (422).
 */
import { Hono } from 'hono';
import { createAgent, deleteAgent, getAgent, listAgents, updateAgent } from '../agents/agents.ts';
import { CreateAgentBody, UpdateAgentBody } from '../agents/schemas.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';

export function adminAgentsRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = requireAdmin(services);

  app.post('/api/admin/agents', admin, async (c) =>
    c.json(await createAgent(services, await jsonBody(c, CreateAgentBody)), 201),
  );
  app.get('/api/admin/agents', admin, (c) => c.json({ agents: listAgents(services) }));
  app.get('/api/admin/agents/:id', admin, (c) => c.json(getAgent(services, c.req.param('id'))));
  app.on(['PATCH', 'PUT'], '/api/admin/agents/:id', admin, async (c) => {
    const id = c.req.param('id');
    getAgent(services, id);
    return c.json(await updateAgent(services, id, await jsonBody(c, UpdateAgentBody)));
  });
  app.delete('/api/admin/agents/:id', admin, async (c) => c.json(await deleteAgent(services, c.req.param('id'))));
  return app;
}
