/**
 * Who sees what: the access-token set of a user over all datasources and the
 * engine filter built from it (spec, Authentication 5 and 6). A user holds
 * tokens only on datasources where the login email is registered: there the
 * anonymous token, the own user token and one token per group reached
 * transitively (documents/tokens.ts `userTokens`). A datasource whose deleted
 * predecessor of the same name still has documents in the committed index
 * (`hidden`: DocumentService.dropPending) gives no tokens until the drop is
 * committed: all its committed documents are the old ones. Every engine call of the
 * search service (hits, related lists) carries this filter; an empty token set
 * means no results, without asking the engine.
 */
import type { Filter } from '../../engine/index.ts';
import { userTokens } from '../documents/tokens.ts';
import type { DatasourceState, IndexingState } from '../controlplane/state.ts';

/** What a token set was computed from, per datasource in order: the datasource, its group version, registration, hidden. */
interface Memo {
  basis: { ds: DatasourceState; version: number; registered: boolean; hidden: boolean }[];
  tokens: readonly string[];
}
const memos = new WeakMap<IndexingState, Map<string, Memo>>();
const MAX_MEMOS = 10_000;

/** Whether the documents of a datasource name are hidden from every viewer for now. */
export type HiddenDatasource = (name: string) => boolean;
const NONE_HIDDEN: HiddenDatasource = () => false;

function stillValid(state: IndexingState, memo: Memo, email: string, hidden: HiddenDatasource): boolean {
  if (memo.basis.length !== state.datasources.size) return false;
  let i = 0;
  for (const ds of state.datasources.values()) {
    const b = memo.basis[i++];
    if (b.ds !== ds || b.version !== ds.version || b.registered !== ds.users.has(email)) return false;
    if (b.registered && b.hidden !== hidden(ds.record.name)) return false;
  }
  return true;
}

/**
 * The union of the user's tokens over every datasource, sorted (a stable filter-cache key);
 * shared, not to be modified. Remembered per email until a datasource is added or removed,
 * its groups or memberships change (its version), the user's registration on it changes, or it
 * becomes hidden or visible again.
 */
export function visibleTokens(
  state: IndexingState,
  email: string,
  hidden: HiddenDatasource = NONE_HIDDEN,
): readonly string[] {
  const normalized = email.trim().toLowerCase();
  let byEmail = memos.get(state);
  if (!byEmail) memos.set(state, (byEmail = new Map()));
  const memo = byEmail.get(normalized);
  if (memo && stillValid(state, memo, normalized, hidden)) return memo.tokens;
  const out: string[] = [];
  const basis: Memo['basis'] = [];
  for (const ds of state.datasources.values()) {
    const registered = ds.users.has(normalized);
    const isHidden = registered && hidden(ds.record.name);
    basis.push({ ds, version: ds.version, registered, hidden: isHidden });
    if (!isHidden) out.push(...userTokens(ds, normalized));
  }
  out.sort();
  if (byEmail.size >= MAX_MEMOS) byEmail.clear();
  byEmail.set(normalized, { basis, tokens: out });
  return out;
}

/** The engine filter admitting exactly the documents carrying one of `tokens`; null when nothing is visible. */
export function visibilityFilter(tokens: readonly string[]): Filter | null {
  return tokens.length === 0 ? null : { keyword: 'acl', anyOf: [...tokens] };
}
