/**
 * Page form posts: `application/x-www-form-urlencoded` bodies of at most
 * FORM_MAX_BYTES (the limit is enforced by the middleware before the body is
 * read), parsed into a plain record of the first value per field.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { requestBodyLimit } from '../http/body-limit.ts';
import type { WebEnv } from './env.ts';

export const FORM_MAX_BYTES = 64 * 1024;

export const formBodyLimit: MiddlewareHandler = requestBodyLimit({
  maxSize: FORM_MAX_BYTES,
  onError: (c) => c.text('Form too large', 413),
});

/** The posted fields (first value of each); an unparseable or non-form body gives no fields. */
export async function readForm(c: Context<WebEnv>): Promise<Record<string, string>> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded')) return {};
  const out: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(await c.req.text())) {
    if (!Object.hasOwn(out, name)) out[name] = value;
  }
  return out;
}
