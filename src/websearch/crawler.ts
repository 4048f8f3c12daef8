/**
 * The crawler's fetch: one page over node:http/https with the SSRF policy
 * applied to the resolved address of every hop. Host names are resolved by a
 * custom `lookup` that checks every address and hands exactly those checked
 * addresses to the socket (no second resolution, so DNS rebinding cannot swap
 * them); IP literals are checked before connecting. Sockets are never pooled,
 * so no connection made under one check is reused for another. Redirects are followed by
 * hand (at most `maxRedirects`), each new URL checked again. The body is
 * streamed, decompressed (gzip, deflate, br; content-encoding.ts) and cut at `maxBytes`.
 *
 * Errors are CrawlError with a `code`; nothing else escapes `fetchPage`.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { contentDecoder, UnsupportedEncodingError } from './content-encoding.ts';
import { type AddressPolicy, isForbiddenHostName } from './ssrf.ts';

export type CrawlErrorCode =
  | 'BAD_URL'
  | 'BLOCKED_ADDRESS'
  | 'TOO_MANY_REDIRECTS'
  | 'HTTP_STATUS'
  | 'UNSUPPORTED_TYPE'
  | 'TOO_LARGE'
  | 'NETWORK'
  | 'ABORTED';

export class CrawlError extends Error {
  override name = 'CrawlError';
  constructor(
    readonly code: CrawlErrorCode,
    message: string,
    /** The response status of an HTTP_STATUS error. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Media types the crawler reads; anything else is UNSUPPORTED_TYPE. */
export const READABLE_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain', 'application/pdf']);

export interface FetchOptions {
  userAgent: string;
  policy: AddressPolicy;
  /** Largest decompressed body read; text is cut there, other types fail with TOO_LARGE. */
  maxBytes: number;
  maxRedirects: number;
  /** Aborts the fetch (deadline of the request or of the page). */
  signal: AbortSignal;
  /** The policy of one hop's URL (an allow-list by host), instead of `policy`; asked again on every redirect. */
  policyFor?: (url: URL) => AddressPolicy;
  /** Extra request headers of one hop's URL (credentials for allowed hosts only); asked again on every redirect. */
  headersFor?: (url: URL) => Record<string, string>;
  /** Media types read; default READABLE_TYPES; `'*'` in the set: any type (a body without one is not sniffed). */
  readableTypes?: ReadonlySet<string>;
  /** Validators of a cached copy: sent as If-None-Match / If-Modified-Since; a 304 answers `status: 304` with no body. */
  conditional?: { etag?: string; lastModified?: string };
}

export interface FetchedPage {
  /** Final URL after redirects. */
  url: string;
  mediaType: string;
  charset?: string;
  body: Uint8Array;
  /** True when the body was cut at maxBytes. */
  truncated: boolean;
  /** 2xx, or 304 for a conditional fetch whose copy is current (then the body is empty). */
  status: number;
  /** Validators and robots directives of the response. */
  etag?: string;
  lastModified?: string;
  robotsTag?: string;
}

interface Hop {
  status: number;
  headers: http.IncomingHttpHeaders;
  res: http.IncomingMessage;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A `lookup` for http.request that refuses host names resolving to a refused address. */
function checkedLookup(policy: AddressPolicy) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      for (const a of addresses) {
        const refused = policy(a.address);
        if (refused) {
          return callback(
            new CrawlError('BLOCKED_ADDRESS', `${hostname} resolves to a ${refused} address (${a.address})`),
          );
        }
      }
      if (addresses.length === 0) return callback(new CrawlError('NETWORK', `${hostname} has no address`));
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Validate a URL for crawling: http(s), no credentials, host not refused by name or literal address. */
export function checkUrl(raw: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CrawlError('BAD_URL', `not a URL: ${raw.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CrawlError('BAD_URL', `unsupported scheme ${url.protocol}`);
  if (url.username || url.password) throw new CrawlError('BAD_URL', 'URLs with credentials are not fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isForbiddenHostName(host)) throw new CrawlError('BLOCKED_ADDRESS', `host ${host} is not fetched`);
  if (isIP(host)) {
    const refused = policy(host);
    if (refused) throw new CrawlError('BLOCKED_ADDRESS', `${host} is a ${refused} address`);
  }
  return url;
}

function requestOnce(url: URL, opts: FetchOptions, policy: AddressPolicy): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = {
      'user-agent': opts.userAgent,
      accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/pdf;q=0.8,*/*;q=0.1',
      'accept-encoding': 'gzip, deflate, br',
      ...opts.headersFor?.(url),
    };
    if (opts.conditional?.etag) headers['if-none-match'] = opts.conditional.etag;
    if (opts.conditional?.lastModified) headers['if-modified-since'] = opts.conditional.lastModified;
    const req = mod.request(
      url,
      {
        method: 'GET',
        headers,
        lookup: checkedLookup(policy) as never,
        // No pooled sockets: every connection goes through the checked lookup of this fetch's policy.
        agent: false,
        signal: opts.signal,
      },
      (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, res }),
    );
    req.on('error', (err) => reject(err));
    req.end();
  });
}

function toCrawlError(err: unknown, signal: AbortSignal): CrawlError {
  if (err instanceof CrawlError) return err;
  if (signal.aborted) return new CrawlError('ABORTED', 'fetch aborted (timeout)');
  const e = err as { code?: string; message?: string };
  return new CrawlError('NETWORK', `${e.code ?? 'error'}: ${String(e.message ?? err).slice(0, 200)}`);
}

function parseContentType(value: string | undefined): { mediaType: string; charset?: string } {
  if (!value) return { mediaType: '' };
  const [type, ...params] = value.split(';');
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";]+)"?/i.exec(p)?.[1]).find(Boolean);
  return { mediaType: type.trim().toLowerCase(), charset };
}

/** Read at most `max` bytes of a (decompressed) response body; an abort of `signal` ends the read. */
async function readCapped(
  res: http.IncomingMessage,
  max: number,
  signal: AbortSignal,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  let dec;
  try {
    dec = contentDecoder(res.headers['content-encoding']);
  } catch (err) {
    throw err instanceof UnsupportedEncodingError ? new CrawlError('UNSUPPORTED_TYPE', err.message) : err;
  }
  // pipeline() forwards errors and destruction of the response to the decoder, so a read never hangs.
  const stream: Readable = dec ? pipeline(res, dec, () => {}) : res;
  const onAbort = () => stream.destroy(new CrawlError('ABORTED', 'fetch aborted (timeout)'));
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      const buf = chunk as Buffer;
      if (size + buf.length > max) {
        chunks.push(buf.subarray(0, max - size));
        size = max;
        truncated = true;
        break; // leaving the loop destroys the stream (and through pipeline the response)
      }
      chunks.push(buf);
      size += buf.length;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (truncated) res.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

/** Fetch one page under the SSRF policy; throws CrawlError. */
export async function fetchPage(rawUrl: string, opts: FetchOptions): Promise<FetchedPage> {
  const policyOf = (u: URL) => opts.policyFor?.(u) ?? opts.policy;
  let url = checkUrl(rawUrl, opts.policyFor ? policyOf(new URL(rawUrl)) : opts.policy);
  for (let hop = 0; ; hop++) {
    let r: Hop;
    try {
      r = await requestOnce(url, opts, policyOf(url));
    } catch (err) {
      throw toCrawlError(err, opts.signal);
    }
    if (REDIRECTS.has(r.status) && r.headers.location) {
      r.res.destroy();
      if (hop >= opts.maxRedirects)
        throw new CrawlError('TOO_MANY_REDIRECTS', `more than ${opts.maxRedirects} redirects`);
      const next = new URL(r.headers.location, url);
      url = checkUrl(next.href, policyOf(next));
      continue;
    }
    const validators = {
      etag: header(r.headers.etag),
      lastModified: header(r.headers['last-modified']),
      robotsTag: header(r.headers['x-robots-tag']),
    };
    if (r.status === 304 && opts.conditional) {
      r.res.destroy();
      return { url: url.href, mediaType: '', body: new Uint8Array(0), truncated: false, status: 304, ...validators };
    }
    try {
      if (r.status < 200 || r.status > 299) throw new CrawlError('HTTP_STATUS', `HTTP ${r.status}`, r.status);
      let { mediaType, charset } = parseContentType(r.headers['content-type']);
      const readable = opts.readableTypes ?? READABLE_TYPES;
      if (mediaType !== '' && !readable.has(mediaType) && !readable.has('*')) {
        throw new CrawlError('UNSUPPORTED_TYPE', `content type ${mediaType} is not read`);
      }
      const { body, truncated } = await readCapped(r.res, opts.maxBytes, opts.signal);
      if (mediaType === '') mediaType = readable.has('*') ? 'application/octet-stream' : sniffType(body);
      if (truncated && mediaType === 'application/pdf')
        throw new CrawlError('TOO_LARGE', `PDF larger than ${opts.maxBytes} bytes`);
      return { url: url.href, mediaType, charset, body, truncated, status: r.status, ...validators };
    } catch (err) {
      r.res.destroy();
      throw toCrawlError(err, opts.signal);
    }
  }
}

/** A header's value, or undefined (a repeated header: its first value). */
function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Media type of a body served without Content-Type. */
function sniffType(body: Uint8Array): string {
  const head = Buffer.from(body.subarray(0, 512)).toString('latin1').trimStart().toLowerCase();
  if (head.startsWith('%pdf-')) return 'application/pdf';
  if (head.startsWith('<')) return 'text/html';
  throw new CrawlError('UNSUPPORTED_TYPE', 'content type missing and not recognisable');
}
