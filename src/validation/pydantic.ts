/**
 * Request validation with valibot, reported in the shape FastAPI/Pydantic v2
 * produce: `{type, loc, msg, input, ctx?}` with `loc` starting at `body`,
 * `query` or `path`. Valibot issue types are mapped to Pydantic's type names
 * and messages. Custom checks name their Pydantic type through `pyIssue()`.
 */
import * as v from 'valibot';
import { RequestValidationError, type ValidationItem } from '../errors.ts';

export type Location = 'body' | 'query' | 'path';

const SEP = '\u0000';

/** Message for a custom valibot check that should surface as Pydantic `type` with `msg`. */
export function pyIssue(type: string, msg: string, ctx?: Record<string, unknown>): string {
  return [type, msg, ctx ? JSON.stringify(ctx) : ''].join(SEP);
}

const plural = (n: unknown, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function quoteList(values: readonly unknown[]): string {
  const q = values.map((x) => `'${String(x)}'`);
  return q.length <= 1 ? q.join('') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

type AnyIssue = v.BaseIssue<unknown> & { requirement?: unknown };

/**
 * The values a literal or picklist issue accepts, read from its `expected` text: valibot writes
 * `"a"`, `("a" | "b")` or a bare number/boolean there, unescaped, and gives no requirement
 * (a value that itself contains `" | "` would be split; no schema of this service has one).
 */
function literalOptions(issue: AnyIssue): unknown[] {
  if (Array.isArray(issue.requirement)) return issue.requirement;
  let expected = issue.expected ?? '';
  if (expected.startsWith('(') && expected.endsWith(')')) expected = expected.slice(1, -1);
  return expected
    .split(' | ')
    .filter((x) => x !== '')
    .map((x) => (x.length >= 2 && x.startsWith('"') && x.endsWith('"') ? x.slice(1, -1) : x));
}

function mapIssue(issue: AnyIssue, where: Location): ValidationItem {
  const path = issue.path ?? [];
  const loc: (string | number)[] = [where, ...path.map((p) => p.key as string | number)];
  const last = path[path.length - 1];
  const input = issue.input;
  const req = issue.requirement;
  const isArray = Array.isArray(input);

  if (last && Array.isArray(last.input) && typeof last.key === 'string') {
    // An object schema was given an array: Pydantic reports the container, not its keys.
    return {
      type: 'model_attributes_type',
      loc: loc.slice(0, -1),
      msg: 'Input should be a valid dictionary or object to extract fields from',
      input: last.input,
    };
  }
  if (issue.kind === 'schema' && input === undefined && last && typeof last.input === 'object' && last.input !== null) {
    const parent = last.input as Record<string, unknown>;
    if (!Object.prototype.hasOwnProperty.call(parent, last.key as PropertyKey)) {
      return { type: 'missing', loc, msg: 'Field required', input: parent };
    }
  }
  if (issue.kind === 'schema' && input === undefined && !last) {
    return { type: 'missing', loc, msg: 'Field required', input: null };
  }
  if (issue.message.includes(SEP)) {
    const [type, msg, ctx] = issue.message.split(SEP);
    return { type, loc, msg, input, ...(ctx ? { ctx: JSON.parse(ctx) } : {}) };
  }
  switch (issue.type) {
    case 'strict_object':
      // The same issue type reports an unknown key (expected 'never', at the key) and a non-object input.
      if (issue.expected === 'never')
        return {
          type: 'extra_forbidden',
          loc,
          msg: 'Extra inputs are not permitted',
          input: last ? last.value : input,
        };
      return {
        type: 'model_attributes_type',
        loc,
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input,
      };
    case 'string':
      return { type: 'string_type', loc, msg: 'Input should be a valid string', input };
    case 'number':
      return { type: 'float_type', loc, msg: 'Input should be a valid number', input };
    case 'integer':
      return {
        type: 'int_from_float',
        loc,
        msg: 'Input should be a valid integer, got a number with a fractional part',
        input,
      };
    case 'boolean':
      return { type: 'bool_type', loc, msg: 'Input should be a valid boolean', input };
    case 'array':
    case 'tuple':
      return { type: 'list_type', loc, msg: 'Input should be a valid list', input };
    case 'object':
    case 'loose_object':
    case 'record':
      return {
        type: 'model_attributes_type',
        loc,
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input,
      };
    case 'min_length':
    case 'non_empty':
      return isArray
        ? {
            type: 'too_short',
            loc,
            msg: `List should have at least ${plural(req ?? 1, 'item')} after validation, not ${(input as unknown[]).length}`,
            input,
            ctx: { field_type: 'List', min_length: req ?? 1, actual_length: (input as unknown[]).length },
          }
        : {
            type: 'string_too_short',
            loc,
            msg: `String should have at least ${plural(req ?? 1, 'character')}`,
            input,
            ctx: { min_length: req ?? 1 },
          };
    case 'max_length':
      return isArray
        ? {
            type: 'too_long',
            loc,
            msg: `List should have at most ${plural(req, 'item')} after validation, not ${(input as unknown[]).length}`,
            input,
            ctx: { field_type: 'List', max_length: req, actual_length: (input as unknown[]).length },
          }
        : {
            type: 'string_too_long',
            loc,
            msg: `String should have at most ${plural(req, 'character')}`,
            input,
            ctx: { max_length: req },
          };
    case 'regex': {
      const pattern = req instanceof RegExp ? req.source : String(req);
      return {
        type: 'string_pattern_mismatch',
        loc,
        msg: `String should match pattern '${pattern}'`,
        input,
        ctx: { pattern },
      };
    }
    case 'min_value':
      return {
        type: 'greater_than_equal',
        loc,
        msg: `Input should be greater than or equal to ${req}`,
        input,
        ctx: { ge: req },
      };
    case 'max_value':
      return {
        type: 'less_than_equal',
        loc,
        msg: `Input should be less than or equal to ${req}`,
        input,
        ctx: { le: req },
      };
    case 'picklist':
    case 'literal': {
      const expected = quoteList(literalOptions(issue));
      return { type: 'literal_error', loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
    }
    case 'email':
      return {
        type: 'value_error',
        loc,
        msg: 'value is not a valid email address: An email address must have an @-sign.',
        input,
        ctx: { reason: 'An email address must have an @-sign.' },
      };
    case 'url':
      return { type: 'url_parsing', loc, msg: 'Input should be a valid URL', input };
    case 'iso_timestamp':
    case 'iso_date_time':
      return { type: 'datetime_from_date_parsing', loc, msg: 'Input should be a valid datetime', input };
    case 'union':
    case 'variant': {
      const subs = (issue.issues ?? []) as AnyIssue[];
      if (subs.length > 0 && subs.every((i) => i.type === 'literal' || i.type === 'picklist')) {
        // A union of literals is one Literal[...] for Pydantic: every accepted value is named.
        const expected = quoteList(subs.flatMap(literalOptions));
        return { type: 'literal_error', loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
      }
      const sub = subs[0];
      return sub
        ? mapIssue({ ...sub, path: sub.path ?? issue.path }, where)
        : { type: 'value_error', loc, msg: `Value error, ${issue.message}`, input };
    }
    default:
      return { type: 'value_error', loc, msg: `Value error, ${issue.message}`, input, ctx: { error: {} } };
  }
}

/** Convert valibot issues to Pydantic items (one per offending field, in order). */
export function toValidationItems(issues: readonly v.BaseIssue<unknown>[], where: Location): ValidationItem[] {
  const seen = new Set<string>();
  const items: ValidationItem[] = [];
  for (const issue of issues) {
    const item = mapIssue(issue as AnyIssue, where);
    const id = JSON.stringify(item.loc);
    if (seen.has(id)) continue;
    seen.add(id);
    items.push(item);
  }
  return items;
}

/** Validate `value` against `schema`, throwing RequestValidationError (422) with all issues. */
export function validate<const S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  where: Location,
): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { abortEarly: false });
  if (result.success) return result.output;
  throw new RequestValidationError(toValidationItems(result.issues, where));
}
