/**
 * Errors of the chat-completion API in the shape of the compatible client
 * library: `{error: {message, type, param, code}}`, with the service's own
 * `detail` beside it. `ChatError` carries the HTTP status; `toOpenAIError`
 * converts any error body the rest of the service produces (`{detail}`,
 * the 422 validation list) into this shape.
 */
import type { ValidationItem } from '../errors.ts';

export type ChatErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'upstream_error'
  | 'api_error';

export class ChatError extends Error {
  override name = 'ChatError';
  constructor(
    readonly status: number,
    readonly type: ChatErrorType,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
  detail: unknown;
}

export function errorBody(err: ChatError): OpenAIErrorBody {
  return { error: { message: err.message, type: err.type, param: err.param, code: err.code }, detail: err.message };
}

const TYPE_BY_STATUS: Record<number, ChatErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  413: 'invalid_request_error',
  422: 'invalid_request_error',
  502: 'upstream_error',
  503: 'api_error',
  504: 'upstream_error',
};

const CODE_BY_STATUS: Record<number, string> = {
  401: 'invalid_api_key',
  403: 'wrong_key_kind',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'request_too_large',
};

/** Convert a `{detail}` body of any status into the compatible error shape (idempotent). */
export function toOpenAIError(status: number, body: unknown): OpenAIErrorBody {
  if (body && typeof body === 'object' && 'error' in body) return body as OpenAIErrorBody;
  const detail = body && typeof body === 'object' && 'detail' in body ? (body as { detail: unknown }).detail : body;
  const type = TYPE_BY_STATUS[status] ?? 'api_error';
  if (Array.isArray(detail)) {
    const items = detail as ValidationItem[];
    const first = items[0];
    const param = first ? first.loc.filter((p) => p !== 'body').join('.') || null : null;
    const message = items.map((i) => `${i.loc.filter((p) => p !== 'body').join('.') || 'body'}: ${i.msg}`).join('; ');
    return { error: { message, type, param, code: first?.type ?? 'validation_error' }, detail };
  }
  const message = typeof detail === 'string' ? detail : `HTTP ${status}`;
  return {
    error: {
      message,
      type,
      param: null,
      code: CODE_BY_STATUS[status] ?? (status >= 500 ? 'server_error' : 'invalid_request'),
    },
    detail,
  };
}
