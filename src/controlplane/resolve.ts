/**
 * Group resolution: the groups a user belongs to, transitively (a member of a
 * nested group is a member of its parent groups). Walks the reverse edges
 * (user -> direct groups, group -> parent groups) breadth-first with a visited
 * set, so it is cycle-safe and linear in the groups reached. Results are
 * memoised per datasource until its groups or memberships change.
 *
 * Also the explanations: `membershipPath` (which chain of groups grants a
 * membership, for check-access reasons) and `cyclePath` (the cycle a new
 * group-to-group edge would close).
 */
import { requireDatasource, type IndexingDeps } from './datasources.ts';
import { normalizeEmail } from './names.ts';
import type { DatasourceState } from './state.ts';

const MAX_CACHED_EMAILS = 10_000;
const EMPTY: ReadonlySet<string> = new Set();

interface Memo {
  version: number;
  byEmail: Map<string, ReadonlySet<string>>;
}
const memo = new WeakMap<DatasourceState, Memo>();

/** Every group `email` belongs to in `ds`, directly or through nested groups. Do not mutate the result. */
export function resolveGroups(ds: DatasourceState, emailInput: string): ReadonlySet<string> {
  const email = normalizeEmail(emailInput);
  let m = memo.get(ds);
  if (!m || m.version !== ds.version) memo.set(ds, (m = { version: ds.version, byEmail: new Map() }));
  const hit = m.byEmail.get(email);
  if (hit) return hit;
  const direct = ds.userGroups.get(email);
  if (!direct) return EMPTY;
  const seen = new Set<string>(direct);
  const queue = [...direct];
  for (let i = 0; i < queue.length; i++) {
    const parents = ds.groupParents.get(queue[i]);
    if (!parents) continue;
    for (const p of parents) {
      if (seen.has(p)) continue;
      seen.add(p);
      queue.push(p);
    }
  }
  if (m.byEmail.size >= MAX_CACHED_EMAILS) m.byEmail.clear();
  m.byEmail.set(email, seen);
  return seen;
}

/** The groups of `email` in the datasource named `datasource` (404 when it does not exist). */
export function groupsOf(deps: Pick<IndexingDeps, 'state'>, datasource: string, email: string): ReadonlySet<string> {
  return resolveGroups(requireDatasource(deps, datasource), email);
}

/** Whether `email` is registered on `ds` (the precondition of seeing any of its documents). */
export const isRegistered = (ds: DatasourceState, email: string): boolean => ds.users.has(normalizeEmail(email));

/**
 * A shortest chain that makes `email` a member of `group`: `[g0, g1, ..., group]`
 * where the user is a direct member of g0 and each group is a member of the
 * next. Undefined when the user is not a member.
 */
export function membershipPath(ds: DatasourceState, emailInput: string, group: string): string[] | undefined {
  const direct = ds.userGroups.get(normalizeEmail(emailInput));
  if (!direct) return undefined;
  const prev = new Map<string, string | null>();
  const queue: string[] = [];
  for (const g of direct) {
    prev.set(g, null);
    queue.push(g);
  }
  for (let i = 0; i < queue.length; i++) {
    const current = queue[i];
    if (current === group) {
      const path: string[] = [];
      for (let at: string | null = current; at !== null; at = prev.get(at) ?? null) path.push(at);
      return path.reverse();
    }
    for (const p of ds.groupParents.get(current) ?? []) {
      if (prev.has(p)) continue;
      prev.set(p, current);
      queue.push(p);
    }
  }
  return undefined;
}

/**
 * The cycle that adding `member` as a nested group of `parent` would close, as
 * `[parent, member, ..., parent]` following "contains" edges; undefined when
 * the edge is safe.
 */
export function cyclePath(ds: DatasourceState, parent: string, member: string): string[] | undefined {
  if (parent === member) return [parent, member];
  const prev = new Map<string, string | null>([[member, null]]);
  const queue = [member];
  for (let i = 0; i < queue.length; i++) {
    const current = queue[i];
    for (const child of ds.groups.get(current)?.groups ?? []) {
      if (prev.has(child)) continue;
      prev.set(child, current);
      if (child === parent) {
        const path: string[] = [];
        for (let at: string | null = child; at !== null; at = prev.get(at) ?? null) path.push(at);
        return [parent, ...path.reverse()];
      }
      queue.push(child);
    }
  }
  return undefined;
}
