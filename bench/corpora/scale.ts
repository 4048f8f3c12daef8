/**
 * Deterministic scale set of N documents (default 1,000,000) generated from
 * GCIDE text: a seeded PRNG recombines GCIDE sentences into new documents
 * (title = first words of one sentence, body = 2-8 sentences, ~300 bytes), and assigns
 * keyword columns: `datasource` (one of 8) and `acl` (1-3 access tokens out of
 * a pool of 2,000 with Zipf-skewed popularity, like groups of very different
 * sizes). A "user" holds 50 tokens: 5 drawn by popularity and 45 uniformly,
 * so a user sees a realistic fraction of the documents (the scenario prints it).
 */
import { createRng, type Rng } from '../lib/prng.ts';
import type { BenchDoc } from './types.ts';

export const ACL_POOL = 2000;
export const DATASOURCES = ['wiki', 'drive', 'mail', 'tickets', 'crm', 'chat', 'docs', 'intranet'];

/** Sentences of 20-400 characters cut from the GCIDE bodies, whitespace collapsed. */
export function sentencePool(docs: readonly BenchDoc[]): string[] {
  const out: string[] = [];
  for (const d of docs) {
    for (const s of d.body.replace(/\s+/g, ' ').split(/(?<=[.;])\s+/)) {
      if (s.length >= 20 && s.length <= 400) out.push(s);
    }
  }
  return out;
}

function zipfSampler(n: number, s: number): (rng: Rng) => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / Math.pow(i + 1, s);
  for (let i = 0; i < n; i++) cdf[i] /= sum;
  return (rng) => {
    const u = rng.next();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const aclZipf = zipfSampler(ACL_POOL, 1.0);

/** Yields `count` documents; identical for the same sentences, count and seed. */
export function* generateScaleDocs(sentences: readonly string[], count: number, seed = 42): Generator<BenchDoc> {
  const rng = createRng(seed);
  for (let i = 0; i < count; i++) {
    const first = rng.pick(sentences);
    const words = first.split(' ');
    const title = words.slice(0, 3 + rng.int(6)).join(' ');
    const n = 2 + rng.int(7);
    const parts = [first];
    for (let j = 1; j < n; j++) parts.push(rng.pick(sentences));
    const acl = new Set<string>();
    const k = 1 + rng.int(3);
    for (let j = 0; j < k; j++) acl.add(`g${aclZipf(rng)}`);
    yield {
      id: `d${i}`,
      title,
      body: parts.join(' '),
      keywords: { datasource: [DATASOURCES[rng.int(DATASOURCES.length)]], acl: [...acl] },
    };
  }
}

/** The access tokens of `users` deterministic users, 50 each (5 by popularity, 45 uniform). */
export function userTokenSets(users: number, seed = 7, size = 50): string[][] {
  const rng = createRng(seed);
  const out: string[][] = [];
  for (let u = 0; u < users; u++) {
    const set = new Set<string>();
    while (set.size < 5) set.add(`g${aclZipf(rng)}`);
    while (set.size < size) set.add(`g${rng.int(ACL_POOL)}`);
    out.push([...set]);
  }
  return out;
}
