/**
 * Related-list entries after compaction: once the index is merged (its segment then has the
 * display store of DOCUMENT_SCHEMA.displayFields), every similar_docs, duplicates and
 * same_thread_docs entry still shows exactly the title, path_preview and data_source that the
 * document's own result record shows (which is read from the full stored payload).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryDirectory, openIndex } from '../../../engine/index.ts';
import { DOCUMENT_SCHEMA } from '../../../src/documents/index-schema.ts';
import { prng } from '../../support/prng.ts';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

const rnd = prng(5);
const VOCAB = ['harbour', 'lantern', 'granite', 'meadow', 'copper', 'violin', 'glacier', 'saffron'].flatMap((w) => [
  `${w}ax`,
  `${w}ox`,
]);
const USER = 'ann@example.com';
const N = 60;
const directory = new MemoryDirectory();
let dir: string;
let h: SearchHarness;

function payload(i: number) {
  const words = Array.from({ length: 10 }, () => rnd.pick(VOCAB)).join(' ');
  return {
    datasource: i % 2 === 0 ? 'wiki' : 'mail',
    id: `d${i}`,
    title: `Notiz ${i} «${rnd.pick(VOCAB)}» "zitat" 😀`,
    file_type: i % 4 === 0 ? 'email' : 'wiki',
    path: i % 4 === 0 ? `Inbox > Thread ${i % 3} > d${i}` : `Space > d${i}`,
    path_preview: `https://example.org/ä/${i}?q="x"`,
    body: { mime_type: 'text/plain', text_content: i % 10 === 9 ? payloadText(i - 1) : `${words} unique${i}x` },
    permissions: { allow_anonymous_access: true },
  };
}
const texts = new Map<number, string>();
function payloadText(i: number): string {
  return texts.get(i) ?? '';
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'related-display-'));
  const first = await searchHarness({ dir, directory });
  for (const ds of ['wiki', 'mail']) {
    assert.equal((await first.api('POST', '/datasources', { name: ds, display_name: ds })).status, 200);
    await first.register(ds, USER);
  }
  for (let half = 0; half < 2; half++) {
    const docs = [];
    for (let i = half * (N / 2); i < (half + 1) * (N / 2); i++) {
      const d = payload(i);
      texts.set(i, d.body.text_content);
      docs.push(d);
    }
    await first.push(docs);
    await first.commit();
  }
  await first.close(false);
  // compaction, as the service's idle compaction does it
  const index = await openIndex({ directory, schema: DOCUMENT_SCHEMA, merge: { floorSegmentBytes: 1 } });
  await index.forceMerge(1);
  await index.close();
  h = await searchHarness({ dir, directory, state: first.services.state });
});
after(async () => {
  await h.close(false);
  await rm(dir, { recursive: true, force: true });
});

test('related entries read from the display store equal the documents own records', async () => {
  const segments = h.index.reader.segments();
  assert.equal(segments.length, 1);
  assert.deepEqual(segments[0].core.meta.displayFields, DOCUMENT_SCHEMA.displayFields);
  const own = new Map<string, { title: string; path_preview: string; data_source: string }>();
  const entries: { id: string; title: string; path_preview: string; data_source: string }[] = [];
  for (let i = 0; i < N; i++) {
    const r = await h.search({ email: USER }, { query: `unique${i}x`, count: 10 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    for (const x of r.body.results) {
      own.set(x.id, { title: x.title, path_preview: x.path_preview, data_source: x.data_source });
      entries.push(...x.similar_docs, ...x.duplicates, ...x.same_thread_docs);
    }
  }
  assert.ok(entries.length > N, `related entries listed: ${entries.length}`);
  let checked = 0;
  for (const e of entries) {
    const mine = own.get(e.id);
    if (!mine) continue;
    assert.deepEqual({ title: e.title, path_preview: e.path_preview, data_source: e.data_source }, mine, e.id);
    assert.match(e.title, /^Notiz \d+ «/);
    checked++;
  }
  assert.ok(checked > N / 2, `entries checked: ${checked}`);
});
