/**
 * The rules a document must meet against its datasource's definitions
 * (spec, Document and Errors): sub references and custom properties. Throws
 * SchemaError with the spec's error codes (422 service-layer envelope; a
 * `failed` entry in bulk). For the documents pipeline; pure functions.
 */
import { SchemaError } from '../errors.ts';
import { isIsoInstant } from '../validation/iso-date.ts';
import { boundedCopy } from '../validation/json-bounds.ts';
import { compoundSubValue } from './names.ts';
import type { DatasourceRecord, PropertyDefinition, SubRecord } from './state.ts';

export interface SubBinding {
  data_source_sub?: string;
  data_source_sub_sub?: string;
  /** Compound filter values (`ds__sub`, `ds__sub__child`) for the index. */
  sub_value?: string;
  sub_sub_value?: string;
  /** Incarnation ids of the referenced subs (SubRecord.id; absent for subs without one). */
  sub_id?: string;
  sub_sub_id?: string;
}

/** The binding to `top` (and `child`), with the subs' incarnation ids. */
function binding(ds: string, top: SubRecord, child?: SubRecord): SubBinding {
  const out: SubBinding = { data_source_sub: top.key, sub_value: compoundSubValue(ds, top.key) };
  if (top.id !== undefined) out.sub_id = top.id;
  if (child) {
    out.data_source_sub_sub = child.key;
    out.sub_sub_value = compoundSubValue(ds, child.key, top.key);
    if (child.id !== undefined) out.sub_sub_id = child.id;
  }
  return out;
}

/** Check `data_source_sub` / `data_source_sub_sub`; a child key sent alone has its parent inferred when unique. */
export function resolveSubReference(record: DatasourceRecord, sub?: string, subSub?: string): SubBinding {
  const ds = record.name;
  if (sub === undefined && subSub === undefined) return {};
  const topLevel = record.subs.filter((s) => s.parent_key === undefined);
  if (sub !== undefined) {
    const top = topLevel.find((s) => s.key === sub);
    if (!top) {
      throw new SchemaError(
        'INVALID_DATA_SOURCE_SUB',
        `data_source_sub '${sub}' matches no top-level sub of datasource '${ds}'`,
      );
    }
    if (subSub === undefined) return binding(ds, top);
    const child = record.subs.find((s) => s.parent_key === sub && s.key === subSub);
    if (!child) {
      throw new SchemaError(
        'INVALID_DATA_SOURCE_SUB_SUB',
        `data_source_sub_sub '${subSub}' is not a child of '${sub}' in datasource '${ds}'`,
      );
    }
    return binding(ds, top, child);
  }
  const childKey = subSub!;
  if (record.subs.length === 0) {
    throw new SchemaError(
      'INVALID_DATA_SOURCE_SUB',
      `datasource '${ds}' declares no subs; data_source_sub_sub '${childKey}' matches no top-level sub`,
    );
  }
  const children = record.subs.filter((s) => s.parent_key !== undefined && s.key === childKey);
  if (children.length === 0) {
    throw new SchemaError(
      'INVALID_DATA_SOURCE_SUB_SUB',
      `data_source_sub_sub '${childKey}' is not a child sub of datasource '${ds}'`,
    );
  }
  if (children.length > 1) {
    throw new SchemaError(
      'AMBIGUOUS_DATA_SOURCE_SUB_SUB',
      `data_source_sub_sub '${childKey}' exists under several parents (${children.map((s) => s.parent_key).join(', ')}); send data_source_sub too`,
    );
  }
  const child = children[0];
  return binding(
    ds,
    topLevel.find((s) => s.key === child.parent_key)!,
    child,
  );
}

/** Every property definition of the datasource by name (names have one type across object definitions). */
export function propertyDefinitions(record: DatasourceRecord): Map<string, PropertyDefinition> {
  const out = new Map<string, PropertyDefinition>();
  for (const def of record.object_definitions)
    for (const p of def.property_definitions) if (!out.has(p.name)) out.set(p.name, p);
  return out;
}

/** Whether `value` is acceptable JSON for `type` (spec, accepted JSON values per property_type). */
export function matchesPropertyType(type: PropertyDefinition['property_type'], value: unknown): boolean {
  switch (type) {
    case 'TEXT':
      return typeof value === 'string';
    case 'INTEGER':
      return typeof value === 'number' && Number.isFinite(value);
    case 'DATE':
      return (
        (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && isIsoInstant(value))
      );
    case 'BOOLEAN':
      return typeof value === 'boolean';
  }
}

/**
 * A rejected value as JSON for an error message, within bounds: a value nested thousands of
 * levels deep (JSON.parse accepts it; JSON.stringify overflows the stack) or megabytes long is
 * shortened to placeholders such as `"<string of 1000000 characters, not echoed>"`.
 */
function describeValue(value: unknown): string {
  return (
    JSON.stringify(boundedCopy(value, { maxDepth: 4, maxStringChars: 200, maxValues: 20, maxChars: 1_000 })) ??
    String(value)
  );
}

/** Check `custom_properties` against the datasource's property definitions. */
export function checkCustomProperties(
  record: DatasourceRecord,
  props: readonly { name: string; value: unknown }[],
): void {
  if (props.length === 0) return;
  const defs = propertyDefinitions(record);
  if (defs.size === 0) {
    throw new SchemaError(
      'NO_PROPERTY_DEFINITIONS',
      `datasource '${record.name}' has no property definitions but the document has custom_properties`,
    );
  }
  for (const p of props) {
    const def = defs.get(p.name);
    if (!def)
      throw new SchemaError(
        'UNKNOWN_PROPERTY',
        `custom property '${p.name}' matches no property definition of datasource '${record.name}'`,
      );
    if (!matchesPropertyType(def.property_type, p.value)) {
      throw new SchemaError(
        'INVALID_PROPERTY_TYPE',
        `custom property '${p.name}' must be ${def.property_type}, got ${describeValue(p.value)}`,
      );
    }
  }
}
