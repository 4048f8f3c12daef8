/**
 * Entry point: parse the configuration, open the durable state, make sure a
 * master key exists (printing a generated one once, in a banner), wire the
 * services by hand, serve HTTP with the Node adapter, and shut down cleanly on
 * SIGINT/SIGTERM (stop accepting at once, close keep-alive connections after
 * their in-flight request, finish in-flight requests for up to
 * SHUTDOWN_GRACE_MS, then stop the connector runs, drain the indexing pipeline, commit and close the index, close
 * the audit log, the conversation and analytics files and the state). `npm start` runs this file; `--version` and `--help`
 * print and exit, `connector run <id>` runs one connector and exits (src/cli.ts, src/connector-command.ts),
 * and the operator commands (backup, restore, stats, reindex, accounts, keys) run and exit (src/commands/).
 * A port in use or an unusable DATA_DIR is one line on stderr and exit code 1 (src/startup.ts).
 * The Prometheus metrics (src/metrics/) are made first, so the engine's events reach them from the open on;
 * `readiness` (src/readiness.ts) follows the start for GET /readyz.
 * `npm start` execs node, so the signals a supervisor sends reach this process.
 */
import { join } from 'node:path';
import { AuditLog } from './audit/audit.ts';
import { ensureMasterKey, masterKeyBanner } from './accounts/master.ts';
import { allowedMethods, createApp } from './app.ts';
import { parseCommandLine } from './cli.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger } from './log.ts';
import type { Services } from './services.ts';
import { createHttpServer } from './http/server.ts';
import { openState } from './open-state.ts';
import { createWebSearchService } from './websearch/service.ts';
import { openDocuments, openSearchIndex } from './search/open.ts';
import { SearchPool } from './search/pool.ts';
import { closeSharedPool, configureSharedPool } from '../extractors/index.ts';
import { loadWebAssets } from './web/assets/store.ts';
import { ConversationStore, conversationsDir } from './conversations/store.ts';
import { analyticsDir, SearchAnalytics } from './analytics/analytics.ts';
import { ConnectorScheduler } from './connectors/scheduler.ts';
import { runConnectorCommand } from './connector-command.ts';
import { runAdminCommand } from './commands/run.ts';
import { UploadSessions } from './uploads/sessions.ts';
import { gracefulServer } from './http/graceful.ts';
import { checkDataDir, listenFailure, startupFailureLine } from './startup.ts';
import { VERSION } from './cli.ts';
import { Metrics } from './metrics/metrics.ts';
import { watchDocuments } from './metrics/scrape.ts';
import { Readiness } from './readiness.ts';

/** How long in-flight requests may take to finish after a stop signal. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const cli = parseCommandLine(process.argv.slice(2));
  if (cli.action === 'print') {
    process[cli.stream].write(cli.text);
    process.exitCode = cli.exitCode;
    return;
  }
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  checkDataDir(config.dataDir);
  configureSharedPool({
    maxHeapMb: config.extraction.workerHeapMb,
    inflateBudgetBytes: config.extraction.inflateBudgetBytes,
  });
  if (cli.action === 'connector-run') {
    process.exitCode = await runConnectorCommand(config, cli.id);
    return;
  }
  if (cli.action === 'command') {
    process.exitCode = await runAdminCommand(config, cli.command);
    return;
  }
  const log = createLogger(config.logLevel);

  const metrics = new Metrics(VERSION);
  const readiness = new Readiness();
  // The index's write lock first: one process writes a data directory (a connector run of the CLI holds it too).
  const index = await openSearchIndex(config, log, metrics.engineEvent);
  readiness.mark('index');
  const state = await openState(config, log);
  readiness.mark('state');
  const now = () => Date.now();
  const generated = await ensureMasterKey({ config, state, now });
  if (generated !== undefined) {
    // The only place a secret is ever printed; the log line carries no key.
    process.stdout.write(masterKeyBanner(generated));
    log.warn('generated a master key and printed it above, once; only its digest is stored');
  } else if (config.adminKey === undefined) {
    log.info('master key: using the generated key stored on first start (set ADMIN_KEY to replace it)');
  }

  const documents = await openDocuments({ config, index, state, log, now });
  readiness.replaying(documents);
  watchDocuments(metrics, documents, now);
  const webSearch = createWebSearchService({
    config: config.webSearch,
    log,
    onProviderError: metrics.webSearchFailed,
  });
  const searchRunner =
    config.searchThreads > 0
      ? new SearchPool(index, config.searchThreads, log, {
          perAccount: config.search.accountConcurrency,
          cheapWords: config.search.cheapWords,
        })
      : undefined;
  const webAssets = await loadWebAssets();
  const conversations = new ConversationStore({ dir: conversationsDir(config.dataDir), log, now });
  const audit = new AuditLog({
    dir: join(config.dataDir, 'audit'),
    log: log.child({ component: 'audit' }),
    now,
    retentionDays: config.auditRetentionDays,
  });
  const analytics = new SearchAnalytics({
    dir: analyticsDir(config.dataDir),
    log: log.child({ component: 'analytics' }),
    now,
    ...config.analytics,
  });
  const connectors = new ConnectorScheduler({ config, state, documents, log, now });
  await connectors.start({ background: true });
  const uploads = await UploadSessions.open(join(config.dataDir, 'uploads'), {
    state,
    documents,
    maxBinaryBytes: config.maxBinaryBytes,
    now,
    log,
  });
  const services: Services = {
    config,
    log,
    state,
    now,
    webSearch,
    documents,
    searchRunner,
    webAssets,
    audit,
    conversations,
    analytics,
    connectors,
    uploads,
    metrics,
    readiness,
  };
  const app = createApp(services);

  // From here on a stop signal is handled; one that arrives before the server listens stops it once it does.
  let stop: ((signal: string) => Promise<void>) | undefined;
  let early: string | undefined;
  const onSignal = (signal: string) => (stop ? void stop(signal) : (early ??= signal));
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  const server = createHttpServer(app, {
    maxHeaderBytes: config.httpMaxHeaderBytes,
    allowedMethods: (path) => allowedMethods(app, path),
    log,
  });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    log.info('listening', { host: config.host, port, dataDir: config.dataDir });
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (err: unknown) => reject(listenFailure(err, config.host, config.port));
    server.once('error', onError);
    server.once('listening', () => {
      server.off('error', onError);
      resolve();
    });
  });
  const http = gracefulServer(server);

  let stopping = false;
  stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    if (!(await http.stop(SHUTDOWN_GRACE_MS)))
      log.warn('in-flight requests did not finish in time; closed anyway', { graceMs: SHUTDOWN_GRACE_MS });
    try {
      await connectors.stop();
      await uploads.close();
      await searchRunner?.close();
      await documents.close();
      await index.close();
      await closeSharedPool();
      await audit.close();
      await analytics.close();
      await conversations.close();
      await state.close();
      log.info('stopped');
      process.exit(0);
    } catch (err) {
      log.error('closing the state failed', { error: err });
      process.exit(1);
    }
  };
  if (early !== undefined) void stop(early);
}

main().catch((err) => {
  // A failure the operator can fix (port in use, unusable DATA_DIR) is one line; a bug keeps its stack.
  const line = startupFailureLine(err);
  process.stderr.write(line !== undefined ? `${line}\n` : `fatal: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
