/**
 * OpenAPI operations of the admin API for agents and connectors (master key,
 * or an administrator's key or browser session): agents (chat presets), the
 * connector types, connectors with pause, resume, run and status. Bodies are
 * the handlers' schemas (agents/schemas.ts, connectors/schemas.ts); a
 * connector's settings depend on its type (GET /api/admin/connector-types).
 */
import * as v from 'valibot';
import { CreateAgentBody, UpdateAgentBody } from '../agents/schemas.ts';
import { CreateConnectorBody, UpdateConnectorBody } from '../connectors/schemas.ts';
import type { Operation } from './operations.ts';
import type { SchemaRegistry } from './schema.ts';

const str = v.string();
const num = v.number();
const id = { id: 'Id.' };
const deleted = v.object({ id: str, deleted: v.literal(true) });

const Agent = v.object({
  id: str,
  name: str,
  description: str,
  instructions: str,
  model: v.nullable(str),
  tools: v.array(str),
  datasources: v.nullable(v.array(str)),
  created_at: str,
  updated_at: str,
});

const Run = v.looseObject({
  run: num,
  trigger: str,
  state: str,
  started_at: str,
  finished_at: v.nullable(str),
  progress: v.object({ done: num, total: num }),
  counts: v.record(v.string(), num),
  failures: v.array(v.looseObject({})),
  failures_omitted: num,
});

const Connector = v.looseObject({
  id: str,
  name: str,
  type: str,
  category: str,
  datasource: str,
  interval_minutes: v.nullable(num),
  settings: v.record(v.string(), v.unknown()),
  credentials: v.pipe(v.nullable(v.record(v.string(), str)), v.description('Masked: field names only.')),
  paused: v.boolean(),
  created_at: str,
  updated_at: str,
  status: v.looseObject({}),
});

export function adminConnectorOperations(r: SchemaRegistry): Operation[] {
  const agent = r.named('Agent', Agent);
  const connector = r.named('Connector', Connector);
  const run = r.named('ConnectorRun', Run);
  const ops = { tag: 'Admin: agents and connectors', access: 'admin' } as const;
  const op = (o: Omit<Operation, 'tag' | 'access'>): Operation => ({ ...ops, ...o });
  const C = '/api/admin/connectors';
  const A = '/api/admin/agents';
  return [
    op({
      method: 'post',
      path: A,
      id: 'create_agent',
      summary: 'Create an agent',
      body: CreateAgentBody,
      ok: { status: 201, description: 'The agent', schema: agent },
    }),
    op({
      method: 'get',
      path: A,
      id: 'list_agents',
      summary: 'List agents',
      ok: { description: 'Every agent', schema: v.object({ agents: v.array(agent) }) },
    }),
    op({
      method: 'get',
      path: `${A}/{id}`,
      id: 'get_agent',
      summary: 'Get an agent',
      pathParams: id,
      errors: [404],
      ok: { description: 'The agent', schema: agent },
    }),
    op({
      method: 'patch',
      path: `${A}/{id}`,
      id: 'update_agent',
      summary: 'Update an agent (PUT does the same)',
      pathParams: id,
      body: UpdateAgentBody,
      errors: [404],
      ok: { description: 'The agent', schema: agent },
    }),
    op({
      method: 'put',
      path: `${A}/{id}`,
      id: 'replace_agent',
      summary: 'Update an agent',
      pathParams: id,
      body: UpdateAgentBody,
      errors: [404],
      ok: { description: 'The agent', schema: agent },
    }),
    op({
      method: 'delete',
      path: `${A}/{id}`,
      id: 'delete_agent',
      summary: 'Delete an agent',
      pathParams: id,
      errors: [404],
      ok: { description: 'Deleted', schema: deleted },
    }),
    op({
      method: 'get',
      path: '/api/admin/connector-types',
      id: 'list_connector_types',
      summary: 'Connector types',
      ok: { description: 'The connector types with their settings', schema: v.looseObject({}) },
    }),
    op({
      method: 'post',
      path: C,
      id: 'create_connector',
      summary: 'Create a connector',
      body: CreateConnectorBody,
      errors: [404, 409],
      ok: { status: 201, description: 'The connector', schema: connector },
    }),
    op({
      method: 'get',
      path: C,
      id: 'list_connectors',
      summary: 'List connectors',
      ok: { description: 'Every connector', schema: v.object({ connectors: v.array(connector) }) },
    }),
    op({
      method: 'get',
      path: `${C}/{id}`,
      id: 'get_connector',
      summary: 'Get a connector',
      pathParams: id,
      errors: [404],
      ok: { description: 'The connector', schema: connector },
    }),
    op({
      method: 'patch',
      path: `${C}/{id}`,
      id: 'update_connector',
      summary: 'Update a connector (PUT does the same)',
      pathParams: id,
      body: UpdateConnectorBody,
      errors: [404, 409],
      ok: { description: 'The connector', schema: connector },
    }),
    op({
      method: 'put',
      path: `${C}/{id}`,
      id: 'replace_connector',
      summary: 'Update a connector',
      pathParams: id,
      body: UpdateConnectorBody,
      errors: [404, 409],
      ok: { description: 'The connector', schema: connector },
    }),
    op({
      method: 'delete',
      path: `${C}/{id}`,
      id: 'delete_connector',
      summary: 'Delete a connector',
      pathParams: id,
      errors: [404],
      ok: { description: 'Deleted', schema: deleted },
    }),
    op({
      method: 'post',
      path: `${C}/{id}/pause`,
      id: 'pause_connector',
      summary: 'Pause a connector',
      pathParams: id,
      errors: [404],
      ok: { description: 'The connector', schema: connector },
    }),
    op({
      method: 'post',
      path: `${C}/{id}/resume`,
      id: 'resume_connector',
      summary: 'Resume a connector',
      pathParams: id,
      errors: [404],
      ok: { description: 'The connector', schema: connector },
    }),
    op({
      method: 'post',
      path: `${C}/{id}/run`,
      id: 'run_connector',
      summary: 'Run a connector now',
      pathParams: id,
      errors: [404, 409],
      ok: { status: 202, description: 'The run started', schema: v.object({ id: str, run }) },
    }),
    op({
      method: 'get',
      path: `${C}/{id}/status`,
      id: 'connector_status',
      summary: 'Connector status and runs',
      pathParams: id,
      errors: [404],
      ok: { description: 'The status', schema: v.looseObject({}) },
    }),
  ];
}
