/**
 * GET a provider's JSON API with the standard fetch: status check, a size cap
 * on the body (streamed, stop past the cap), JSON parse, and every failure as
 * a ProviderError naming the provider and the reason. Provider base URLs come
 * from the operator's configuration, so they are not subject to the crawler's
 * address policy.
 */
import { decodeHTML } from 'entities/decode';
import { ProviderError } from './types.ts';

const MAX_BODY_BYTES = 10_000_000;

async function readCapped(res: Response, name: string): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new ProviderError('BAD_RESPONSE', `${name} answered with more than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Fetch `url` and parse its JSON body; throws ProviderError. */
export async function getJson(
  url: URL,
  headers: Record<string, string>,
  name: string,
  signal: AbortSignal,
): Promise<unknown> {
  let text: string;
  let status: number;
  try {
    const res = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal, redirect: 'follow' });
    status = res.status;
    text = await readCapped(res, name);
  } catch (err) {
    if (err instanceof ProviderError) throw err;
    if (signal.aborted) throw new ProviderError('TIMEOUT', `${name} did not answer in time`);
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new ProviderError(
      'NETWORK',
      `${name} is unreachable (${cause?.code ?? cause?.message ?? (err as Error).message})`,
    );
  }
  if (status < 200 || status > 299) {
    const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    throw new ProviderError('HTTP_STATUS', `${name} answered HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError('BAD_RESPONSE', `${name} answered with invalid JSON`);
  }
}

/** Strip markup (e.g. Brave's `<strong>` highlights) and decode the character references (the whole HTML5 table). */
export function plainText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return decodeHTML(value.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
