/**
 * A datasource deleted and created again under the same name, with a push to the new datasource
 * decided while the deletion is still being made durable: the push is answered `sent` for the new
 * datasource, so the old datasource's drop must not remove it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pushDocuments } from '../../../src/documents/push.ts';
import { createDatasource, deleteDatasource } from '../../../src/controlplane/datasources.ts';
import { openTestState } from '../../support/app.ts';
import { doc, docsHarness } from '../../support/documents.ts';

const DS = { name: 'wiki', display_name: 'Wiki', icon_base64: null, subs: [], object_definitions: [] };

test('a push decided after a datasource was re-created survives the old datasource drop', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ds-recreate-race-'));
  const state = await openTestState(dir);
  const h = await docsHarness({ dir, state });
  const now = () => Date.now();
  try {
    await createDatasource({ state, now }, DS);
    // Delete and create are applied to the control plane at once and answered once durable;
    // the push below sees the new datasource before the deletion's fsync returns.
    const deleted = deleteDatasource({ state, now }, 'wiki');
    const created = createDatasource({ state, now }, DS);
    const pushed = pushDocuments(
      { state, documents: h.documents, maxBinaryBytes: h.services.config.maxBinaryBytes, now },
      { documents: doc({ id: 'new-1' }) },
    );
    const [, , res] = await Promise.all([deleted, created, pushed]);
    assert.equal(res.results[0].outcome, 'sent');
    await h.commit();
    assert.ok(
      h.index.reader.searcher().get('wiki:new-1'),
      'the document pushed to the re-created datasource is indexed',
    );
  } finally {
    await h.close(false);
    await state.close();
    await rm(dir, { recursive: true, force: true });
  }
});
