/**
 * OpenAPI operations of the Indexing API control plane's principals (prefix
 * /api/indexing, service-account keys or an administrator's browser session):
 * the users, groups and memberships that documents' access lists name, in
 * the order they are set up (users, groups, memberships). Request bodies are
 * the handlers' schemas (controlplane/schemas.ts).
 */
import * as v from 'valibot';
import {
  CreateGroupSchema,
  CreateMembershipSchema,
  CreateUserSchema,
  RenameGroupSchema,
  UpdateUserSchema,
} from '../controlplane/schemas.ts';
import type { Operation } from './operations.ts';
import type { SchemaRegistry } from './schema.ts';

const BASE = '/api/indexing';
const str = v.string();
const int = v.pipe(v.number(), v.integer());

const User = v.object({ email: str, name: v.nullable(str) });
const Membership = v.object({
  group_name: str,
  member_type: v.picklist(['user', 'group']),
  member_email: v.optional(str),
  member_group_name: v.optional(str),
});
const deleted = { deleted: v.literal(true), memberships_removed: int };

export function principalOperations(r: SchemaRegistry): Operation[] {
  r.named('IndexingUser', User);
  const ctl = { tag: 'Indexing API: control plane', access: 'service-or-session' } as const;
  const user = v.object({ datasource: str, user: User });
  const group = v.object({ datasource: str, group: v.object({ name: str }) });
  const membership = v.object({ datasource: str, membership: Membership });
  const op = (o: Omit<Operation, 'tag' | 'access'>): Operation => ({ ...ctl, ...o });
  return [
    op({
      method: 'post',
      path: `${BASE}/users`,
      id: 'create_user',
      summary: 'Register a user',
      body: CreateUserSchema,
      errors: [400, 404, 409],
      ok: { description: 'The user', schema: user },
    }),
    op({
      method: 'get',
      path: `${BASE}/users/{datasource}`,
      id: 'list_users',
      summary: 'List users',
      pathParams: { datasource: 'Datasource name.' },
      errors: [404],
      ok: { description: 'The users', schema: v.object({ datasource: str, users: v.array(User) }) },
    }),
    op({
      method: 'put',
      path: `${BASE}/users/{datasource}/{email}`,
      id: 'update_user',
      summary: 'Update a user',
      pathParams: { datasource: 'Datasource name.', email: 'User email.' },
      body: UpdateUserSchema,
      errors: [400, 404],
      ok: { description: 'The user', schema: user },
    }),
    op({
      method: 'delete',
      path: `${BASE}/users/{datasource}/{email}`,
      id: 'delete_user',
      summary: 'Delete a user',
      pathParams: { datasource: 'Datasource name.', email: 'User email.' },
      errors: [400, 404],
      ok: { description: 'The removed user', schema: v.object({ ...user.entries, ...deleted }) },
    }),
    op({
      method: 'post',
      path: `${BASE}/groups`,
      id: 'create_group',
      summary: 'Create a group',
      body: CreateGroupSchema,
      errors: [400, 404, 409],
      ok: { description: 'The group', schema: group },
    }),
    op({
      method: 'get',
      path: `${BASE}/groups/{datasource}`,
      id: 'list_groups',
      summary: 'List groups',
      pathParams: { datasource: 'Datasource name.' },
      errors: [404],
      ok: {
        description: 'The groups with their direct members',
        schema: v.object({
          datasource: str,
          groups: v.array(v.object({ name: str, member_emails: v.array(str), member_groups: v.array(str) })),
        }),
      },
    }),
    op({
      method: 'put',
      path: `${BASE}/groups/{datasource}/{group_name}`,
      id: 'rename_group',
      summary: 'Rename a group',
      pathParams: { datasource: 'Datasource name.', group_name: 'Current group name.' },
      body: RenameGroupSchema,
      errors: [400, 404, 409],
      ok: { description: 'The renamed group', schema: v.object({ ...group.entries, previous_name: str }) },
    }),
    op({
      method: 'delete',
      path: `${BASE}/groups/{datasource}/{group_name}`,
      id: 'delete_group',
      summary: 'Delete a group',
      pathParams: { datasource: 'Datasource name.', group_name: 'Group name.' },
      errors: [404],
      ok: { description: 'The removed group', schema: v.object({ ...group.entries, ...deleted }) },
    }),
    op({
      method: 'post',
      path: `${BASE}/memberships`,
      id: 'create_membership',
      summary: 'Add a membership',
      description: 'Exactly one of `member_email` and `member_group_name`; a group edge closing a cycle is 409.',
      body: CreateMembershipSchema,
      errors: [400, 404, 409],
      ok: { description: 'The membership', schema: membership },
    }),
    op({
      method: 'delete',
      path: `${BASE}/memberships/{datasource}/{group_name}/{member_type}/{member_id}`,
      id: 'delete_membership',
      summary: 'Remove a membership',
      pathParams: {
        datasource: 'Datasource name.',
        group_name: 'Parent group.',
        member_type: '`user` or `group`.',
        member_id: 'The email (user) or the nested group name (group).',
      },
      errors: [400, 404],
      ok: {
        description: 'The removed membership',
        schema: v.object({ ...membership.entries, deleted: v.literal(true) }),
      },
    }),
  ];
}
