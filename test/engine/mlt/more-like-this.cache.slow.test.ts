/**
 * moreLikeThis caches (mlt/mlt-cache.ts): the per-snapshot unfiltered
 * candidate list filtered by a viewer's filter returns exactly the filtered
 * more-like-this ranking, never a deleted doc; term selections cached across
 * snapshots stay exact on small indexes (they are reused across snapshots only
 * at scale).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Filter, Hit, Index, IndexDocument, Searcher } from '../../../engine/index.ts';
import { doc, indexOf } from '../helpers/index-fixture.ts';
import { int, rng } from '../helpers/random.ts';

const VOCAB = Array.from({ length: 60 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}x`);
const ACL = ['a', 'b', 'c', 'd', 'e'];

function randomDocs(r: () => number, prefix: string, n: number): IndexDocument[] {
  return Array.from({ length: n }, (_, i) => {
    const words = Array.from({ length: int(r, 3, 10) }, () => VOCAB[int(r, 0, VOCAB.length - 1)]);
    return doc(`${prefix}${i}`, words.slice(0, 2).join(' '), words.join(' '), {
      keywords: { acl: [ACL[int(r, 0, ACL.length - 1)]] },
    });
  });
}

const keys = (hits: Hit[]) => hits.map((h) => h.key);

/** Reference: the uncached path (limit above the candidate list) without filter, then the filter by hand. */
function reference(s: Searcher, key: string, acl: string[] | null, limit: number): string[] {
  const all = s.moreLikeThis(key, { limit: 1000 });
  const acls = new Map(all.map((h) => [h.key, s.get(h.key)!.keywords.acl ?? []]));
  return keys(all.filter((h) => !acl || acls.get(h.key)!.some((t) => acl.includes(t))).slice(0, limit));
}

function checkSnapshot(index: Index, r: () => number, deleted: ReadonlySet<string>, label: string): number {
  const s = index.reader.searcher();
  let compared = 0;
  for (let q = 0; q < 60; q++) {
    const key = pickLive(s, r, deleted);
    if (!key) continue;
    for (const limit of [1, 5, 10, 30, 64]) {
      const acl = r() < 0.2 ? null : ACL.filter(() => r() < 0.3);
      const filter: Filter | undefined = acl ? { keyword: 'acl', anyOf: acl } : undefined;
      const got = keys(s.moreLikeThis(key, { filter, limit }));
      assert.deepEqual(got, reference(s, key, acl, limit), `${label}: ${key} ${JSON.stringify(acl)} limit ${limit}`);
      for (const k of got) assert.ok(!deleted.has(k), `${label}: deleted ${k} shown`);
      compared++;
    }
  }
  index.reader.release(s);
  return compared;
}

function pickLive(s: Searcher, r: () => number, deleted: ReadonlySet<string>): string | null {
  for (let i = 0; i < 20; i++) {
    const x = r();
    const key = x < 0.2 ? `r${int(r, 0, 29)}` : `${x < 0.6 ? 'p' : 'q'}${int(r, 0, 199)}`;
    if (!deleted.has(key) && s.get(key)) return key;
  }
  return null;
}

test('filtered moreLikeThis from the shared candidate list equals the filtered ranking; deleted docs never shown', async () => {
  const r = rng(21);
  // r* docs share rare words in threes: their candidate lists hold every match.
  const rare = Array.from({ length: 30 }, (_, i) =>
    doc(`r${i}`, `solo${i % 10}a`, `solo${i % 10}a solo${i % 10}b`, { keywords: { acl: [ACL[i % ACL.length]] } }),
  );
  const index = await indexOf(randomDocs(r, 'p', 200), randomDocs(r, 'q', 200), rare);
  try {
    assert.ok(checkSnapshot(index, r, new Set(), 'initial') > 200);
    // Delete and replace docs; the next snapshot must not show them (nor their old versions).
    const deleted = new Set<string>();
    for (let i = 0; i < 60; i++) {
      const key = `p${int(r, 0, 199)}`;
      index.writer.delete(key);
      deleted.add(key);
    }
    for (const d of randomDocs(r, 'q', 50)) index.writer.add(d);
    await index.writer.commit();
    assert.ok(checkSnapshot(index, r, deleted, 'after deletes') > 200);
  } finally {
    await index.close();
  }
});

test('term selections cached across snapshots stay exact on a small index', async () => {
  const r = rng(5);
  const first = randomDocs(r, 'p', 150);
  const probe = first.map((d) => d.key).filter((_, i) => i % 5 === 0);
  // Updates of the other docs: the doc count stays, document frequencies change.
  const updates = randomDocs(r, 'p', 150).filter((d) => !probe.includes(d.key));
  const a = await indexOf(first);
  const b = await indexOf(first, updates);
  try {
    const before = a.reader.searcher();
    for (const key of probe) before.moreLikeThis(key, { limit: 10 }); // fills the terms cache of `a`
    a.reader.release(before);
    for (const d of updates) a.writer.add(d);
    await a.writer.commit();
    const after = a.reader.searcher();
    const fresh = b.reader.searcher();
    assert.equal(after.numDocs, before.numDocs);
    for (const key of probe) {
      const want = fresh.moreLikeThis(key, { limit: 10 }).map((h) => [h.key, h.score]);
      assert.deepEqual(
        after.moreLikeThis(key, { limit: 10 }).map((h) => [h.key, h.score]),
        want,
        key,
      );
    }
    a.reader.release(after);
    b.reader.release(fresh);
  } finally {
    await a.close();
    await b.close();
  }
});
