/**
 * `enterprise-search connector run <id>`: runs one connector on demand, in this process, on
 * the data directory of the configuration (the same environment as the server), and exits.
 * It takes the search index's write lock first, so it refuses to run while a server holds the
 * data directory (one writer per directory); a running server is asked instead, through
 * `POST /api/admin/connectors/<id>/run`. Progress and logs go to stderr (a progress line a second);
 * the run's final view (counts, failures, error) is printed to stdout as JSON.
 * Exit codes: 0 completed, 3 completed with failed items, 1 failed or interrupted, 2 usage.
 */
import { isEngineError } from '../engine/index.ts';
import { closeSharedPool } from '../extractors/index.ts';
import type { Config } from './config.ts';
import { requireConnector } from './connectors/connectors.ts';
import { ConnectorScheduler } from './connectors/scheduler.ts';
import { ServiceError } from './errors.ts';
import { createLogger } from './log.ts';
import { openDocuments, openSearchIndex } from './search/open.ts';
import { openState } from './open-state.ts';

const PROGRESS_MS = 1000;

export async function runConnectorCommand(config: Config, id: string): Promise<number> {
  // Logs go to stderr: stdout carries the run's view only.
  const log = createLogger(config.logLevel, (line) => process.stderr.write(`${line}\n`));
  let index;
  try {
    index = await openSearchIndex(config, log);
  } catch (err) {
    if (!isEngineError(err, 'LOCKED')) throw err;
    process.stderr.write(
      `connector run: the data directory ${config.dataDir} is in use (${err.message}). ` +
        `While a server runs, ask it: POST /api/admin/connectors/${id}/run with an administrator key.\n`,
    );
    return 1;
  }
  const now = () => Date.now();
  const state = await openState(config, log);
  const documents = await openDocuments({ config, index, state, log, now });
  const scheduler = new ConnectorScheduler({ config, state, documents, log, now });
  try {
    await scheduler.start({ background: false });
    let record;
    try {
      record = requireConnector({ state }, id);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      process.stderr.write(`connector run: ${err.message}\n`);
      return 2;
    }
    const { view, done } = await scheduler.runNow(record, 'cli');
    const timer = setInterval(() => {
      process.stderr.write(`run ${view.run}: ${view.progress.done} of ${view.progress.total} items\n`);
    }, PROGRESS_MS);
    const end = await done.finally(() => clearInterval(timer));
    process.stdout.write(`${JSON.stringify(end, null, 2)}\n`);
    if (end.state !== 'completed') return 1;
    return end.counts.failed > 0 ? 3 : 0;
  } finally {
    await scheduler.stop();
    await documents.close();
    await index.close();
    await closeSharedPool();
    await state.close();
  }
}
