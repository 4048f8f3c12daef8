/**
 * Search analytics in tests: the records as they are on disk (every day file
 * under `<data dir>/analytics`, read frame by frame, and the files' raw
 * text), the data a page hands its browser module, and JSON requests made
 * with a page client's session cookie and the page's CSRF token, as the
 * browser modules make them.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scanFrames } from '../../src/storage/frame.ts';
import type { SearchAnalytics } from '../../src/analytics/analytics.ts';
import type { AnalyticsRecord } from '../../src/analytics/records.ts';
import type { HttpBrowser } from './web.ts';

async function dayFiles(dataDir: string): Promise<string[]> {
  const dir = join(dataDir, 'analytics');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.log'))
    .sort()
    .map((n) => join(dir, n));
}

/** Every record in the day files, oldest day first, in file order (after the pending writes of `analytics`). */
export async function recordsOnDisk(dataDir: string, analytics?: SearchAnalytics): Promise<AnalyticsRecord[]> {
  await analytics?.settled();
  const out: AnalyticsRecord[] = [];
  for (const file of await dayFiles(dataDir)) {
    for (const r of scanFrames(await readFile(file)).records) out.push(JSON.parse(new TextDecoder().decode(r)));
  }
  return out;
}

/** The raw bytes of every analytics file (temporary ones included) as text. */
export async function bytesOnDisk(dataDir: string, analytics?: SearchAnalytics): Promise<string> {
  await analytics?.settled();
  const dir = join(dataDir, 'analytics');
  let text = '';
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    text += new TextDecoder().decode(await readFile(join(dir, name)));
  }
  return text;
}

/** The JSON a page put into `<script type="application/json" id="page-data">`, if any. */
export function pageDataOf(html: string): any {
  const m = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(html);
  return m ? JSON.parse(m[1]) : undefined;
}

/** The CSRF token of a page (`<meta name="csrf-token">`). */
export function csrfOf(html: string): string {
  const m = /<meta name="csrf-token" content="([^"]+)"/.exec(html);
  if (!m) throw new Error('no csrf-token meta element');
  return m[1];
}

/** A JSON request with the page client's cookies and, unless null, the X-CSRF-Token header. */
export async function sessionJson(
  b: HttpBrowser,
  method: string,
  path: string,
  opts: { body?: unknown; csrf?: string | null; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  headers.cookie = [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (opts.csrf) headers['x-csrf-token'] = opts.csrf;
  const res = await fetch(b.base + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

/** Resolves with `find()`'s first defined answer (asked every few ms); rejects naming `what` after `timeoutMs`. */
export async function eventually<T>(find: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
