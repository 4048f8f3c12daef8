/**
 * JSON views of the indexing state as the API answers them (the response
 * bodies the spec leaves "not shown"; documented in the README).
 */
import { boundedCopy, MAX_JSON_DEPTH } from '../validation/json-bounds.ts';
import { compoundSubValue } from './names.ts';
import type { DatasourceState, ObjectDefinition } from './state.ts';

export interface ChildSubView {
  key: string;
  name: string;
  parent_key: string;
  /** Compound filter value `{datasource}__{parent}__{key}`. */
  value: string;
}

export interface SubView {
  key: string;
  name: string;
  /** Compound filter value `{datasource}__{key}`. */
  value: string;
  children: ChildSubView[];
}

export interface DatasourceView {
  name: string;
  display_name: string;
  icon_base64: string | null;
  subs: SubView[];
  object_definitions: ObjectDefinition[];
  created_at: string;
  updated_at: string;
}

/**
 * A copy of an object definition that can always be written: open fields are nested at most
 * MAX_JSON_DEPTH levels (schemas.ts); a deeper value stored before that limit existed reads as
 * a placeholder string instead of failing every read of the datasource.
 */
const viewOfDefinition = (def: ObjectDefinition): ObjectDefinition =>
  boundedCopy(def, {
    maxDepth: MAX_JSON_DEPTH + 1,
    maxStringChars: Infinity,
    maxValues: Infinity,
    maxChars: Infinity,
  }) as ObjectDefinition;

export function datasourceView(ds: DatasourceState): DatasourceView {
  const r = ds.record;
  const top: SubView[] = r.subs
    .filter((s) => s.parent_key === undefined)
    .map((s) => ({ key: s.key, name: s.name, value: compoundSubValue(r.name, s.key), children: [] }));
  const byKey = new Map(top.map((s) => [s.key, s]));
  for (const s of r.subs) {
    if (s.parent_key === undefined) continue;
    byKey.get(s.parent_key)?.children.push({
      key: s.key,
      name: s.name,
      parent_key: s.parent_key,
      value: compoundSubValue(r.name, s.key, s.parent_key),
    });
  }
  return {
    name: r.name,
    display_name: r.display_name,
    icon_base64: r.icon_base64,
    subs: top,
    object_definitions: r.object_definitions.map(viewOfDefinition),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
