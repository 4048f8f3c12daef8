/**
 * Memberships: a user (by email) or a nested group as a direct member of a
 * group. Group-to-group edges never form a cycle: an edge that would close
 * one is a 409 naming the cycle ("a -> b -> c -> a", read "a contains b").
 *
 * Errors (spec, Errors): 404 datasource, parent group, referenced user or
 * member group (or, on delete, the membership) missing; 409 duplicate or
 * cycle; 400 on delete when member_type is neither `user` nor `group`.
 * "Exactly one of member_email / member_group_name" is the schema's 422.
 */
import { badRequest, conflict, notFound } from '../errors.ts';
import { requireDatasource, type IndexingDeps } from './datasources.ts';
import { commitIndexing } from './events.ts';
import { normalizeEmail } from './names.ts';
import { requireGroup, requireUser } from './principals.ts';
import { cyclePath } from './resolve.ts';
import type { DatasourceState, MemberRef } from './state.ts';

export type MembershipView =
  | { group_name: string; member_type: 'user'; member_email: string }
  | { group_name: string; member_type: 'group'; member_group_name: string };

export interface MembershipResult {
  datasource: string;
  membership: MembershipView;
}

const view = (group: string, member: MemberRef): MembershipView =>
  member.type === 'user'
    ? { group_name: group, member_type: 'user', member_email: member.id }
    : { group_name: group, member_type: 'group', member_group_name: member.id };

const describe = (group: string, member: MemberRef) =>
  member.type === 'user' ? `User '${member.id}' in group '${group}'` : `Group '${member.id}' in group '${group}'`;

/** Check the datasource, the parent group and the referenced member exist (404s in the spec's order). */
function resolveRefs(deps: IndexingDeps, datasource: string, group: string, member: MemberRef): DatasourceState {
  const ds = requireDatasource(deps, datasource);
  requireGroup(ds, group);
  if (member.type === 'user') requireUser(ds, member.id);
  else requireGroup(ds, member.id);
  return ds;
}

function hasMember(ds: DatasourceState, group: string, member: MemberRef): boolean {
  const g = ds.groups.get(group);
  return member.type === 'user' ? !!g?.users.has(member.id) : !!g?.groups.has(member.id);
}

export async function createMembership(
  deps: IndexingDeps,
  datasource: string,
  input: { group_name: string; member_email?: string | null; member_group_name?: string | null },
): Promise<MembershipResult> {
  const useEmail = typeof input.member_email === 'string' && input.member_email.trim() !== '';
  const member: MemberRef = useEmail
    ? { type: 'user', id: normalizeEmail(input.member_email!) }
    : { type: 'group', id: input.member_group_name ?? '' };
  const group = input.group_name;
  const ds = resolveRefs(deps, datasource, group, member);
  if (hasMember(ds, group, member))
    throw conflict(`${describe(group, member)} already exists in datasource '${datasource}'`);
  if (member.type === 'group') {
    const cycle = cyclePath(ds, group, member.id);
    if (cycle)
      throw conflict(`Adding group '${member.id}' to group '${group}' would create a cycle: ${cycle.join(' -> ')}`);
  }
  await commitIndexing(deps.state, { type: 'indexing.membership_created', datasource, group, member });
  return { datasource, membership: view(group, member) };
}

export async function deleteMembership(
  deps: IndexingDeps,
  datasource: string,
  group: string,
  memberType: string,
  memberId: string,
): Promise<MembershipResult & { deleted: true }> {
  if (memberType !== 'user' && memberType !== 'group') {
    throw badRequest(`member_type must be 'user' or 'group', got '${memberType}'`);
  }
  const member: MemberRef =
    memberType === 'user' ? { type: 'user', id: normalizeEmail(memberId) } : { type: 'group', id: memberId };
  const ds = resolveRefs(deps, datasource, group, member);
  if (!hasMember(ds, group, member))
    throw notFound(`${describe(group, member)} not found in datasource '${datasource}'`);
  await commitIndexing(deps.state, { type: 'indexing.membership_deleted', datasource, group, member });
  return { datasource, membership: view(group, member), deleted: true };
}
