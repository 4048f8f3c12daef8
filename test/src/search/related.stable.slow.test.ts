/**
 * Similar lists reused across snapshots (related-cache.ts, enabled here at small
 * scale with configureRelatedCache): after commits that delete documents, re-permission
 * them and add new ones, no similar_docs entry is a document the viewer cannot see or
 * that is gone, and unchanged lists are reused.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { RelatedCache } from '../../../src/search/related-cache.ts';
import { configureRelatedCache } from '../../../src/search/service.ts';
import { prng } from '../../support/prng.ts';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

const rnd = prng(77);
const STEMS = ['harbour', 'lantern', 'granite', 'meadow', 'copper', 'violin', 'glacier', 'saffron', 'tundra', 'orchid'];
const VOCAB = STEMS.flatMap((w) => ['a', 'o', 'u', 'i'].map((v) => `${w}${v}x`));
const USERS = ['ann@example.com', 'bob@example.com'];
let h: SearchHarness;

/** Model: key -> who may see it (null = anonymous), or absent when deleted. */
const allowed = new Map<string, string | null>();

function payload(i: number, who: string | null, words: string) {
  return {
    datasource: 'ds',
    id: `d${i}`,
    title: `note ${i}`,
    file_type: 'wiki',
    body: { mime_type: 'text/plain', text_content: words },
    permissions:
      who === null
        ? { allow_anonymous_access: true }
        : { allow_anonymous_access: false, allowed_users: [{ email: who }] },
  };
}

const words = () => Array.from({ length: 8 + rnd.int(6) }, () => rnd.pick(VOCAB)).join(' ');
const owner = () => (rnd.next() < 0.4 ? null : rnd.pick(USERS));

async function pushAll(items: { i: number; who: string | null }[]) {
  await h.push(items.map(({ i, who }) => payload(i, who, words())));
  for (const { i, who } of items) allowed.set(`ds:d${i}`, who);
}

before(async () => {
  h = await searchHarness();
  assert.equal((await h.api('POST', '/datasources', { name: 'ds', display_name: 'ds' })).status, 200);
  await h.register('ds', ...USERS);
  configureRelatedCache(h.index, { minDocs: 0, maxDrift: 1, maxAgeMs: Number.POSITIVE_INFINITY });
  await pushAll(Array.from({ length: 80 }, (_, i) => ({ i, who: owner() })));
  await h.commit();
});
after(() => h.close());

async function checkAll(label: string): Promise<number> {
  let listed = 0;
  for (const email of USERS) {
    for (const q of VOCAB.slice(0, 16)) {
      const r = await h.search({ email }, { query: q, count: 20 });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      for (const x of r.body.results) {
        for (const d of x.similar_docs as { id: string }[]) {
          assert.ok(allowed.has(d.id), `${label}: ${email} sees deleted ${d.id} as similar to ${x.id}`);
          const who = allowed.get(d.id);
          assert.ok(
            who === null || who === email,
            `${label}: ${email} sees ${d.id} (only ${who}) as similar to ${x.id}`,
          );
          listed++;
        }
      }
    }
  }
  return listed;
}

test('similar lists kept across commits never show deleted or invisible documents', async () => {
  const proto = RelatedCache.prototype;
  const original = proto.similar;
  let reused = 0;
  proto.similar = function (...args: Parameters<typeof original>) {
    const got = original.apply(this, args);
    if (got) reused++;
    return got;
  };
  try {
    assert.ok((await checkAll('initial')) > 100);
    for (let round = 0; round < 3; round++) {
      // Re-permission some docs (a new version replaces the old), delete others, add new ones.
      const changed = Array.from({ length: 15 }, () => ({ i: rnd.int(80), who: rnd.pick(USERS) }));
      await pushAll(changed);
      for (let n = 0; n < 4; n++) {
        const key = `d${rnd.int(80)}`;
        const r = await h.api('DELETE', `/documents/ds/${key}`);
        if (r.status === 200) allowed.delete(`ds:${key}`);
      }
      await pushAll(Array.from({ length: 5 }, (_, k) => ({ i: 100 + round * 10 + k, who: owner() })));
      await h.commit();
      reused = 0;
      assert.ok((await checkAll(`round ${round}`)) > 50);
      assert.ok(reused > 0, `round ${round}: some similar lists were reused across the commit`);
    }
  } finally {
    proto.similar = original;
  }
});
