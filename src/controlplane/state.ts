/**
 * The Indexing API's control-plane state part (`indexing`): datasources with
 * their sub trees and object definitions, and per datasource the registered
 * users, groups and memberships. Changed only through `indexing.<verb>`
 * events; `apply` is the single writer and keeps the reverse indexes that group
 * resolution reads (user -> direct groups, group -> parent groups).
 *
 * Events carry already validated, normalised values: `apply` trusts them (the
 * domain functions in this folder validate against the current state first).
 */
import type { StatePart } from '../state/store.ts';

export type PropertyType = 'TEXT' | 'INTEGER' | 'DATE' | 'BOOLEAN';

export interface PropertyDefinition {
  name: string;
  display_label: string;
  is_searchable: boolean;
  property_type: PropertyType;
}

/** An object definition: `name`, `property_definitions`, plus any other fields the client sent (kept as given). */
export interface ObjectDefinition {
  name: string;
  property_definitions: PropertyDefinition[];
  [extra: string]: unknown;
}

export interface SubRecord {
  key: string;
  name: string;
  /** Key of the top-level parent; absent for a top-level sub. */
  parent_key?: string;
  /**
   * This incarnation of the key: a random id given when the sub is created (absent for subs created
   * before ids existed). Documents record the id they were indexed with, so a sub deleted and created
   * again under the same key does not re-bind the documents of the deleted one (result.ts).
   */
  id?: string;
}

export interface DatasourceRecord {
  name: string;
  display_name: string;
  icon_base64: string | null;
  /** Top-level subs and children, in creation order (a child always after its parent). */
  subs: SubRecord[];
  object_definitions: ObjectDefinition[];
  created_at: string;
  updated_at: string;
}

export interface UserRecord {
  email: string;
  name: string | null;
}

export interface GroupRecord {
  name: string;
  /** Emails of direct user members. */
  users: Set<string>;
  /** Names of direct group members (nested groups). */
  groups: Set<string>;
}

/** One datasource with its principals and the reverse indexes used by group resolution. */
export interface DatasourceState {
  record: DatasourceRecord;
  users: Map<string, UserRecord>;
  groups: Map<string, GroupRecord>;
  /** email -> groups that list the user directly. */
  userGroups: Map<string, Set<string>>;
  /** group -> groups that list it as a nested member. */
  groupParents: Map<string, Set<string>>;
  /** Bumped on every change of groups or memberships (cache key of group resolution). */
  version: number;
}

export interface IndexingState {
  datasources: Map<string, DatasourceState>;
}

export type MemberRef = { type: 'user'; id: string } | { type: 'group'; id: string };

export type IndexingEvent =
  | { type: 'indexing.datasource_created'; datasource: DatasourceRecord }
  | {
      type: 'indexing.datasource_updated';
      name: string;
      at: string;
      display_name?: string;
      icon_base64?: string | null;
      object_definitions?: ObjectDefinition[];
    }
  | { type: 'indexing.datasource_deleted'; name: string }
  | { type: 'indexing.sub_added'; datasource: string; sub: SubRecord; at: string }
  | { type: 'indexing.sub_deleted'; datasource: string; key: string; parent_key?: string; at: string }
  | { type: 'indexing.user_created'; datasource: string; user: UserRecord }
  | { type: 'indexing.user_updated'; datasource: string; user: UserRecord }
  | { type: 'indexing.user_deleted'; datasource: string; email: string }
  | { type: 'indexing.group_created'; datasource: string; name: string }
  | { type: 'indexing.group_renamed'; datasource: string; from: string; to: string }
  | { type: 'indexing.group_deleted'; datasource: string; name: string }
  | { type: 'indexing.membership_created'; datasource: string; group: string; member: MemberRef }
  | { type: 'indexing.membership_deleted'; datasource: string; group: string; member: MemberRef };

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}

function emptyDatasource(record: DatasourceRecord): DatasourceState {
  return { record, users: new Map(), groups: new Map(), userGroups: new Map(), groupParents: new Map(), version: 0 };
}

function addMember(ds: DatasourceState, group: string, member: MemberRef): void {
  const g = ds.groups.get(group);
  if (!g) return;
  if (member.type === 'user') {
    g.users.add(member.id);
    addTo(ds.userGroups, member.id, group);
  } else {
    g.groups.add(member.id);
    addTo(ds.groupParents, member.id, group);
  }
}

function removeMember(ds: DatasourceState, group: string, member: MemberRef): void {
  const g = ds.groups.get(group);
  if (member.type === 'user') {
    g?.users.delete(member.id);
    removeFrom(ds.userGroups, member.id, group);
  } else {
    g?.groups.delete(member.id);
    removeFrom(ds.groupParents, member.id, group);
  }
}

function deleteGroup(ds: DatasourceState, name: string): void {
  const g = ds.groups.get(name);
  if (!g) return;
  for (const email of [...g.users]) removeMember(ds, name, { type: 'user', id: email });
  for (const child of [...g.groups]) removeMember(ds, name, { type: 'group', id: child });
  for (const parent of [...(ds.groupParents.get(name) ?? [])]) removeMember(ds, parent, { type: 'group', id: name });
  ds.groups.delete(name);
}

function renameGroup(ds: DatasourceState, from: string, to: string): void {
  const g = ds.groups.get(from);
  if (!g || from === to) return;
  const users = [...g.users];
  const children = [...g.groups];
  const parents = [...(ds.groupParents.get(from) ?? [])];
  deleteGroup(ds, from);
  ds.groups.set(to, { name: to, users: new Set(), groups: new Set() });
  for (const email of users) addMember(ds, to, { type: 'user', id: email });
  for (const child of children) addMember(ds, to, { type: 'group', id: child });
  for (const parent of parents) addMember(ds, parent, { type: 'group', id: to });
}

/** The single writer of the indexing state. */
export function applyIndexingEvent(state: IndexingState, event: IndexingEvent): void {
  if (event.type === 'indexing.datasource_created') {
    state.datasources.set(event.datasource.name, emptyDatasource(structuredClone(event.datasource)));
    return;
  }
  if (event.type === 'indexing.datasource_updated' || event.type === 'indexing.datasource_deleted') {
    if (event.type === 'indexing.datasource_deleted') {
      state.datasources.delete(event.name);
      return;
    }
    const ds = state.datasources.get(event.name);
    if (!ds) return;
    const r = ds.record;
    if (event.display_name !== undefined) r.display_name = event.display_name;
    if (event.icon_base64 !== undefined) r.icon_base64 = event.icon_base64;
    if (event.object_definitions !== undefined) r.object_definitions = structuredClone(event.object_definitions);
    r.updated_at = event.at;
    return;
  }
  const ds = state.datasources.get(event.datasource);
  if (!ds) return;
  switch (event.type) {
    case 'indexing.sub_added':
      ds.record.subs.push({ ...event.sub });
      ds.record.updated_at = event.at;
      return;
    case 'indexing.sub_deleted':
      ds.record.subs = ds.record.subs.filter((s) =>
        event.parent_key === undefined
          ? !(s.parent_key === undefined && s.key === event.key) && s.parent_key !== event.key
          : !(s.parent_key === event.parent_key && s.key === event.key),
      );
      ds.record.updated_at = event.at;
      return;
    case 'indexing.user_created':
    case 'indexing.user_updated':
      ds.users.set(event.user.email, { ...event.user });
      return;
    case 'indexing.user_deleted':
      for (const group of [...(ds.userGroups.get(event.email) ?? [])]) {
        removeMember(ds, group, { type: 'user', id: event.email });
      }
      ds.users.delete(event.email);
      ds.version++;
      return;
    case 'indexing.group_created':
      ds.groups.set(event.name, { name: event.name, users: new Set(), groups: new Set() });
      ds.version++;
      return;
    case 'indexing.group_renamed':
      renameGroup(ds, event.from, event.to);
      ds.version++;
      return;
    case 'indexing.group_deleted':
      deleteGroup(ds, event.name);
      ds.version++;
      return;
    case 'indexing.membership_created':
      addMember(ds, event.group, event.member);
      ds.version++;
      return;
    case 'indexing.membership_deleted':
      removeMember(ds, event.group, event.member);
      ds.version++;
      return;
  }
}

/** Snapshot form: plain JSON, principals as sorted arrays. */
interface DatasourceJSON {
  record: DatasourceRecord;
  users: UserRecord[];
  groups: { name: string; users: string[]; groups: string[] }[];
}

export function indexingToJSON(state: IndexingState): { datasources: DatasourceJSON[] } {
  return {
    datasources: [...state.datasources.values()].map((ds) => ({
      record: ds.record,
      users: [...ds.users.values()],
      groups: [...ds.groups.values()].map((g) => ({ name: g.name, users: [...g.users], groups: [...g.groups] })),
    })),
  };
}

export function indexingFromJSON(json: unknown): IndexingState {
  const state: IndexingState = { datasources: new Map() };
  const list = (json as { datasources?: DatasourceJSON[] } | undefined)?.datasources ?? [];
  for (const d of list) {
    const ds = emptyDatasource(structuredClone(d.record));
    for (const u of d.users) ds.users.set(u.email, { email: u.email, name: u.name ?? null });
    for (const g of d.groups) ds.groups.set(g.name, { name: g.name, users: new Set(), groups: new Set() });
    for (const g of d.groups) {
      for (const email of g.users) addMember(ds, g.name, { type: 'user', id: email });
      for (const child of g.groups) addMember(ds, g.name, { type: 'group', id: child });
    }
    state.datasources.set(ds.record.name, ds);
  }
  return state;
}

export const indexingPart: StatePart<IndexingState, IndexingEvent> = {
  name: 'indexing',
  create: () => ({ datasources: new Map() }),
  apply: applyIndexingEvent,
  toJSON: indexingToJSON,
  fromJSON: indexingFromJSON,
};
