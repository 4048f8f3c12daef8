/**
 * The shared vocabulary of the OpenAPI document: an operation as the area
 * modules declare it (`Operation`), the credentials an operation accepts
 * (`Access`, mapped to security requirements), the error envelopes of the
 * service (README, Errors) as reusable responses, and `pathItems`, which
 * turns the declared operations into OpenAPI path items: path parameters from
 * the `{name}` segments, query parameters and bodies converted from the
 * request's own valibot schemas, and the errors every operation of its kind
 * can answer (401/403 with a credential, 413/422 with a body, 500 always).
 */
import type * as v from 'valibot';
import { integerParam, isIntegerParam, type JsonSchema, type SchemaRegistry } from './schema.ts';

/** Who may call: the guards of auth/middleware.ts. */
export type Access =
  | 'none' // no credential (liveness)
  | 'any-key' // any bearer key: master, personal or service account
  | 'any' // any bearer key, or the browser session of a signed-in account
  | 'personal' // personal account key, or a browser session
  | 'admin' // master key, an administrator's personal key, or an administrator's session
  | 'service' // service-account key only
  | 'service-or-session'; // service-account key, or an administrator's browser session

export type Envelope = 'detail' | 'chat';

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path with `{name}` parameters. */
  path: string;
  id: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  /** Descriptions of the path parameters, by name. */
  pathParams?: Record<string, string>;
  /** The valibot object schema of the query string. */
  query?: v.ObjectSchema<v.ObjectEntries, undefined> | v.StrictObjectSchema<v.ObjectEntries, undefined>;
  /** The request body: a valibot schema (JSON), or a JSON Schema with its media type. */
  body?: unknown;
  bodyMedia?: string;
  /** Whether the body may be left out (it is then read as `{}`). */
  bodyOptional?: boolean;
  /** The success answer. */
  ok: { status?: number; description: string; schema?: unknown; media?: Record<string, JsonSchema> };
  /** Error statuses beyond the common ones, e.g. [404, 409]. */
  errors?: number[];
  /** 422 may also be the Indexing API's error_code envelope. */
  schemaErrors?: boolean;
  /** The error envelope (the chat API has its own). */
  envelope?: Envelope;
}

const BEARER = {
  masterKey: [],
  personalKey: [],
  serviceAccountKey: [],
} as const;

/** Security requirements: alternatives, any one of which suffices. */
function security(access: Access, method: string): Record<string, string[]>[] | undefined {
  const session = method === 'get' ? [{ session: [] }] : [{ session: [], csrfToken: [] }];
  switch (access) {
    case 'none':
      return [];
    case 'any-key':
      return Object.keys(BEARER).map((k) => ({ [k]: [] }));
    case 'any':
      return [...Object.keys(BEARER).map((k) => ({ [k]: [] })), ...session];
    case 'personal':
      return [{ personalKey: [] }, ...session];
    case 'admin':
      return [{ masterKey: [] }, { personalKey: [] }, ...session];
    case 'service':
      return [{ serviceAccountKey: [] }];
    case 'service-or-session':
      return [{ serviceAccountKey: [] }, ...session];
  }
}

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** The reusable error responses (components.responses), by name. */
export function errorResponses(r: SchemaRegistry): Record<string, JsonSchema> {
  const detail = (description: string, extra: JsonSchema = {}) => ({
    description,
    content: json(r.ref('ErrorDetail')),
    ...extra,
  });
  const chat = (description: string) => ({ description, content: json(r.ref('ChatError')) });
  return {
    BadRequest: detail('The request cannot be carried out as asked (the message says why).'),
    Unauthorized: detail('Missing, malformed, unknown, revoked or expired credential.', {
      headers: { 'WWW-Authenticate': { description: '`Bearer`', schema: { type: 'string' } } },
    }),
    Forbidden: detail('A valid credential of the wrong kind or role, or a failed CSRF check (browser sessions).'),
    NotFound: detail('The resource (or its datasource) does not exist.'),
    Conflict: detail('The resource exists already, or the change conflicts with the current state.'),
    PayloadTooLarge: detail('The request body exceeds the size limit.'),
    TooManyRequests: detail('Too many attempts; retry after the given delay.', {
      headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
    }),
    ValidationError: {
      description: 'Request validation failed (FastAPI/Pydantic v2 shape, one item per offending field).',
      content: json(r.ref('HTTPValidationError')),
    },
    IndexingValidationError: {
      description:
        'Request validation failed (FastAPI/Pydantic v2 shape), or a service-layer schema error in the error_code envelope.',
      content: json({ anyOf: [r.ref('HTTPValidationError'), r.ref('SchemaErrorEnvelope')] }),
    },
    BadGateway: detail('An upstream (LLM, web-search provider, mail or git server) failed.'),
    Unavailable: detail('The service cannot answer now (shutting down, or a part is not configured).'),
    ServerError: detail('Unexpected error; the message names the request id. Safe to retry.'),
    ChatBadRequest: chat('Unsupported operation or invalid request (compatible error shape).'),
    ChatUnauthorized: chat('Missing, invalid or expired credential (compatible error shape).'),
    ChatForbidden: chat('Not a personal account key (compatible error shape).'),
    ChatNotFound: chat('Unknown model or agent (compatible error shape).'),
    ChatValidationError: chat('Request validation failed; `detail` holds the Pydantic-shaped items.'),
    ChatPayloadTooLarge: chat('The request body exceeds the size limit (compatible error shape).'),
    ChatBadGateway: chat('The LLM upstream failed (compatible error shape).'),
    ChatUnavailable: chat('No LLM upstream is configured, or it is unavailable (compatible error shape).'),
    ChatTimeout: chat('The LLM upstream timed out (compatible error shape).'),
    ChatServerError: chat('Unexpected error (compatible error shape). Safe to retry.'),
  };
}

const DETAIL_BY_STATUS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  422: 'ValidationError',
  429: 'TooManyRequests',
  502: 'BadGateway',
  503: 'Unavailable',
  500: 'ServerError',
};
const CHAT_BY_STATUS: Record<number, string> = {
  400: 'ChatBadRequest',
  401: 'ChatUnauthorized',
  403: 'ChatForbidden',
  404: 'ChatNotFound',
  413: 'ChatPayloadTooLarge',
  422: 'ChatValidationError',
  502: 'ChatBadGateway',
  503: 'ChatUnavailable',
  504: 'ChatTimeout',
  500: 'ChatServerError',
};

function errorRef(op: Operation, status: number): JsonSchema {
  const table = op.envelope === 'chat' ? CHAT_BY_STATUS : DETAIL_BY_STATUS;
  const name = status === 422 && op.schemaErrors ? 'IndexingValidationError' : table[status];
  if (!name) throw new Error(`openapi: no error response for ${status} (${op.id})`);
  return { $ref: `#/components/responses/${name}` };
}

function parameters(r: SchemaRegistry, op: Operation): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const name of op.path.match(/\{([^}]+)\}/g) ?? []) {
    const bare = name.slice(1, -1);
    const description = op.pathParams?.[bare];
    out.push({
      name: bare,
      in: 'path',
      required: true,
      ...(description ? { description } : {}),
      schema: { type: 'string' },
    });
  }
  for (const [name, schema] of Object.entries(op.query?.entries ?? {})) {
    const converted = isIntegerParam(schema) ? withDefault(integerParam(schema), r.convert(schema)) : r.convert(schema);
    const { description, ...rest } = converted;
    const required = !['optional', 'nullish', 'exact_optional'].includes((schema as { type: string }).type);
    out.push({ name, in: 'query', required, ...(description ? { description } : {}), schema: rest });
  }
  return out;
}

const withDefault = (integer: JsonSchema, converted: JsonSchema) =>
  converted.default === undefined ? integer : { ...integer, default: converted.default };

function operationObject(r: SchemaRegistry, op: Operation): JsonSchema {
  const statuses = new Set(op.errors ?? []);
  if (op.access !== 'none') [401, 403].forEach((s) => statuses.add(s));
  if (op.body !== undefined || op.query) statuses.add(422);
  if (op.body !== undefined) statuses.add(413);
  statuses.add(500);
  const ok = op.ok;
  const success = {
    description: ok.description,
    ...(ok.media
      ? { content: ok.media }
      : ok.schema !== undefined
        ? { content: json(r.convert(ok.schema, false)) }
        : {}),
  };
  const responses: Record<string, JsonSchema> = { [String(ok.status ?? 200)]: success };
  for (const s of [...statuses].sort()) responses[String(s)] = errorRef(op, s);
  const media = op.bodyMedia ?? 'application/json';
  const bodySchema = media === 'application/json' && op.body !== undefined ? r.convert(op.body, false) : op.body;
  return {
    operationId: op.id,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: security(op.access, op.method),
    parameters: parameters(r, op),
    ...(op.body !== undefined
      ? { requestBody: { required: !op.bodyOptional, content: { [media]: { schema: bodySchema } } } }
      : {}),
    responses,
  };
}

/** OpenAPI path items of `ops`, in the order given. */
export function pathItems(r: SchemaRegistry, ops: Operation[]): Record<string, Record<string, JsonSchema>> {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`openapi: ${op.method} ${op.path} declared twice`);
    item[op.method] = operationObject(r, op);
  }
  return paths;
}
