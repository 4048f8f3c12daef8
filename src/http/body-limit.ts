/**
 * Request bodies at the door: the size limit (413 above `maxSize`) and the
 * memory admission of src/http/admission.ts (503 with Retry-After).
 *
 * GET and HEAD requests have no body. A body announced by Content-Length
 * (without Transfer-Encoding) is decided by that number before any byte is
 * read: over the limit it is refused at once, else its length is reserved in
 * the budget (waiting for room if need be) and the Node adapter reads it
 * directly later. A chunked body is counted while the handler reads it, each
 * chunk reserved as it arrives: the chunk that passes the limit, or that finds
 * no room, fails the read at once and the rest is never read. Either way the
 * answer closes the connection, so Node does not read the rest to reuse it.
 * The lease is given back when the request ends (`bodyLease` in the context
 * lets a reader give back bytes it moved out of memory earlier).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { ServiceError } from '../errors.ts';
import { BodyBudgetBusy, type BodyBudget, type BodyLease } from './admission.ts';

export interface BodyLimitOptions {
  maxSize: number;
  /** Memory admission (the app's middleware); absent: the size limit only (a route's stricter limit). */
  budget?: BodyBudget;
  /** The answer to a body over `maxSize`; default the `{detail}` 413. Either way the connection closes. */
  onError?: (c: Context) => Response | Promise<Response>;
}

const leases = new WeakMap<Context, BodyLease>();

/** The body lease of this request (undefined without a body). */
export function bodyLease(c: Context): BodyLease | undefined {
  return leases.get(c);
}

export function tooLargeError(maxSize: number): ServiceError {
  return new ServiceError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${maxSize} bytes`, undefined, {
    connection: 'close',
  });
}

function busyError(err: BodyBudgetBusy): ServiceError {
  return new ServiceError('UNAVAILABLE', `Service Unavailable: ${err.message}`, err.retryAfterSeconds, {
    connection: 'close',
  });
}

function errorResponse(c: Context, err: ServiceError): Response {
  const headers: Record<string, string> = { ...err.headers };
  if (err.retryAfterSeconds !== undefined) headers['retry-after'] = String(err.retryAfterSeconds);
  return c.json({ detail: err.message }, err.status as 413, headers);
}

export function requestBodyLimit(options: BodyLimitOptions): MiddlewareHandler {
  const { maxSize, budget } = options;
  const refuse = async (c: Context, err: ServiceError): Promise<Response> => {
    if (err.kind !== 'PAYLOAD_TOO_LARGE' || !options.onError) return errorResponse(c, err);
    const res = await options.onError(c);
    res.headers.set('connection', 'close');
    return res;
  };
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const length = c.req.header('content-length');
    let lease: BodyLease | undefined;
    let failure: ServiceError | undefined;
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      const n = Number.parseInt(length || '0', 10);
      if (n > maxSize) return refuse(c, tooLargeError(maxSize));
      if (!(n > 0)) return next();
      try {
        lease = await budget?.acquire(n);
      } catch (err) {
        if (err instanceof BodyBudgetBusy) return errorResponse(c, busyError(err));
        throw err;
      }
    } else {
      const body = c.req.raw.body;
      if (!body) return next();
      const counting = budget?.empty();
      lease = counting;
      let seen = 0;
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            seen += chunk.byteLength;
            if (seen > maxSize) failure = tooLargeError(maxSize);
            else if (counting && !counting.tryGrow(chunk.byteLength))
              failure = busyError(new BodyBudgetBusy(budget!.retryAfterSeconds));
            if (failure) controller.error(failure);
            else controller.enqueue(chunk);
          },
        }),
      );
      c.req.raw = new Request(c.req.raw, { body: counted, duplex: 'half' } as RequestInit);
    }
    if (lease) leases.set(c, lease);
    try {
      await next();
    } finally {
      lease?.release();
    }
    if (failure) {
      // Whatever the handler made of the failed read (some catch it), the answer is the limit's.
      c.res = undefined;
      c.res = await refuse(c, failure);
    }
  };
}
