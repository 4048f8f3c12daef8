/**
 * Child process for crash tests: opens the real on-disk state, engine and queue under DATA_DIR
 * (no periodic commit), runs the steps named in STEPS (comma-separated), then kills itself with
 * SIGKILL, so that whatever was not committed is left exactly as after a crash.
 *   create   create datasource `wiki`
 *   push     push document wiki:doc-1 (acknowledged once durable)
 *   commit   apply the queue and commit the engine
 *   delete   delete datasource `wiki` (its drop is queued, durably, before this step ends)
 *   recreate delete datasource `wiki` and, without waiting for that, create it again; ends when the
 *            creation is acknowledged
 */
import { pushDocuments } from '../../../../src/documents/push.ts';
import { createDatasource, deleteDatasource } from '../../../../src/controlplane/datasources.ts';
import { openOnDisk } from '../../../support/documents-on-disk.ts';

const dataDir = process.env.DATA_DIR!;
const { config, state, now, index, documents } = await openOnDisk(dataDir, { commitIntervalMs: 0, merge: false });
for (const step of (process.env.STEPS ?? '').split(',')) {
  if (step === 'create')
    await createDatasource(
      { state, now },
      { name: 'wiki', display_name: 'Wiki', icon_base64: null, subs: [], object_definitions: [] },
    );
  else if (step === 'push') {
    const doc = {
      datasource: 'wiki',
      id: 'doc-1',
      title: 'Travel policy',
      file_type: 'wiki',
      last_modified: '2026-01-01T00:00:00Z',
      body: { mime_type: 'text/plain', text_content: 'trains' },
    };
    const res = await pushDocuments(
      { state, documents, maxBinaryBytes: config.maxBinaryBytes, now },
      { documents: doc },
    );
    if (res.results[0].outcome !== 'sent') throw new Error(`push answered ${res.results[0].outcome}`);
  } else if (step === 'commit') {
    await documents.pipeline.drained();
    await index.writer.commit();
  } else if (step === 'delete') await deleteDatasource({ state, now }, 'wiki');
  else if (step === 'recreate') {
    void deleteDatasource({ state, now }, 'wiki');
    await createDatasource(
      { state, now },
      { name: 'wiki', display_name: 'Wiki', icon_base64: null, subs: [], object_definitions: [] },
    );
  } else throw new Error(`unknown step ${step}`);
}
process.stdout.write('DONE\n');
process.kill(process.pid, 'SIGKILL');
