/**
 * GCIDE loader: gunzips gcide.dict.dz (dictzip is gzip-compatible) with
 * node:zlib and cuts it into the 126,240 distinct (offset, length) entries
 * named by gcide.index (offset and length are base64 numbers, alphabet
 * A-Za-z0-9+/, most significant digit first). One entry = one document:
 * title = the first headword naming it, body = the entry text.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { corpusPath } from '../lib/paths.ts';
import type { BenchDoc } from './types.ts';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function decodeBase64Number(s: string): number {
  let n = 0;
  for (const c of s) {
    const d = B64.indexOf(c);
    if (d < 0) throw new Error(`bad base64 digit ${JSON.stringify(c)} in ${JSON.stringify(s)}`);
    n = n * 64 + d;
  }
  return n;
}

export interface GcideCorpus {
  docs: BenchDoc[];
  /** UTF-8 bytes of all titles and bodies. */
  bytes: number;
}

export function loadGcide(): GcideCorpus {
  const text = gunzipSync(readFileSync(corpusPath('gcide', 'gcide.dict.dz')));
  const entries = new Map<string, { offset: number; length: number; headword: string }>();
  for (const line of readFileSync(corpusPath('gcide', 'gcide.index'), 'utf8').split('\n')) {
    if (!line) continue;
    const [headword, o, l] = line.split('\t');
    const offset = decodeBase64Number(o);
    const length = decodeBase64Number(l);
    const key = `${offset}:${length}`;
    if (!entries.has(key)) entries.set(key, { offset, length, headword });
  }
  const sorted = [...entries.values()].sort((a, b) => a.offset - b.offset || a.length - b.length);
  let bytes = 0;
  const docs: BenchDoc[] = sorted.map((e, i) => {
    const body = text.subarray(e.offset, e.offset + e.length).toString('utf8');
    bytes += e.length + Buffer.byteLength(e.headword);
    return { id: String(i), title: e.headword, body };
  });
  return { docs, bytes };
}
