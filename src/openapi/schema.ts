/**
 * valibot -> JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) through
 * `@valibot/to-json-schema`, describing what a client sends (`typeMode:
 * 'input'`: a pipe is described up to its first transformation), with what
 * our schemas need beyond the converter's defaults:
 * - a query-string integer (a string pipe holding the `isIntegerString`
 *   check) is an integer with the pipe's min/max values (`integerParam`,
 *   past the string-to-number transform), and an optional's default is run
 *   through the wrapped schema (a query default '50' is 50);
 * - a `v.lazy` that picks its schema by the input's shape (chat `stop`,
 *   message `content`) is the union of the schemas it picks for a string, a
 *   number, a list, an object, a boolean and null;
 * - custom checks (`check`, `raw_check`, ...) have no JSON Schema form and add
 *   nothing, nor do normalisations such as `trim`; every other unsupported
 *   construct throws, so nothing vanishes silently;
 * - unions are flattened and repeated members dropped (`nullish(null())`).
 * Schemas registered with `named` become `#/components/schemas/<name>` and
 * are referenced wherever the same schema object is used.
 */
import * as v from 'valibot';
import { toJsonSchema, type ConversionConfig, type JsonSchema as LibJsonSchema } from '@valibot/to-json-schema';
import { isIntegerString } from '../search/schemas.ts';

export type JsonSchema = Record<string, unknown>;
type AnyValibot = v.GenericSchema;
type Node = { type: string; kind: string; pipe?: Node[]; requirement?: unknown; [k: string]: unknown };

/** Actions whose rule is custom code: documented by the schema's description, if any. */
const CUSTOM_ACTIONS = new Set(['check', 'raw_check', 'check_items', 'partial_check', 'custom']);
/** Normalisations of a string the client may send in any form (the rule after them still applies). */
const NORMALISING_ACTIONS = new Set(['trim', 'trim_start', 'trim_end', 'to_lower_case', 'to_upper_case', 'normalize']);
/** Sample inputs a shape-dispatching `v.lazy` is asked about. */
const LAZY_PROBES: unknown[] = ['', 0, [], {}, true, null];

/** The named component schemas of one document, by name. */
export class SchemaRegistry {
  readonly names = new Map<AnyValibot, string>();
  readonly schemas = new Map<string, AnyValibot>();

  /** Registers `schema` as component `name` and answers the schema (for use in place). */
  named<S extends AnyValibot>(name: string, schema: S): S {
    const known = this.schemas.get(name);
    if (known && known !== schema) throw new Error(`openapi: component ${name} registered twice`);
    this.names.set(schema, name);
    this.schemas.set(name, schema);
    return schema;
  }

  /** A `$ref` to a registered component. */
  ref(name: string): JsonSchema {
    if (!this.schemas.has(name)) throw new Error(`openapi: no component ${name}`);
    return { $ref: `#/components/schemas/${name}` };
  }

  /** JSON Schema of `schema`; registered schemas inside it (not itself, unless `inline` is false) become refs. */
  convert(schema: unknown, inline = true): JsonSchema {
    const top = schema as AnyValibot;
    const name = this.names.get(top);
    if (name && !inline) return this.ref(name);
    const out = toJsonSchema(top, this.config(top)) as JsonSchema;
    delete out.$schema;
    delete out.$defs;
    return out;
  }

  private plain(schema: AnyValibot): JsonSchema {
    const out = toJsonSchema(schema, this.config(undefined)) as JsonSchema;
    delete out.$schema;
    delete out.$defs;
    return out;
  }

  /** Every registered component, converted. */
  components(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const [name, schema] of [...this.schemas].sort(([a], [b]) => a.localeCompare(b)))
      out[name] = this.convert(schema);
    return out;
  }

  private config(top: AnyValibot | undefined): ConversionConfig {
    // Lazy branches are converted on their own (without the components, which may hold the lazy).
    const definitions = top ? Object.fromEntries([...this.schemas].filter(([, s]) => s !== top)) : {};
    return {
      target: 'draft-2020-12',
      typeMode: 'input',
      errorMode: 'throw',
      definitions,
      overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
      overrideSchema: ({ valibotSchema, jsonSchema }) => this.override(valibotSchema as unknown as Node, jsonSchema),
      overrideAction: ({ valibotAction, jsonSchema }) => {
        if (valibotAction.type === 'check' && (valibotAction as unknown as Node).requirement === isIntegerString)
          return { ...jsonSchema, type: 'integer' };
        return CUSTOM_ACTIONS.has(valibotAction.type) || NORMALISING_ACTIONS.has(valibotAction.type)
          ? jsonSchema
          : undefined;
      },
    };
  }

  private override(s: Node, converted: LibJsonSchema): LibJsonSchema | undefined {
    if (s.type === 'lazy') return { anyOf: lazyBranches(s).map((b) => this.plain(b)) } as LibJsonSchema;
    let out = converted as JsonSchema;
    if ((s.type === 'optional' || s.type === 'nullish') && s.default !== undefined) {
      const given = typeof s.default === 'function' ? (s.default as () => unknown)() : s.default;
      const parsed = v.safeParse(s.wrapped as AnyValibot, given);
      out = { ...out, default: parsed.success ? parsed.output : given };
    }
    if (Array.isArray(out.anyOf)) out = simplifiedUnion(out);
    return out === (converted as JsonSchema) ? undefined : (out as LibJsonSchema);
  }
}

/** A union with nested unions flattened and repeated members once (`nullish(null())` is just null). */
function simplifiedUnion(union: JsonSchema): JsonSchema {
  const { anyOf, ...rest } = union;
  const flat = (anyOf as JsonSchema[]).flatMap((m) =>
    Object.keys(m).length === 1 && Array.isArray(m.anyOf) ? (m.anyOf as JsonSchema[]) : [m],
  );
  const unique = [...new Map(flat.map((m) => [JSON.stringify(m), m])).values()];
  return unique.length === 1 ? { ...unique[0], ...rest } : { ...rest, anyOf: unique };
}

/** Every action of a (nested, optional-wrapped) pipe, in order. */
function actionsOf(s: Node): Node[] {
  if (!s.pipe) return s.wrapped ? actionsOf(s.wrapped as Node) : [];
  return s.pipe.flatMap((step, i) => (i === 0 || step.kind === 'schema' ? actionsOf(step) : [step]));
}

/** Whether a (piped) schema is a query-string integer (its pipe holds the `isIntegerString` check). */
export function isIntegerParam(s: unknown): boolean {
  return actionsOf(s as Node).some((a) => a.type === 'check' && a.requirement === isIntegerString);
}

/** A query-string integer: its min/max values (past the string-to-number transform) and description. */
export function integerParam(s: unknown): JsonSchema {
  const out: JsonSchema = { type: 'integer' };
  for (const a of actionsOf(s as Node)) {
    if (a.type === 'min_value') out.minimum = a.requirement;
    if (a.type === 'max_value') out.maximum = a.requirement;
    if (a.type === 'description') out.description = a.description;
  }
  return out;
}

function lazyBranches(s: Node): AnyValibot[] {
  const getter = s.getter as (input: unknown) => AnyValibot;
  return [...new Set(LAZY_PROBES.map((probe) => getter(probe)))];
}
