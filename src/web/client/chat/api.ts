/**
 * Calls of the chat page to the public API with the session cookie: JSON
 * requests (the saved conversations), file uploads and the streamed
 * completion. Every state-changing request carries the page's CSRF token in
 * `X-CSRF-Token`. A failed call throws ApiError with the message the API gave
 * (`{detail}`, `{error: {message}}` or the 422 items).
 */
import { csrfToken } from '../page.ts';
import { tr } from './text.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Citation {
  number: number;
  id: string;
  title: string;
  url?: string;
  path_preview?: string;
  datasource: string;
}

export interface FileRef {
  id: string;
  filename: string;
}

export interface Message {
  role: 'user' | 'assistant';
  content: string;
  citations?: Citation[];
  files?: FileRef[];
}

export interface ConversationSummary {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  message_count: number;
}

async function failure(res: Response): Promise<ApiError> {
  let message = `HTTP ${res.status}`;
  try {
    const body = (await res.json()) as { detail?: unknown; error?: { message?: string } };
    if (body.error?.message) message = body.error.message;
    else if (typeof body.detail === 'string') message = body.detail;
    else if (Array.isArray(body.detail))
      message = body.detail.map((d: { msg?: string; loc?: unknown[] }) => `${d.loc?.join('.')}: ${d.msg}`).join('; ');
  } catch {
    // not JSON: the status says enough
  }
  return new ApiError(res.status, message);
}

async function send(path: string, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.method && init.method !== 'GET') headers.set('X-CSRF-Token', csrfToken());
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers, credentials: 'same-origin' });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, tr('chat.offline'));
  }
  if (!res.ok) throw await failure(res);
  return res;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  return (await (await send(path, init)).json()) as T;
}

export async function uploadFile(file: File): Promise<FileRef> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await send('/api/beta/files/upload', { method: 'POST', body: form });
  const body = (await res.json()) as FileRef;
  return { id: body.id, filename: body.filename };
}

/** POST a streamed completion; resolves with the response once its headers are in. */
export function startCompletion(body: unknown, signal: AbortSignal): Promise<Response> {
  return send('/api/beta/serviceai/chat/completions', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    signal,
  });
}
