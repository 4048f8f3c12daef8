/**
 * Permission settings shared by the connectors: a grant (everyone registered on the datasource,
 * listed people, listed groups: the Indexing API's three modes) and path rules that give a
 * grant to a folder or URL subtree, the longest matching rule winning, a default for the rest.
 * Group names must exist on the datasource with their members (Indexing API: users, groups,
 * memberships) for anyone to see such a document; that is the operator's part.
 */
import * as v from 'valibot';
import { groupNameProblem } from '../controlplane/names.ts';
import type { SourceDocument } from './types.ts';

const Email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.minLength(3), v.maxLength(320), v.includes('@'));
const GroupName = v.pipe(
  v.string(),
  v.check((g) => groupNameProblem(g) === undefined, 'not a valid group name (no whitespace, not starting with svc)'),
);

const grantEntries = {
  everyone: v.optional(v.boolean(), false),
  users: v.optional(v.pipe(v.array(Email), v.maxLength(2000)), []),
  groups: v.optional(v.pipe(v.array(GroupName), v.maxLength(2000)), []),
};

export const GrantSchema = v.strictObject(grantEntries);
export type Grant = v.InferOutput<typeof GrantSchema>;

export const PathRuleSchema = v.strictObject({
  path: v.pipe(v.string(), v.minLength(1), v.maxLength(4096)),
  ...grantEntries,
});
export type PathRule = v.InferOutput<typeof PathRuleSchema>;

/** Everyone registered on the datasource (the Indexing API's default). */
export const EVERYONE: Grant = { everyone: true, users: [], groups: [] };

export function toPermissions(g: Grant): NonNullable<SourceDocument['permissions']> {
  return { allow_anonymous_access: g.everyone, allowed_users: [...g.users], allowed_groups: [...g.groups] };
}

const segments = (p: string) => p.split('/').filter((s) => s !== '');

/**
 * The grant of a `/`-separated path: the rule whose path is the longest whole-segment prefix of
 * it (`hr` covers `hr/x.pdf`, not `hrm/x.pdf`), else `fallback`.
 */
export function pathRules(rules: readonly PathRule[], fallback: Grant): (path: string) => Grant {
  const compiled = rules
    .map((r) => ({ parts: segments(r.path), grant: { everyone: r.everyone, users: r.users, groups: r.groups } }))
    .sort((a, b) => b.parts.length - a.parts.length);
  return (path) => {
    const parts = segments(path);
    for (const rule of compiled) {
      if (rule.parts.length > parts.length) continue;
      if (rule.parts.every((s, i) => s === parts[i])) return rule.grant;
    }
    return fallback;
  };
}
