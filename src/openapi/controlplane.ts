/**
 * OpenAPI operations of the Indexing API control plane (prefix
 * /api/indexing, service-account keys or an administrator's browser session):
 * datasources with their subs and object definitions, the document file types,
 * and the users, groups and memberships that documents' access lists name.
 * Request bodies are the handlers' schemas (controlplane/schemas.ts).
 */
import * as v from 'valibot';
import {
  CreateDatasourceSchema,
  CreateGroupSchema,
  CreateMembershipSchema,
  CreateUserSchema,
  ObjectDefinitionSchema,
  RenameGroupSchema,
  SubSchema,
  UpdateDatasourceSchema,
  UpdateUserSchema,
} from '../controlplane/schemas.ts';
import type { Operation } from './operations.ts';
import type { SchemaRegistry } from './schema.ts';

const BASE = '/api/indexing';
const str = v.string();
const int = v.pipe(v.number(), v.integer());

const SubView = v.object({
  key: str,
  name: str,
  value: v.pipe(v.string(), v.description('Filter value `{datasource}__{key}`.')),
  children: v.array(
    v.object({
      key: str,
      name: str,
      parent_key: str,
      value: v.pipe(v.string(), v.description('Filter value `{datasource}__{parent}__{key}`.')),
    }),
  ),
});

const DatasourceView = v.object({
  name: str,
  display_name: str,
  icon_base64: v.nullable(str),
  subs: v.array(SubView),
  object_definitions: v.array(ObjectDefinitionSchema),
  created_at: str,
  updated_at: str,
});

const User = v.object({ email: str, name: v.nullable(str) });
const Membership = v.object({
  group_name: str,
  member_type: v.picklist(['user', 'group']),
  member_email: v.optional(str),
  member_group_name: v.optional(str),
});
const deleted = { deleted: v.literal(true), memberships_removed: int };

export function controlPlaneOperations(r: SchemaRegistry): Operation[] {
  r.named('ObjectDefinition', ObjectDefinitionSchema);
  const ds = r.named('Datasource', DatasourceView);
  const ctl = { tag: 'Indexing API: control plane', access: 'service-or-session' } as const;
  const name = { name: 'Datasource name.' };
  const user = v.object({ datasource: str, user: User });
  const group = v.object({ datasource: str, group: v.object({ name: str }) });
  const membership = v.object({ datasource: str, membership: Membership });
  const op = (o: Omit<Operation, 'tag' | 'access'>): Operation => ({ ...ctl, ...o });
  return [
    op({
      method: 'post',
      path: `${BASE}/datasources`,
      id: 'create_datasource',
      summary: 'Create a datasource',
      description: 'Creates the datasource with its sub tree and object (property) definitions in one call.',
      body: CreateDatasourceSchema,
      errors: [400, 409],
      ok: { description: 'The datasource', schema: ds },
    }),
    op({
      method: 'get',
      path: `${BASE}/datasources`,
      id: 'list_datasources',
      summary: 'List datasources',
      ok: { description: 'Every datasource', schema: v.object({ datasources: v.array(ds) }) },
    }),
    op({
      method: 'get',
      path: `${BASE}/datasources/{name}`,
      id: 'get_datasource',
      summary: 'Get a datasource',
      pathParams: name,
      errors: [404],
      ok: { description: 'The datasource with its sub tree', schema: ds },
    }),
    op({
      method: 'put',
      path: `${BASE}/datasources/{name}`,
      id: 'update_datasource',
      summary: 'Update a datasource',
      description: 'Changes display_name, icon_base64 and object_definitions; subs change through the sub operations.',
      pathParams: name,
      body: UpdateDatasourceSchema,
      errors: [400, 404, 409],
      ok: { description: 'The datasource', schema: ds },
    }),
    op({
      method: 'delete',
      path: `${BASE}/datasources/{name}`,
      id: 'delete_datasource',
      summary: 'Delete a datasource',
      description: 'Removes the datasource with its subs, users, groups, memberships and documents.',
      pathParams: name,
      errors: [404],
      ok: {
        description: 'What was removed',
        schema: v.object({
          datasource: str,
          deleted: v.literal(true),
          removed: v.object({ subs: int, users: int, groups: int, memberships: int }),
        }),
      },
    }),
    op({
      method: 'post',
      path: `${BASE}/datasources/{name}/subs`,
      id: 'add_sub',
      summary: 'Add a sub',
      description: 'Top-level without `parent_key`, a child of that sub with it.',
      pathParams: name,
      body: SubSchema,
      errors: [400, 404, 409],
      ok: { description: 'The datasource', schema: ds },
    }),
    op({
      method: 'delete',
      path: `${BASE}/datasources/{name}/subs/{sub_key}`,
      id: 'delete_sub',
      summary: 'Delete a sub',
      description: 'Removes the sub and its children; `parent_key` names the parent of a child sub.',
      pathParams: { ...name, sub_key: 'Sub key.' },
      query: v.object({ parent_key: v.optional(str) }),
      errors: [404],
      ok: { description: 'The datasource', schema: ds },
    }),
    op({
      method: 'get',
      path: `${BASE}/file-types`,
      id: 'list_file_types',
      summary: 'Document file types',
      ok: { description: 'The allowed document file types', schema: v.object({ file_types: v.array(str) }) },
    }),
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
