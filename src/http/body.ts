/**
 * JSON request bodies: read once, parsed with errors in the Pydantic v2
 * `json_invalid` shape, validated against a valibot schema. The size limit is
 * enforced by the body-limit middleware in app.ts before this runs.
 */
import type { Context } from 'hono';
import type * as v from 'valibot';
import { RequestValidationError } from '../errors.ts';
import { parseJsonBody } from '../validation/json-body.ts';
import { validate } from '../validation/pydantic.ts';

/** Parse the body as JSON; an empty body is `undefined` (reported as a missing body). */
export async function readJson(c: Context): Promise<unknown> {
  return parseJsonBody(await c.req.text());
}

const utf8 = new TextDecoder();

/** Like readJson, and also answers the body's bytes (for callers that keep parts of the raw JSON). */
export async function readJsonWithBytes(c: Context): Promise<{ value: unknown; bytes: Uint8Array }> {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  return { value: parseJsonBody(utf8.decode(bytes)), bytes };
}

/** Read, parse and validate a JSON body. */
export async function jsonBody<const S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  const raw = await readJson(c);
  // FastAPI reads a JSON `null` body as no body: a missing body, not a wrongly typed one.
  if (raw === undefined || raw === null) {
    throw new RequestValidationError([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
  }
  return validate(schema, raw, 'body');
}
