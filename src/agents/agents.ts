/**
 * Agents, domain side: create, list, get, update, delete (request schemas in
 * schemas.ts, routes in src/routes/admin.agents.ts). Ids are generated
 * (`agent_` + 24 hex digits). Updates are partial; `null` clears `model` and
 * `datasources`.
 */
import { notFound } from '../errors.ts';
import type { StateStore } from '../state/store.ts';
import type { CreateAgentInput, UpdateAgentInput } from './schemas.ts';
import { agentsPart, commitAgents, type AgentRecord } from './state.ts';

export const AGENT_ID = /^agent_[0-9a-f]{24}$/;

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

export async function createAgent(deps: AgentDeps, body: CreateAgentInput): Promise<AgentRecord> {
  const at = new Date(deps.now()).toISOString();
  const agent: AgentRecord = { id: randomId(), ...body, tools: [...body.tools], created_at: at, updated_at: at };
  await commitAgents(deps.state, { type: 'agents.agent_saved', agent });
  return agent;
}

export async function updateAgent(deps: AgentDeps, id: string, body: UpdateAgentInput): Promise<AgentRecord> {
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
