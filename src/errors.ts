/**
 * Typed errors of the service layer and their HTTP envelopes (spec, Errors):
 * - ServiceError: `{detail: "message"}` with the status of its kind;
 * - RequestValidationError: 422 `{detail: [{type, loc, msg, input, ctx?}]}` as FastAPI/Pydantic v2 produce it;
 * - SchemaError: 422 `{status: "error", details: {error_code, message}}` (service-layer schema errors).
 * Domain code throws these; the single `onError` in app.ts turns them into responses.
 */

export type ServiceErrorKind =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'TOO_MANY_REQUESTS'
  | 'UNPROCESSABLE'
  | 'BAD_GATEWAY'
  | 'UNAVAILABLE'
  | 'TIMEOUT';

const STATUS: Record<ServiceErrorKind, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  UNPROCESSABLE: 422,
  BAD_GATEWAY: 502,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
};

/** An error with a message meant for the client, answered as `{detail: message}` (with `headers`, if any). */
export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    /** Seconds after which a retry may succeed (answered as `Retry-After`). */
    readonly retryAfterSeconds?: number,
    /** More response headers (e.g. `connection: close` when the body was not read). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
  get status(): number {
    return STATUS[this.kind];
  }
}

export const badRequest = (m: string) => new ServiceError('BAD_REQUEST', m);
export const notFound = (m: string) => new ServiceError('NOT_FOUND', m);
export const conflict = (m: string) => new ServiceError('CONFLICT', m);
export const unauthorized = (m: string) => new ServiceError('UNAUTHORIZED', m);
export const forbidden = (m: string) => new ServiceError('FORBIDDEN', m);
export const tooManyRequests = (m: string, retryAfterSeconds: number) =>
  new ServiceError('TOO_MANY_REQUESTS', m, retryAfterSeconds);

/** One entry of a FastAPI/Pydantic v2 validation error. */
export interface ValidationItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** Request validation failed (body, query or path): 422 with one item per offending field. */
export class RequestValidationError extends Error {
  override name = 'RequestValidationError';
  constructor(readonly items: ValidationItem[]) {
    super(items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

/** The spec's service-layer schema error codes, plus the codes the documents pipeline adds. */
export type SchemaErrorCode =
  | 'NO_PROPERTY_DEFINITIONS'
  | 'UNKNOWN_PROPERTY'
  | 'INVALID_PROPERTY_TYPE'
  | 'INVALID_DATA_SOURCE_SUB'
  | 'INVALID_DATA_SOURCE_SUB_SUB'
  | 'AMBIGUOUS_DATA_SOURCE_SUB_SUB'
  | (string & {});

/** Service-layer schema violation: 422 `{status: "error", details: {error_code, message}}`. */
export class SchemaError extends Error {
  override name = 'SchemaError';
  constructor(
    readonly code: SchemaErrorCode,
    message: string,
  ) {
    super(message);
  }
}
