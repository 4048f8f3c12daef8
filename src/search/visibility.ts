/**
 * Who sees what: the access-token set of a user over all datasources and the
 * engine filter built from it (spec, Authentication 5 and 6). A user holds
 * tokens only on datasources where the login email is registered: there the
 * anonymous token, the own user token and one token per group reached
 * transitively (documents/tokens.ts `userTokens`). Every engine call of the
 * search service (hits, related lists) carries this filter; an empty token set
 * means no results, without asking the engine.
 */
import type { Filter } from '../../engine/index.ts';
import { userTokens } from '../documents/tokens.ts';
import type { IndexingState } from '../indexing/state.ts';

/** The union of the user's tokens over every datasource, sorted (a stable filter-cache key). */
export function visibleTokens(state: IndexingState, email: string): string[] {
  const out: string[] = [];
  for (const ds of state.datasources.values()) out.push(...userTokens(ds, email));
  return out.sort();
}

/** The engine filter admitting exactly the documents carrying one of `tokens`; null when nothing is visible. */
export function visibilityFilter(tokens: readonly string[]): Filter | null {
  return tokens.length === 0 ? null : { keyword: 'acl', anyOf: [...tokens] };
}
