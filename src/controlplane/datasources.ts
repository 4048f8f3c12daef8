/**
 * Datasources of the Indexing API: create (with sub tree and object
 * definitions), update (display_name, icon_base64, object_definitions only),
 * read, list, delete, and add/delete subs. Each writer validates against the
 * current state, commits one event and returns the resulting view.
 *
 * Errors: 404 unknown datasource or sub, 409 duplicate datasource or sub key,
 * 400 a sub under a child sub, 409 an ambiguous child key on delete, 422
 * (body loc) inconsistencies inside a request body.
 */
import { conflict, notFound, badRequest, RequestValidationError, type ValidationItem } from '../errors.ts';
import type { StateStore } from '../state/store.ts';
import { commitIndexing, pendingDatasourceDrop } from './events.ts';
import { deriveKey } from './names.ts';
import type { CreateDatasourceInput, SubInput, UpdateDatasourceInput } from './schemas.ts';
import {
  indexingPart,
  type DatasourceRecord,
  type DatasourceState,
  type IndexingState,
  type ObjectDefinition,
  type SubRecord,
} from './state.ts';
import { datasourceView, type DatasourceView } from './views.ts';

/** What the control-plane functions need (a subset of Services). */
export interface IndexingDeps {
  state: StateStore;
  now: () => number;
}

export const indexingState = (deps: Pick<IndexingDeps, 'state'>): IndexingState => deps.state.get(indexingPart);

/** The datasource named `name`, or a 404. */
export function requireDatasource(deps: Pick<IndexingDeps, 'state'>, name: string): DatasourceState {
  const ds = indexingState(deps).datasources.get(name);
  if (!ds) throw notFound(`Datasource '${name}' not found`);
  return ds;
}

const valueError = (loc: ValidationItem['loc'], msg: string, input: unknown): ValidationItem => ({
  type: 'value_error',
  loc,
  msg: `Value error, ${msg}`,
  input,
  ctx: { error: {} },
});

/** Object definition names unique; property names unique per definition and of one type across definitions. */
function checkObjectDefinitions(defs: ObjectDefinition[]): void {
  const issues: ValidationItem[] = [];
  const objectNames = new Set<string>();
  const types = new Map<string, string>();
  defs.forEach((def, i) => {
    if (objectNames.has(def.name)) {
      issues.push(
        valueError(['body', 'object_definitions', i, 'name'], `duplicate object definition '${def.name}'`, def.name),
      );
    }
    objectNames.add(def.name);
    const own = new Set<string>();
    def.property_definitions.forEach((p, j) => {
      const loc = ['body', 'object_definitions', i, 'property_definitions', j, 'name'];
      const known = types.get(p.name);
      if (own.has(p.name))
        issues.push(valueError(loc, `duplicate property definition '${p.name}' in '${def.name}'`, p.name));
      else if (known !== undefined && known !== p.property_type) {
        issues.push(
          valueError(
            loc,
            `property '${p.name}' is declared as ${known} elsewhere; one name has one property_type`,
            p.name,
          ),
        );
      }
      own.add(p.name);
      if (known === undefined) types.set(p.name, p.property_type);
    });
  });
  if (issues.length > 0) throw new RequestValidationError(issues);
}

/** The id of a new sub incarnation (SubRecord.id): 64 random bits in hex. */
const newSubId = (): string => crypto.randomUUID().replaceAll('-', '').slice(0, 16);

/** The sub tree of a create request: keys derived, parents checked; 422 with body locs otherwise. */
function buildSubs(inputs: SubInput[]): SubRecord[] {
  const issues: ValidationItem[] = [];
  const keyed = inputs.map((s, i) => {
    const key = s.key ?? deriveKey(s.name);
    if (key === undefined) {
      issues.push(
        valueError(
          ['body', 'subs', i, 'name'],
          `cannot derive a sub key from name '${s.name}'; send an explicit key`,
          s.name,
        ),
      );
    }
    return { i, key, input: s };
  });
  const top = new Set<string>();
  const childKeys = new Set<string>();
  const out: SubRecord[] = [];
  for (const { i, key, input } of keyed) {
    if (input.parent_key !== undefined || key === undefined) continue;
    if (top.has(key)) issues.push(valueError(['body', 'subs', i, 'key'], `duplicate sub key '${key}'`, key));
    top.add(key);
    out.push({ key, name: input.name, id: newSubId() });
  }
  const children = new Set<string>();
  for (const { i, key, input } of keyed) {
    if (input.parent_key === undefined || key === undefined) continue;
    childKeys.add(key);
    const parent = input.parent_key;
    if (!top.has(parent)) {
      const isChild = keyed.some((k) => k.key === parent && k.input.parent_key !== undefined);
      const msg = isChild
        ? `parent_key '${parent}' names a child sub; a child cannot have children`
        : `parent_key '${parent}' names no top-level sub`;
      issues.push(valueError(['body', 'subs', i, 'parent_key'], msg, parent));
      continue;
    }
    const id = `${parent}\u0000${key}`;
    if (children.has(id))
      issues.push(valueError(['body', 'subs', i, 'key'], `duplicate sub key '${key}' under '${parent}'`, key));
    children.add(id);
    out.push({ key, name: input.name, parent_key: parent, id: newSubId() });
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
  return out;
}

export async function createDatasource(deps: IndexingDeps, input: CreateDatasourceInput): Promise<DatasourceView> {
  const subs = buildSubs(input.subs);
  const object_definitions = input.object_definitions as ObjectDefinition[];
  checkObjectDefinitions(object_definitions);
  if (indexingState(deps).datasources.has(input.name)) throw conflict(`Datasource '${input.name}' already exists`);
  // A deletion of this name still in flight: its drop of the old documents is queued (durably) first, so
  // that no crash can leave the old documents in the index under the new datasource. Checked again after
  // each wait, with nothing awaited between the last check and the commit.
  for (
    let p = pendingDatasourceDrop(deps.state, input.name);
    p !== undefined;
    p = pendingDatasourceDrop(deps.state, input.name)
  ) {
    await p;
    if (indexingState(deps).datasources.has(input.name)) throw conflict(`Datasource '${input.name}' already exists`);
  }
  const at = new Date(deps.now()).toISOString();
  const record: DatasourceRecord = {
    name: input.name,
    display_name: input.display_name,
    icon_base64: input.icon_base64,
    subs,
    object_definitions,
    created_at: at,
    updated_at: at,
  };
  await commitIndexing(deps.state, { type: 'indexing.datasource_created', datasource: record });
  return datasourceView(requireDatasource(deps, input.name));
}

export async function updateDatasource(
  deps: IndexingDeps,
  name: string,
  input: UpdateDatasourceInput,
): Promise<DatasourceView> {
  requireDatasource(deps, name);
  if (input.object_definitions) checkObjectDefinitions(input.object_definitions as ObjectDefinition[]);
  await commitIndexing(deps.state, {
    type: 'indexing.datasource_updated',
    name,
    at: new Date(deps.now()).toISOString(),
    ...(input.display_name !== undefined && { display_name: input.display_name }),
    ...(input.icon_base64 !== undefined && { icon_base64: input.icon_base64 }),
    ...(input.object_definitions !== undefined && {
      object_definitions: input.object_definitions as ObjectDefinition[],
    }),
  });
  return datasourceView(requireDatasource(deps, name));
}

export const getDatasource = (deps: Pick<IndexingDeps, 'state'>, name: string): DatasourceView =>
  datasourceView(requireDatasource(deps, name));

export const listDatasources = (deps: Pick<IndexingDeps, 'state'>): DatasourceView[] =>
  [...indexingState(deps).datasources.values()].map(datasourceView).sort((a, b) => a.name.localeCompare(b.name));

export interface DeletedDatasource {
  datasource: string;
  deleted: true;
  removed: { subs: number; users: number; groups: number; memberships: number };
}

/** Remove a datasource with its subs, users, groups and memberships (listeners remove its documents). */
export async function deleteDatasource(deps: IndexingDeps, name: string): Promise<DeletedDatasource> {
  const ds = requireDatasource(deps, name);
  let memberships = 0;
  for (const g of ds.groups.values()) memberships += g.users.size + g.groups.size;
  const removed = { subs: ds.record.subs.length, users: ds.users.size, groups: ds.groups.size, memberships };
  await commitIndexing(deps.state, { type: 'indexing.datasource_deleted', name });
  return { datasource: name, deleted: true, removed };
}

/** Add one sub: top-level without parent_key, child with it. */
export async function addSub(deps: IndexingDeps, name: string, input: SubInput): Promise<DatasourceView> {
  const ds = requireDatasource(deps, name);
  const key = input.key ?? deriveKey(input.name);
  if (key === undefined) {
    throw new RequestValidationError([
      valueError(
        ['body', 'name'],
        `cannot derive a sub key from name '${input.name}'; send an explicit key`,
        input.name,
      ),
    ]);
  }
  const subs = ds.record.subs;
  const parent = input.parent_key;
  if (parent !== undefined && !subs.some((s) => s.parent_key === undefined && s.key === parent)) {
    if (subs.some((s) => s.key === parent))
      throw badRequest(`Sub '${parent}' is a child sub; a child cannot have children`);
    throw notFound(`Sub '${parent}' not found in datasource '${name}'`);
  }
  if (subs.some((s) => s.key === key && s.parent_key === parent)) {
    throw conflict(
      parent === undefined
        ? `Sub '${key}' already exists in datasource '${name}'`
        : `Sub '${key}' already exists under '${parent}'`,
    );
  }
  const sub: SubRecord =
    parent === undefined
      ? { key, name: input.name, id: newSubId() }
      : { key, name: input.name, parent_key: parent, id: newSubId() };
  await commitIndexing(deps.state, {
    type: 'indexing.sub_added',
    datasource: name,
    sub,
    at: new Date(deps.now()).toISOString(),
  });
  return datasourceView(requireDatasource(deps, name));
}

/**
 * Delete a sub and its children. `key` names a top-level sub first; otherwise
 * a child sub, which must be unique in the datasource unless `parentKey` says
 * which one (409 when ambiguous).
 */
export async function deleteSub(
  deps: IndexingDeps,
  name: string,
  key: string,
  parentKey?: string,
): Promise<DatasourceView> {
  const ds = requireDatasource(deps, name);
  const subs = ds.record.subs;
  let target: SubRecord | undefined;
  if (parentKey !== undefined) {
    target = subs.find((s) => s.key === key && s.parent_key === parentKey);
    if (!target) throw notFound(`Sub '${key}' not found under '${parentKey}' in datasource '${name}'`);
  } else {
    target = subs.find((s) => s.key === key && s.parent_key === undefined);
    if (!target) {
      const children = subs.filter((s) => s.key === key);
      if (children.length === 0) throw notFound(`Sub '${key}' not found in datasource '${name}'`);
      if (children.length > 1) {
        const parents = children.map((s) => s.parent_key).join(', ');
        throw conflict(`Sub key '${key}' exists under several parents (${parents}); pass ?parent_key= to choose`);
      }
      target = children[0];
    }
  }
  await commitIndexing(deps.state, {
    type: 'indexing.sub_deleted',
    datasource: name,
    key: target.key,
    ...(target.parent_key !== undefined && { parent_key: target.parent_key }),
    at: new Date(deps.now()).toISOString(),
  });
  return datasourceView(requireDatasource(deps, name));
}
