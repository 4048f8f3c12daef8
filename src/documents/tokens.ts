/**
 * Access tokens: how a document's permissions and a user's identity meet in
 * the index. Tokens are scoped to their datasource, so a user registered on one
 * datasource never matches a token of another:
 *   `<datasource>|*`          everyone registered on the datasource (anonymous)
 *   `<datasource>|u|<email>`  one allowed user (email lowercased)
 *   `<datasource>|g|<group>`  one allowed group (name as given)
 * A document stores its tokens in the engine's `acl` keyword column; a search
 * filters on the token set of the searching user (empty for datasources on
 * which the user is not registered).
 */
import type { DatasourceState } from '../controlplane/state.ts';
import { resolveGroups } from '../controlplane/resolve.ts';
import type { DocumentInput } from './schemas.ts';

export const anonymousToken = (datasource: string) => `${datasource}|*`;
export const userToken = (datasource: string, email: string) => `${datasource}|u|${email.trim().toLowerCase()}`;
export const groupToken = (datasource: string, group: string) => `${datasource}|g|${group}`;

/** The sorted, de-duplicated token set of a document (its identity for the `already_indexed` rule). */
export function documentTokens(datasource: string, permissions: DocumentInput['permissions']): string[] {
  const tokens = new Set<string>();
  if (!permissions || permissions.allow_anonymous_access === true) tokens.add(anonymousToken(datasource));
  for (const u of permissions?.allowed_users ?? []) tokens.add(userToken(datasource, u.email));
  for (const g of permissions?.allowed_groups ?? []) tokens.add(groupToken(datasource, g));
  return [...tokens].sort();
}

/** The tokens a user holds on one datasource: none unless registered; else anonymous, own email, every transitive group. */
export function userTokens(ds: DatasourceState, email: string): string[] {
  const normalized = email.trim().toLowerCase();
  if (!ds.users.has(normalized)) return [];
  const name = ds.record.name;
  const out = [anonymousToken(name), userToken(name, normalized)];
  for (const g of resolveGroups(ds, normalized)) out.push(groupToken(name, g));
  return out;
}

/** Parse a token back into its parts (for check-access explanations). */
export function parseToken(
  token: string,
): { datasource: string; kind: 'anonymous' | 'user' | 'group'; value: string } | null {
  const first = token.indexOf('|');
  if (first < 0) return null;
  const datasource = token.slice(0, first);
  const rest = token.slice(first + 1);
  if (rest === '*') return { datasource, kind: 'anonymous', value: '*' };
  if (rest.startsWith('u|')) return { datasource, kind: 'user', value: rest.slice(2) };
  if (rest.startsWith('g|')) return { datasource, kind: 'group', value: rest.slice(2) };
  return null;
}
