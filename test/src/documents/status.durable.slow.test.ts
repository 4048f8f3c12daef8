/**
 * Skipped and failed document statuses are durable (DATA_DIR/documents/statuses.bin): they survive a
 * restart with their message, a later indexed or deleted version replaces them, a crash lets the engine's
 * last commit and the replayed queue decide, deleting the datasource drops them, and the file is compacted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsDirectory } from '../../../engine/index.ts';
import { openTestState } from '../../support/app.ts';
import type { StateStore } from '../../../src/state/store.ts';
import { scanFile } from '../../../src/storage/record-log.ts';
import { doc, docsHarness, type DocsHarnessOptions } from '../../support/documents.ts';

const LONG = 'notes.verylongextension';
const corruptPdf = { mime_type: 'application/pdf', binary_base64: Buffer.from('not a pdf at all').toString('base64') };

const keys = new WeakMap<StateStore, string>();

/** A service over `dir` with the engine on disk (DATA_DIR/index), as a process start would open it. */
async function start(dir: string, state: StateStore, opts: DocsHarnessOptions = {}) {
  const h = await docsHarness({ dir, state, directory: await FsDirectory.open(join(dir, 'index')), ...opts });
  // The service account made by the first start (the control plane is shared across restarts).
  if (!keys.has(state)) keys.set(state, h.key);
  const key = keys.get(state)!;
  return {
    ...h,
    api: (method: string, path: string, body?: unknown) => h.call(method, `/api/indexing${path}`, key, body),
  };
}

async function fresh(opts: DocsHarnessOptions = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'docs-status-'));
  const state = await openTestState();
  const h = await start(dir, state, opts);
  assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
  return { dir, state, h };
}

test('skipped and failed statuses survive restarts; a later indexed or deleted version replaces them', async () => {
  const { dir, state, h } = await fresh();
  try {
    await h.api('POST', '/documents', { documents: doc({ id: 'a' }) });
    await h.commit();
    const skipped = await h.api('POST', '/documents', {
      documents: [doc({ id: 'a', title: LONG, last_modified: '2026-02-01T00:00:00Z' }), doc({ id: 'c', title: LONG })],
    });
    assert.deepEqual(
      skipped.body.results.map((r: { outcome: string }) => r.outcome),
      ['skipped', 'skipped'],
    );
    assert.equal(
      (await h.api('POST', '/documents', { documents: doc({ id: 'broken', file_type: 'file', body: corruptPdf }) }))
        .body.results[0].outcome,
      'sent',
    );
    await h.commit();
    await h.close(false);

    let h2 = await start(dir, state);
    let a = await h2.api('GET', '/documents/wiki/a');
    assert.equal(a.status, 200);
    assert.equal(a.body.state, 'skipped', 'the skip wins over the older indexed version');
    assert.equal(a.body.outcome, 'skipped');
    assert.match(a.body.message, /suffix 'verylongextension' is longer than 10/);
    assert.equal(a.body.last_modified, '2026-02-01T00:00:00Z');
    assert.equal((await h2.api('GET', '/documents/wiki/c')).body.state, 'skipped');
    const broken = await h2.api('GET', '/documents/wiki/broken');
    assert.equal(broken.body.state, 'failed');
    assert.match(broken.body.message, /extraction or indexing failed/);
    assert.equal(h2.index.reader.searcher().get('wiki:a'), null);

    // A fixed version of `a` is indexed; `c` is deleted.
    assert.equal(
      (await h2.api('POST', '/documents', { documents: doc({ id: 'a', last_modified: '2026-03-01T00:00:00Z' }) })).body
        .results[0].outcome,
      'sent',
    );
    assert.equal((await h2.api('DELETE', '/documents/wiki/c')).status, 200);
    await h2.commit();
    assert.equal((await h2.api('GET', '/documents/wiki/a')).body.state, 'indexed');
    await h2.close(false);

    h2 = await start(dir, state);
    a = await h2.api('GET', '/documents/wiki/a');
    assert.equal(a.body.state, 'indexed');
    assert.equal(a.body.last_modified, '2026-03-01T00:00:00Z');
    assert.equal((await h2.api('GET', '/documents/wiki/c')).status, 404, 'deleted after its skip: unknown again');
    assert.equal((await h2.api('GET', '/documents/wiki/broken')).body.state, 'failed');
    assert.deepEqual(h2.documents.statusLog.stats.live, 1);
    await h2.close(false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('after a crash the engine commit decides: a re-push not yet committed is replayed over the skip', async () => {
  const { dir, state, h } = await fresh();
  const copy = await mkdtemp(join(tmpdir(), 'docs-status-crash-'));
  try {
    await h.api('POST', '/documents', { documents: [doc({ id: 'x', title: LONG }), doc({ id: 'y' })] });
    await h.commit();
    // Re-push x fixed and skip y; applied by the pipeline but not committed when the process dies.
    const r = await h.api('POST', '/documents', {
      documents: [
        doc({ id: 'x', last_modified: '2026-04-01T00:00:00Z' }),
        doc({ id: 'y', title: LONG, last_modified: '2026-04-01T00:00:00Z' }),
      ],
    });
    assert.deepEqual(
      r.body.results.map((x: { outcome: string }) => x.outcome),
      ['sent', 'skipped'],
    );
    await h.documents.pipeline.drained();
    await cp(dir, copy, { recursive: true });
    await h.close(false);

    const h2 = await start(copy, state);
    assert.equal(
      (await h2.api('GET', '/documents/wiki/x')).body.state,
      'queued',
      'the replayed push decides, not the older skip',
    );
    const y = await h2.api('GET', '/documents/wiki/y');
    assert.equal(y.body.state, 'skipped', 'the replayed skip keeps its message');
    assert.match(y.body.message, /longer than 10/);
    await h2.commit();
    assert.equal((await h2.api('GET', '/documents/wiki/x')).body.state, 'indexed');
    assert.equal(h2.index.reader.searcher().get('wiki:y'), null);
    await h2.close(false);

    const h3 = await start(copy, state);
    assert.equal((await h3.api('GET', '/documents/wiki/x')).body.state, 'indexed');
    assert.equal((await h3.api('GET', '/documents/wiki/x')).body.last_modified, '2026-04-01T00:00:00Z');
    assert.equal((await h3.api('GET', '/documents/wiki/y')).body.state, 'skipped');
    await h3.close(false);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(copy, { recursive: true, force: true });
  }
});

test('deleting the datasource drops its statuses, also for a datasource recreated under the same name', async () => {
  const { dir, state, h } = await fresh();
  try {
    await h.api('POST', '/documents', {
      documents: [doc({ id: 's', title: LONG }), doc({ id: 'f', file_type: 'file', body: corruptPdf })],
    });
    await h.commit();
    assert.equal((await h.api('GET', '/documents/wiki/f')).body.state, 'failed');
    assert.equal((await h.api('DELETE', '/datasources/wiki')).status, 200);
    await h.commit();
    assert.equal(h.documents.statusLog.stats.live, 0);
    assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki again' })).status, 200);
    assert.equal((await h.api('GET', '/documents/wiki/s')).status, 404);
    await h.close(false);

    const h2 = await start(dir, state);
    assert.equal((await h2.api('GET', '/documents/wiki/s')).status, 404);
    assert.equal((await h2.api('GET', '/documents/wiki/f')).status, 404);
    await h2.close(false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the status file is compacted once most entries are superseded, and a torn tail is cut off', async () => {
  const { dir, state, h } = await fresh({ statusCompactMinRecords: 16 });
  const file = join(dir, 'documents', 'statuses.bin');
  try {
    const ids = Array.from({ length: 30 }, (_, i) => `d${i}`);
    await h.api('POST', '/documents', { documents: ids.map((id) => doc({ id, title: LONG })) });
    await h.commit();
    assert.equal((await scanFile(file))!.records.length, 30);
    // All but the last two are indexed: 28 superseded of 58 records, so the file is rewritten with the live ones.
    await h.api('POST', '/documents', { documents: ids.slice(0, 28).map((id) => doc({ id })) });
    await h.commit();
    await h.close(false);
    const records = (await scanFile(file))!.records.length;
    assert.ok(records < 30, `compacted to ${records} records`);

    await appendFile(file, new Uint8Array([7, 0, 0, 0, 1, 2, 3])); // a record torn mid-write
    const h2 = await start(dir, state, { statusCompactMinRecords: 16 });
    assert.equal((await h2.api('GET', '/documents/wiki/d0')).body.state, 'indexed');
    assert.equal((await h2.api('GET', '/documents/wiki/d29')).body.state, 'skipped');
    assert.match((await h2.api('GET', '/documents/wiki/d28')).body.message, /verylongextension/);
    assert.equal(h2.documents.statusLog.stats.live, 2);
    await h2.close(false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
