/**
 * Status and check-access read the committed index through a searcher, which pins the snapshot's
 * segments (their files cannot be removed while a snapshot uses them). Each request releases its
 * searcher: once a later commit no longer has a segment, no answered request keeps it in use.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryDirectory } from '../../../engine/index.ts';
import { openTestState } from '../../support/app.ts';
import type { StateStore } from '../../../src/state/store.ts';
import { doc, docsHarness, type DocsHarness } from '../../support/documents.ts';

let dir: string;
let directory: MemoryDirectory;
let state: StateStore;
let h: DocsHarness;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docs-lookup-'));
  directory = new MemoryDirectory();
  state = await openTestState();
  const first = await docsHarness({ dir, directory, state });
  assert.equal((await first.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
  assert.equal((await first.api('POST', '/documents', { documents: doc() })).body.results[0].outcome, 'sent');
  await first.commit();
  await first.close(false);
  // After a restart the status of doc-1 is answered from the committed index.
  h = await docsHarness({ dir, directory, state });
});
after(async () => {
  await h.close(false);
  await rm(dir, { recursive: true, force: true });
});

/** Delete doc-1 (alone in its segment), index another document, commit: the segments that left the snapshot. */
async function dropDoc1(id: string): Promise<string[]> {
  const before = h.index.reader.segments().map((s) => s.id);
  assert.equal((await h.api('DELETE', '/documents/wiki/doc-1')).status, 200);
  assert.equal((await h.api('POST', '/documents', { documents: doc({ id }) })).body.results[0].outcome, 'sent');
  await h.commit();
  const now = new Set(h.index.reader.segments().map((s) => s.id));
  const gone = before.filter((s) => !now.has(s));
  assert.ok(gone.length > 0, 'a segment left the current snapshot');
  return gone;
}

const inUse = (segments: string[]) => segments.filter((s) => h.index.reader.inUseIds().has(s));

describe('lookups release their snapshot', () => {
  test('GET /documents/{datasource}/{id} answered from the index', async () => {
    const r = await h.api('GET', '/documents/wiki/doc-1');
    assert.equal(r.status, 200);
    assert.equal(r.body.state, 'indexed');
    assert.deepEqual(inUse(await dropDoc1('doc-2')), []);
  });

  test('POST /documents/check-access', async () => {
    assert.equal(
      (await h.api('POST', '/documents', { documents: doc({ last_modified: '2026-03-01T00:00:00Z' }) })).body.results[0]
        .outcome,
      'sent',
    );
    await h.commit();
    const r = await h.api('POST', '/documents/check-access', {
      datasource: 'wiki',
      document_id: 'doc-1',
      user_email: 'ann@example.com',
    });
    assert.equal(r.status, 200);
    assert.deepEqual(inUse(await dropDoc1('doc-3')), []);
  });
});
