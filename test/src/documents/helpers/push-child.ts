/**
 * Child process for the kill -9 test of the documents pipeline: opens the real
 * on-disk state, engine and queue under DATA_DIR, then pushes documents in
 * small bulks forever (every other one with its body bytes, as the HTTP route passes them;
 * every third one with Base64 binaries read through push-body.ts, so they are stored in blob
 * files), printing `ACK <id> <last_modified>` for every document whose push was acknowledged
 * (durable). The parent kills it at random.
 */
import { pushDocuments } from '../../../../src/documents/push.ts';
import { readPushBody } from '../../../../src/documents/push-body.ts';
import { createDatasource } from '../../../../src/controlplane/index.ts';
import { indexingState } from '../../../../src/controlplane/datasources.ts';
import { openOnDisk } from '../../../support/documents-on-disk.ts';

const dataDir = process.env.DATA_DIR!;
const round = Number(process.env.ROUND ?? '0');
const { config, state, now, documents } = await openOnDisk(dataDir, { commitIntervalMs: 15 }, async (deps) => {
  if (!indexingState(deps).datasources.has('wiki'))
    await createDatasource(deps, {
      name: 'wiki',
      display_name: 'Wiki',
      icon_base64: null,
      subs: [],
      object_definitions: [],
    });
});
process.stdout.write('READY\n');
let n = 0;
for (let bulk = 0; ; bulk++) {
  const batch = [];
  const stored = bulk % 3 === 2;
  for (let i = 0; i < 5; i++, n++) {
    // Ids repeat across rounds with a new last_modified, so updates are exercised too.
    const id = `d${n % 40}`;
    const text = `round ${round} write ${n}`;
    batch.push({
      datasource: 'wiki',
      id,
      title: `doc ${id}`,
      file_type: 'wiki',
      last_modified: new Date(Date.UTC(2026, 0, 1, 0, 0, round, n)).toISOString(),
      body: stored
        ? { mime_type: 'text/plain', binary_base64: Buffer.from(`${text} `.repeat(6)).toString('base64') }
        : { mime_type: 'text/plain', text_content: text },
    });
  }
  const deps = { state, documents, maxBinaryBytes: config.maxBinaryBytes, now };
  let res;
  if (stored) {
    // Read as the HTTP route streams a long body: binaries over 64 bytes go to blob files.
    const json = new TextEncoder().encode(JSON.stringify({ documents: batch }));
    const chunks = Array.from({ length: Math.ceil(json.length / 50) }, (_, k) => json.subarray(k * 50, k * 50 + 50));
    const body = await readPushBody(chunks, {
      blobs: documents.blobs,
      maxBinaryBytes: config.maxBinaryBytes,
      spoolAboveBytes: 64,
    });
    res = await pushDocuments(deps, body.value, {}, body.bytes, body.spooled);
  } else {
    // Every other bulk comes with its body bytes, as over HTTP: queued as the items' raw JSON.
    const body = { documents: batch };
    const bytes = n % 10 === 0 ? new TextEncoder().encode(JSON.stringify(body)) : undefined;
    res = await pushDocuments(deps, body, {}, bytes);
  }
  for (let i = 0; i < batch.length; i++)
    if (res.results[i].outcome === 'sent') process.stdout.write(`ACK ${batch[i].id} ${batch[i].last_modified}\n`);
}
