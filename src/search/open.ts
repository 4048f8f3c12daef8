/**
 * Opens the search side of the service under DATA_DIR: the engine index in
 * `index/` (periodic commit every COMMIT_INTERVAL_MS) and the documents
 * service (durable queue and pipeline) in `documents/`.
 */
import { join } from 'node:path';
import { ANALYSIS_VERSION, FsDirectory, openIndex, type EngineEvent, type Index } from '../../engine/index.ts';
import type { Config } from '../config.ts';
import { blobsDir } from '../documents/blobs.ts';
import { createBodyReader } from '../documents/body.ts';
import { DocumentService } from '../documents/service.ts';
import type { Logger } from '../log.ts';
import type { StateStore } from '../state/store.ts';
import { DOCUMENT_SCHEMA } from '../documents/index-schema.ts';

function engineLogger(log: Logger): (e: EngineEvent) => void {
  return (e) => {
    if (e.type === 'error') log.error('search engine error', { where: e.where, message: e.message });
    else if (e.type === 'open' && e.staleAnalysisDocs > 0) {
      log.warn(
        'search engine open: documents indexed with an older analysis version match less precisely until pushed again',
        { ...e, analysisVersion: ANALYSIS_VERSION },
      );
    } else if (e.type === 'open' || e.type === 'merge' || e.type === 'compacted')
      log.info(`search engine ${e.type}`, { ...e });
    else log.debug(`search engine ${e.type}`, { ...e });
  };
}

/** `observe`: also told every engine event (metrics: commit, merge and flush durations). */
export async function openSearchIndex(
  config: Pick<Config, 'dataDir' | 'commitIntervalMs'> & Partial<Pick<Config, 'mergeIdleMs'>>,
  log: Logger,
  observe?: (e: EngineEvent) => void,
): Promise<Index> {
  const logged = engineLogger(log);
  const directory = await FsDirectory.open(join(config.dataDir, 'index'));
  return openIndex({
    directory,
    schema: DOCUMENT_SCHEMA,
    commitIntervalMs: config.commitIntervalMs,
    compaction: { idleMs: config.mergeIdleMs ?? 0 },
    log: observe
      ? (e) => {
          observe(e);
          logged(e);
        }
      : logged,
  });
}

export async function openDocuments(deps: {
  config: Pick<Config, 'dataDir' | 'maxBinaryBytes'>;
  index: Index;
  state: StateStore;
  log: Logger;
  now: () => number;
}): Promise<DocumentService> {
  const dir = join(deps.config.dataDir, 'documents');
  return DocumentService.open({
    dir,
    index: deps.index,
    state: deps.state,
    readBody: createBodyReader({ maxBinaryBytes: deps.config.maxBinaryBytes, blobsDir: blobsDir(dir) }),
    log: deps.log,
    now: deps.now,
  });
}
