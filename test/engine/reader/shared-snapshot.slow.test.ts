/** Searching a snapshot on another thread's side: IndexReader.share() posted through a MessageChannel into a SnapshotReader. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsDirectory, MemoryDirectory, openIndex, SnapshotReader } from '../../../engine/index.ts';
import type { Directory, Index, Searcher, SharedSnapshot } from '../../../engine/index.ts';
import { doc, schema } from '../helpers/index-fixture.ts';

/** The snapshot as another thread receives it (structured clone; shared memory stays shared). */
function post(s: SharedSnapshot): Promise<SharedSnapshot> {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    port2.once('message', (m: SharedSnapshot) => {
      port1.close();
      port2.close();
      resolve(m);
    });
    port1.postMessage(s);
  });
}

const WORDS = ['budget', 'report', 'travel', 'holiday', 'server', 'invoice', 'meeting', 'review', 'plan', 'archive'];
function docs(from: number, n: number) {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const body = Array.from({ length: 12 }, (_, j) => WORDS[(i * 7 + j * 3 + (i % 5) * j) % WORDS.length]).join(' ');
    return doc(`d${i}`, `${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]} ${i}`, body, {
      keywords: { acl: [`g${i % 3}`], source: ['wiki'] },
      numbers: { modified: i },
    });
  });
}

/** What a searcher answers to a fixed set of requests (hits, scores, totals, highlights, similar docs). */
function answers(s: Searcher): unknown {
  const out: unknown[] = [s.generation, s.numDocs];
  for (const q of ['budget', 'travel plan', '"server invoice"', 'review -archive', 'holiday +meeting']) {
    for (const filter of [undefined, { keyword: 'acl', anyOf: ['g1', 'g2'] }]) {
      const r = s.search({ query: q, language: 'en', limit: 7, offset: 1, filter });
      out.push(
        r.total,
        r.hits.map((h) => [h.key, h.score, s.highlight(h, s.parse(q, 'en'), { maxPassages: 1 })]),
      );
    }
  }
  out.push(
    s.moreLikeThis('d3', { limit: 5, filter: { keyword: 'acl', anyOf: ['g0', 'g1'] } }).map((h) => [h.key, h.score]),
  );
  return out;
}

async function check(dir: Directory): Promise<void> {
  const index: Index = await openIndex({ directory: dir, schema, merge: { segmentsPerTier: 2, maxMergeAtOnce: 2 } });
  const remote = new SnapshotReader({ schema });
  assert.equal(remote.generation, -1);
  assert.throws(() => remote.searcher(), /no snapshot/);
  for (const d of docs(0, 60)) index.writer.add(d);
  await index.writer.commit();
  const first = await post(index.reader.share());
  for (const seg of first.segments)
    assert.ok(seg.bytes.buffer instanceof SharedArrayBuffer, 'segment images are in shared memory');
  remote.load(first);
  assert.equal(remote.generation, index.reader.generation);
  assert.deepEqual(answers(remote.searcher()), answers(index.reader.searcher()));

  // updates, deletes and more segments; the old remote searcher stays on its snapshot
  const before = remote.searcher();
  const beforeAnswers = answers(before);
  for (const d of docs(60, 40)) index.writer.add(d);
  for (let i = 0; i < 60; i += 4) index.writer.delete(`d${i}`);
  for (const d of docs(10, 5))
    index.writer.add({ ...d, text: { title: 'replaced travel', body: 'travel budget review' } });
  await index.writer.commit();
  assert.equal(index.reader.share(), index.reader.share(), 'one description per snapshot');
  remote.load(await post(index.reader.share()));
  assert.deepEqual(answers(remote.searcher()), answers(index.reader.searcher()));
  assert.deepEqual(answers(before), beforeAnswers);

  // a merge removes the old segments' files: snapshots loaded before still search
  await index.forceMerge(1);
  const merged = await post(index.reader.share());
  assert.equal(merged.segments.length, 1);
  assert.deepEqual(answers(before), beforeAnswers);
  remote.load(merged);
  assert.deepEqual(answers(remote.searcher()), answers(index.reader.searcher()));
  await index.close();
}

test('a shared snapshot searches exactly like the owner (memory directory)', async () => {
  await check(new MemoryDirectory());
});

test('a shared snapshot searches exactly like the owner (fs directory), also after reopening', async () => {
  const path = await mkdtemp(join(tmpdir(), 'shared-snapshot-'));
  try {
    await check(await FsDirectory.open(path));
    const index = await openIndex({ directory: await FsDirectory.open(path), schema, merge: false });
    const remote = new SnapshotReader({ schema });
    const shared = await post(index.reader.share());
    assert.ok(shared.segments.every((s) => s.bytes.buffer instanceof SharedArrayBuffer));
    remote.load(shared);
    assert.deepEqual(answers(remote.searcher()), answers(index.reader.searcher()));
    await index.close();
  } finally {
    await rm(path, { recursive: true, force: true });
  }
});
