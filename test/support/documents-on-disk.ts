/**
 * The documents pipeline on the real on-disk state, engine and queue under `dataDir`, as the
 * crash-test child processes open it (test/src/documents/helpers/crash-child.ts, push-child.ts).
 */
import { join } from 'node:path';
import { FsDirectory, openIndex } from '../../engine/index.ts';
import { extractInline } from '../../extractors/index.ts';
import { blobsDir } from '../../src/documents/blobs.ts';
import { createBodyReader } from '../../src/documents/body.ts';
import { DocumentService } from '../../src/documents/service.ts';
import { silentLogger } from '../../src/log.ts';
import { DOCUMENT_SCHEMA } from '../../src/documents/index-schema.ts';
import type { StateStore } from '../../src/state/store.ts';
import { testServices } from './app.ts';

/** `prepare` runs on the opened state before the pipeline opens (and reconciles with it). */
export async function openOnDisk(
  dataDir: string,
  engine: { commitIntervalMs: number; merge?: false },
  prepare?: (deps: { state: StateStore; now: () => number }) => Promise<void>,
) {
  const { config, state, now } = await testServices({ dataDir });
  await prepare?.({ state, now });
  const index = await openIndex({
    directory: await FsDirectory.open(join(dataDir, 'index')),
    schema: DOCUMENT_SCHEMA,
    ...engine,
  });
  const documents = await DocumentService.open({
    dir: join(dataDir, 'documents'),
    index,
    state,
    readBody: createBodyReader({
      maxBinaryBytes: config.maxBinaryBytes,
      extract: extractInline,
      blobsDir: blobsDir(join(dataDir, 'documents')),
    }),
    log: silentLogger,
    now,
  });
  return { config, state, now, index, documents };
}
