/**
 * The `agents` state part: chat agents (instructions, model, allowed tools,
 * datasource scope), persisted with the control-plane state. Changed only
 * through `agents.<verb>` events; `apply` trusts them (src/agents/agents.ts
 * validates first).
 */
import type { StatePart, StateStore } from '../state/store.ts';

export interface AgentRecord {
  id: string;
  name: string;
  description: string;
  /** Added to the system instructions of every completion run with this agent. */
  instructions: string;
  /** Model id; null: the request's model (or the default). */
  model: string | null;
  /** Tools the agent may use (`serviceSearch`, `webSearch`). */
  tools: string[];
  /** Datasources serviceSearch is limited to; null: every datasource the user may see. */
  datasources: string[] | null;
  created_at: string;
  updated_at: string;
}

export interface AgentsState {
  agents: Map<string, AgentRecord>;
}

export type AgentsEvent =
  { type: 'agents.agent_saved'; agent: AgentRecord } | { type: 'agents.agent_deleted'; id: string };

const copy = (a: AgentRecord): AgentRecord => ({
  ...a,
  tools: [...a.tools],
  datasources: a.datasources ? [...a.datasources] : null,
});

export const agentsPart: StatePart<AgentsState, AgentsEvent> = {
  name: 'agents',
  create: () => ({ agents: new Map() }),
  apply(s, e) {
    if (e.type === 'agents.agent_saved') s.agents.set(e.agent.id, copy(e.agent));
    else if (e.type === 'agents.agent_deleted') s.agents.delete(e.id);
  },
  toJSON: (s) => ({ agents: [...s.agents.values()] }),
  fromJSON(json) {
    const s: AgentsState = { agents: new Map() };
    for (const a of (json as { agents?: AgentRecord[] }).agents ?? []) s.agents.set(a.id, copy(a));
    return s;
  },
};

export function commitAgents(state: StateStore, event: AgentsEvent): Promise<void> {
  return state.commit(event);
}
