/**
 * valibot -> JSON Schema (2020-12, as OpenAPI 3.1 uses it) for the subset of
 * valibot the search interface uses: string, number, boolean, unknown,
 * picklist, literal, record, object (plain, strict, loose), array, union, optional / nullish /
 * nullable (defaults are run through the wrapped schema, so a query-string
 * default '50' becomes 50), and the pipe actions min/max length, regex,
 * min/max value, integer, description, title, examples and metadata (merged
 * as given). A pipe holding the `isIntegerString` check describes an integer
 * (a query-string integer). Other checks and transforms add nothing; an
 * unsupported schema type throws, so a new construct cannot silently vanish.
 */
import * as v from 'valibot';
import { isIntegerString } from './schemas.ts';

export type JsonSchema = Record<string, unknown>;

type AnyNode = { kind: string; type: string; [k: string]: unknown };

export class JsonSchemaError extends Error {
  override name = 'JsonSchemaError';
  readonly code = 'UNSUPPORTED_SCHEMA';
}

/** Whether a (piped) schema accepts a missing value. */
export function isOptional(schema: unknown): boolean {
  const s = schema as AnyNode & { pipe?: AnyNode[] };
  if (s.pipe && s.pipe[0] !== s) return isOptional(s.pipe[0]);
  return s.type === 'optional' || s.type === 'nullish' || s.type === 'exact_optional';
}

function base(s: AnyNode): JsonSchema {
  switch (s.type) {
    case 'string':
      return { type: 'string' };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'null':
      return { type: 'null' };
    case 'unknown':
      return {};
    case 'record':
      return { type: 'object', additionalProperties: toJsonSchema(s.value) };
    case 'picklist': {
      const options = s.options as (string | number)[];
      return { type: typeof options[0] === 'number' ? 'number' : 'string', enum: [...options] };
    }
    case 'literal':
      return { const: s.literal };
    case 'array':
      return { type: 'array', items: toJsonSchema(s.item) };
    case 'union':
      return { anyOf: (s.options as unknown[]).map((o) => toJsonSchema(o)) };
    case 'object':
    case 'strict_object':
    case 'loose_object': {
      const entries = s.entries as Record<string, unknown>;
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [name, entry] of Object.entries(entries)) {
        properties[name] = toJsonSchema(entry);
        if (!isOptional(entry)) required.push(name);
      }
      return {
        type: 'object',
        properties,
        ...(required.length > 0 ? { required } : {}),
        ...(s.type === 'strict_object' ? { additionalProperties: false } : {}),
      };
    }
    case 'optional':
    case 'nullish':
    case 'nullable':
    case 'exact_optional': {
      const inner = toJsonSchema(s.wrapped);
      const out: JsonSchema =
        s.type === 'nullable' || s.type === 'nullish' ? { anyOf: [inner, { type: 'null' }] } : inner;
      if (s.default !== undefined)
        out.default = v.parse(s.wrapped as v.GenericSchema, typeof s.default === 'function' ? s.default() : s.default);
      return out;
    }
    default:
      throw new JsonSchemaError(`valibot schema type '${s.type}' is not supported by the JSON Schema converter`);
  }
}

function applyAction(out: JsonSchema, a: AnyNode): void {
  const array = out.type === 'array';
  switch (a.type) {
    case 'min_length':
      out[array ? 'minItems' : 'minLength'] = a.requirement;
      return;
    case 'max_length':
      out[array ? 'maxItems' : 'maxLength'] = a.requirement;
      return;
    case 'regex':
      out.pattern = (a.requirement as RegExp).source;
      return;
    case 'min_value':
      out.minimum = a.requirement;
      return;
    case 'max_value':
      out.maximum = a.requirement;
      return;
    case 'integer':
      out.type = 'integer';
      return;
    case 'check':
      if (a.requirement === isIntegerString) out.type = 'integer';
      return;
    case 'description':
      out.description = a.description;
      return;
    case 'title':
      out.title = a.title;
      return;
    case 'examples':
      out.examples = [...(a.examples as unknown[])];
      return;
    case 'metadata':
      Object.assign(out, a.metadata as object);
      return;
    default:
      return; // other checks and transformations have no JSON Schema form
  }
}

/** JSON Schema of a valibot schema. */
export function toJsonSchema(schema: unknown): JsonSchema {
  const s = schema as AnyNode & { pipe?: AnyNode[] };
  if (!s || typeof s !== 'object' || s.kind !== 'schema') throw new JsonSchemaError('not a valibot schema');
  if (!s.pipe) return base(s);
  const out = toJsonSchema(s.pipe[0]);
  for (const a of s.pipe.slice(1)) applyAction(out, a);
  return out;
}
