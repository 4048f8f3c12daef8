/**
 * Deleting a datasource and creating it again under the same name: the documents pushed to the
 * new datasource are indexed, even when the old datasource's documents are still in the committed
 * index (the drop not yet committed) or in the replayed queue after a restart. A push must never
 * be answered `already_indexed` by comparison with a version the pending drop removes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsDirectory } from '../../../engine/index.ts';
import { deleteDatasource } from '../../../src/controlplane/datasources.ts';
import { MASTER_KEY, openTestState } from '../../support/app.ts';
import { doc, docsHarness } from '../../support/documents.ts';

const DS = { name: 'wiki', display_name: 'Wiki' };

const CHILD = new URL('./helpers/crash-child.ts', import.meta.url).pathname;

/** Runs `steps` in a child process on `dataDir` that then kills itself with SIGKILL (see crash-child.ts). */
function crashAfter(dataDir: string, steps: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, DATA_DIR: dataDir, STEPS: steps },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' && out.includes('DONE')
        ? resolve()
        : reject(new Error(`child did not finish its steps: ${out}`)),
    );
  });
}

/** Indexing API calls of a reopened harness (its own service account: the first one's name is taken). */
async function indexingApi(h: Awaited<ReturnType<typeof docsHarness>>) {
  const sa = await h.call('POST', '/api/admin/service-accounts', MASTER_KEY, { name: `indexer-${Date.now()}` });
  assert.equal(sa.status, 200);
  return (method: string, path: string, body?: unknown) => h.call(method, `/api/indexing${path}`, sa.body.key, body);
}

test('a document pushed again to a re-created datasource before the drop is committed is indexed', async () => {
  const h = await docsHarness();
  try {
    assert.equal((await h.api('POST', '/datasources', DS)).status, 200);
    assert.equal((await h.api('POST', '/documents', { documents: doc() })).body.results[0].outcome, 'sent');
    await h.commit();
    assert.equal((await h.api('DELETE', '/datasources/wiki')).status, 200);
    assert.equal((await h.api('POST', '/datasources', DS)).status, 200);
    // No commit in between: the old version is still in the committed index.
    const r = await h.api('POST', '/documents', { documents: doc() });
    assert.equal(r.status, 200);
    await h.commit();
    assert.ok(
      h.index.reader.searcher().get('wiki:doc-1'),
      `the re-pushed document is indexed (push answered ${r.body.results[0].outcome})`,
    );
  } finally {
    await h.close();
  }
});

test("the status of a deleted datasource's document is 404 once the name is created again, also before the drop is committed", async () => {
  const h = await docsHarness();
  try {
    assert.equal((await h.api('POST', '/datasources', DS)).status, 200);
    assert.equal((await h.api('POST', '/documents', { documents: doc() })).body.results[0].outcome, 'sent');
    await h.commit();
    assert.equal((await h.api('GET', '/documents/wiki/doc-1')).body.state, 'indexed');
    assert.equal((await h.api('DELETE', '/datasources/wiki')).status, 200);
    assert.equal((await h.api('POST', '/datasources', DS)).status, 200);
    // The old version is still in the committed index; it belongs to the deleted datasource.
    const r = await h.api('GET', '/documents/wiki/doc-1');
    assert.equal(r.status, 404, JSON.stringify(r.body));
    await h.commit();
    assert.equal((await h.api('GET', '/documents/wiki/doc-1')).status, 404);
  } finally {
    await h.close();
  }
});

test('after a restart that replays a drop, a re-pushed document of the re-created datasource is indexed', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ds-recreate-'));
  try {
    // Pushed and committed, then the datasource is deleted: its drop is acknowledged in the queue, not committed.
    await crashAfter(dir, 'create,push,commit,delete');
    const state = await openTestState(dir);
    const h = await docsHarness({ dir, state, directory: await FsDirectory.open(join(dir, 'index')) });
    try {
      const api = await indexingApi(h);
      assert.equal((await api('POST', '/datasources', DS)).status, 200);
      const r = await api('POST', '/documents', { documents: doc() });
      assert.equal(r.status, 200);
      await h.commit();
      assert.ok(
        h.index.reader.searcher().get('wiki:doc-1'),
        `the re-pushed document is indexed (push answered ${r.body.results[0].outcome})`,
      );
    } finally {
      await h.close(false);
      await state.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('documents queued before a crash that followed their datasource deletion are not indexed after restart', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ds-deleted-queued-'));
  try {
    // Acknowledged, not committed.
    await crashAfter(dir, 'create,push');
    // The process died after the datasource deletion was durable in the control plane and before
    // its drop reached the document queue: the state alone records the deletion.
    let state = await openTestState(dir);
    await deleteDatasource({ state, now: () => Date.now() }, 'wiki');
    await state.close();

    state = await openTestState(dir);
    const h = await docsHarness({ dir, state, directory: await FsDirectory.open(join(dir, 'index')) });
    try {
      await h.commit();
      assert.ok(!h.index.reader.searcher().get('wiki:doc-1'), 'a deleted datasource keeps no documents');
      // Re-creating the name must not bring them back either.
      assert.equal((await (await indexingApi(h))('POST', '/datasources', DS)).status, 200);
      await h.commit();
      assert.ok(!h.index.reader.searcher().get('wiki:doc-1'));
    } finally {
      await h.close(false);
      await state.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a datasource re-created while its deletion is in flight, then a crash: the old documents are removed after restart', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ds-recreate-crash-'));
  try {
    // The deletion and the re-creation overlap; the process dies once the re-creation is acknowledged.
    await crashAfter(dir, 'create,push,commit,recreate');
    const state = await openTestState(dir);
    const h = await docsHarness({ dir, state, directory: await FsDirectory.open(join(dir, 'index')) });
    try {
      await h.commit();
      const api = await indexingApi(h);
      assert.equal((await api('POST', '/users', { datasource: 'wiki', user: { email: 'ann@x.org' } })).status, 200);
      const check = await api('POST', '/documents/check-access', {
        datasource: 'wiki',
        document_id: 'doc-1',
        user_email: 'ann@x.org',
      });
      assert.equal(
        check.status,
        404,
        `the re-created datasource holds none of the deleted one's documents: ${JSON.stringify(check.body)}`,
      );
    } finally {
      await h.close(false);
      await state.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
