/**
 * Users and groups of a datasource. Users are keyed by normalised email
 * (trimmed, lowercased); groups by exact name, which must be non-empty,
 * free of whitespace and not start with the reserved prefix `svc`.
 *
 * Errors (spec, Errors): 400 empty email / bad group name, 404 unknown
 * datasource, user or group, 409 duplicates (also a rename onto an existing
 * name). Deleting a user or group also removes its memberships.
 */
import { badRequest, conflict, notFound } from '../errors.ts';
import { requireDatasource, type IndexingDeps } from './datasources.ts';
import { commitIndexing } from './events.ts';
import { groupNameProblem, normalizeEmail } from './names.ts';
import type { DatasourceState, UserRecord } from './state.ts';

export interface UserResult {
  datasource: string;
  user: UserRecord;
}

export interface GroupResult {
  datasource: string;
  group: { name: string };
}

/** Normalised email or a 400. */
function emailOrBadRequest(email: string | null | undefined): string {
  const normalized = normalizeEmail(email ?? '');
  if (normalized === '') throw badRequest('User email must not be empty');
  return normalized;
}

function groupNameOrBadRequest(name: string): string {
  const problem = groupNameProblem(name);
  if (problem) throw badRequest(problem);
  return name;
}

export function requireUser(ds: DatasourceState, email: string): UserRecord {
  const user = ds.users.get(email);
  if (!user) throw notFound(`User '${email}' not found in datasource '${ds.record.name}'`);
  return user;
}

export function requireGroup(ds: DatasourceState, name: string): void {
  if (!ds.groups.has(name)) throw notFound(`Group '${name}' not found in datasource '${ds.record.name}'`);
}

export async function createUser(
  deps: IndexingDeps,
  datasource: string,
  user: { email?: string | null; name?: string | null },
): Promise<UserResult> {
  const email = emailOrBadRequest(user.email);
  const ds = requireDatasource(deps, datasource);
  if (ds.users.has(email)) throw conflict(`User '${email}' already exists in datasource '${datasource}'`);
  const record: UserRecord = { email, name: user.name ?? null };
  await commitIndexing(deps.state, { type: 'indexing.user_created', datasource, user: record });
  return { datasource, user: { ...record } };
}

export async function updateUser(
  deps: IndexingDeps,
  datasource: string,
  emailParam: string,
  name: string | null,
): Promise<UserResult> {
  const email = emailOrBadRequest(emailParam);
  const ds = requireDatasource(deps, datasource);
  requireUser(ds, email);
  const record: UserRecord = { email, name };
  await commitIndexing(deps.state, { type: 'indexing.user_updated', datasource, user: record });
  return { datasource, user: { ...record } };
}

export async function deleteUser(
  deps: IndexingDeps,
  datasource: string,
  emailParam: string,
): Promise<UserResult & { deleted: true; memberships_removed: number }> {
  const email = emailOrBadRequest(emailParam);
  const ds = requireDatasource(deps, datasource);
  const user = { ...requireUser(ds, email) };
  const memberships_removed = ds.userGroups.get(email)?.size ?? 0;
  await commitIndexing(deps.state, { type: 'indexing.user_deleted', datasource, email });
  return { datasource, user, deleted: true, memberships_removed };
}

/** Registered users of a datasource, sorted by email. */
export function listUsers(
  deps: Pick<IndexingDeps, 'state'>,
  datasource: string,
): { datasource: string; users: UserRecord[] } {
  const ds = requireDatasource(deps, datasource);
  const users = [...ds.users.values()].map((u) => ({ ...u })).sort((a, b) => (a.email < b.email ? -1 : 1));
  return { datasource, users };
}

export async function createGroup(deps: IndexingDeps, datasource: string, nameInput: string): Promise<GroupResult> {
  const name = groupNameOrBadRequest(nameInput);
  const ds = requireDatasource(deps, datasource);
  if (ds.groups.has(name)) throw conflict(`Group '${name}' already exists in datasource '${datasource}'`);
  await commitIndexing(deps.state, { type: 'indexing.group_created', datasource, name });
  return { datasource, group: { name } };
}

/** Rename a group; memberships follow (documents keep the old name until re-indexed). */
export async function renameGroup(
  deps: IndexingDeps,
  datasource: string,
  from: string,
  toInput: string,
): Promise<GroupResult & { previous_name: string }> {
  const to = groupNameOrBadRequest(toInput);
  const ds = requireDatasource(deps, datasource);
  requireGroup(ds, from);
  if (to !== from) {
    if (ds.groups.has(to)) throw conflict(`Group '${to}' already exists in datasource '${datasource}'`);
    await commitIndexing(deps.state, { type: 'indexing.group_renamed', datasource, from, to });
  }
  return { datasource, group: { name: to }, previous_name: from };
}

export async function deleteGroup(
  deps: IndexingDeps,
  datasource: string,
  name: string,
): Promise<GroupResult & { deleted: true; memberships_removed: number }> {
  const ds = requireDatasource(deps, datasource);
  requireGroup(ds, name);
  const g = ds.groups.get(name)!;
  const memberships_removed = g.users.size + g.groups.size + (ds.groupParents.get(name)?.size ?? 0);
  await commitIndexing(deps.state, { type: 'indexing.group_deleted', datasource, name });
  return { datasource, group: { name }, deleted: true, memberships_removed };
}

/** Groups of a datasource with their direct members, sorted by name. */
export function listGroups(
  deps: Pick<IndexingDeps, 'state'>,
  datasource: string,
): { datasource: string; groups: { name: string; member_emails: string[]; member_groups: string[] }[] } {
  const ds = requireDatasource(deps, datasource);
  const groups = [...ds.groups.values()]
    .map((g) => ({ name: g.name, member_emails: [...g.users].sort(), member_groups: [...g.groups].sort() }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  return { datasource, groups };
}
