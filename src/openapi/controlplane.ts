/**
 * OpenAPI operations of the Indexing API control plane's datasources (prefix
 * /api/indexing, service-account keys or an administrator's browser session):
 * datasources with their subs and object definitions, and the document file
 * types. Request bodies are the handlers' schemas (controlplane/schemas.ts).
 */
import * as v from 'valibot';
import {
  CreateDatasourceSchema,
  ObjectDefinitionSchema,
  SubSchema,
  UpdateDatasourceSchema,
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

export function controlPlaneOperations(r: SchemaRegistry): Operation[] {
  r.named('ObjectDefinition', ObjectDefinitionSchema);
  const ds = r.named('Datasource', DatasourceView);
  const ctl = { tag: 'Indexing API: control plane', access: 'service-or-session' } as const;
  const name = { name: 'Datasource name.' };
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
  ];
}
