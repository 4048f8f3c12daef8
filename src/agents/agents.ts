/**
 * Agents, domain side: create, list, get, update, delete, with the request
 * schemas of the admin API (src/routes/admin.agents.ts). Ids are generated
 * (`agent_` + 24 hex digits). Updates are partial; `null` clears `model` and
 * `datasources`.
 */
import * as v from 'valibot';
import { notFound } from '../errors.ts';
import { pyIssue } from '../validation/pydantic.ts';
import type { StateStore } from '../state/store.ts';
import { agentsPart, commitAgents, type AgentRecord } from './state.ts';

export const AGENT_TOOLS = ['serviceSearch', 'webSearch'] as const;
/** A datasource category (`wikitool`, ..., `other`) or the name of a pushed datasource. */
export const DATASOURCE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
export const AGENT_ID = /^agent_[0-9a-f]{24}$/;

const fields = {
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
  description: v.pipe(v.string(), v.maxLength(2000)),
  instructions: v.pipe(v.string(), v.maxLength(20_000)),
  model: v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))),
  tools: v.pipe(
    v.array(v.picklist(AGENT_TOOLS)),
    v.check(
      (t) => new Set(t).size === t.length,
      pyIssue('value_error', 'Value error, tools must not repeat', { error: {} }),
    ),
  ),
  datasources: v.nullable(
    v.pipe(v.array(v.pipe(v.string(), v.regex(DATASOURCE_NAME))), v.minLength(1), v.maxLength(100)),
  ),
};

export const CreateAgentBody = v.strictObject({
  name: fields.name,
  description: v.optional(fields.description, ''),
  instructions: v.optional(fields.instructions, ''),
  model: v.optional(fields.model, null),
  tools: v.optional(fields.tools, ['serviceSearch']),
  datasources: v.optional(fields.datasources, null),
});

export const UpdateAgentBody = v.strictObject({
  name: v.optional(fields.name),
  description: v.optional(fields.description),
  instructions: v.optional(fields.instructions),
  model: v.optional(fields.model),
  tools: v.optional(fields.tools),
  datasources: v.optional(fields.datasources),
});

export interface AgentDeps {
  state: StateStore;
  now: () => number;
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `agent_${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function listAgents(deps: AgentDeps): AgentRecord[] {
  return [...deps.state.get(agentsPart).agents.values()].sort(
    (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
  );
}

/** The agent, or undefined. */
export function findAgent(deps: Pick<AgentDeps, 'state'>, id: string): AgentRecord | undefined {
  return deps.state.get(agentsPart).agents.get(id);
}

export function getAgent(deps: AgentDeps, id: string): AgentRecord {
  const agent = findAgent(deps, id);
  if (!agent) throw notFound(`Agent ${id} does not exist`);
  return agent;
}

export async function createAgent(deps: AgentDeps, body: v.InferOutput<typeof CreateAgentBody>): Promise<AgentRecord> {
  const at = new Date(deps.now()).toISOString();
  const agent: AgentRecord = { id: randomId(), ...body, tools: [...body.tools], created_at: at, updated_at: at };
  await commitAgents(deps.state, { type: 'agents.agent_saved', agent });
  return agent;
}

export async function updateAgent(
  deps: AgentDeps,
  id: string,
  body: v.InferOutput<typeof UpdateAgentBody>,
): Promise<AgentRecord> {
  const current = getAgent(deps, id);
  const patch = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
  const agent: AgentRecord = { ...current, ...patch, id, updated_at: new Date(deps.now()).toISOString() };
  await commitAgents(deps.state, { type: 'agents.agent_saved', agent });
  return agent;
}

export async function deleteAgent(deps: AgentDeps, id: string): Promise<{ id: string; deleted: true }> {
  getAgent(deps, id);
  await commitAgents(deps.state, { type: 'agents.agent_deleted', id });
  return { id, deleted: true };
}
