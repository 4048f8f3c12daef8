/**
 * Runs an operator command (src/cli-commands.ts) on the data directory of the configuration,
 * in this process, and exits. Commands that read or change the state take the data directory's
 * lock (the search index's write lock, the one a server holds), so they refuse clearly while a
 * server runs and name the admin API to use instead. Results go to stdout as JSON (a key or a
 * service account's secret only there, once; never in a log line); logs and progress go to stderr.
 * Exit codes: 0 done, 1 refused or failed, 2 usage.
 */
import { join } from 'node:path';
import { FsDirectory, isEngineError, type DirectoryLock } from '../../engine/index.ts';
import { closeSharedPool } from '../../extractors/index.ts';
import { createAccount, createPersonalKey, setPassword } from '../accounts/accounts.ts';
import { emailProblem } from '../accounts/email.ts';
import { parseTimestamp } from '../accounts/schemas.ts';
import { createServiceAccount } from '../accounts/service-accounts.ts';
import { serverStats } from '../admin/stats.ts';
import { restoreBackup } from '../backup/restore.ts';
import { BackupError, writeBackup } from '../backup/snapshot.ts';
import type { Config } from '../config.ts';
import { ServiceError } from '../errors.ts';
import { createLogger, type Logger } from '../log.ts';
import { openState } from '../open-state.ts';
import { openDocuments, openSearchIndex } from '../search/open.ts';
import type { StateStore } from '../state/store.ts';
import type { AdminCommand } from '../cli-commands.ts';
import { readSecretLine } from './secret-input.ts';
import { progressReporter } from './progress.ts';

/** What to ask a running server instead, per command. */
const WHILE_SERVING: Record<AdminCommand['name'], string> = {
  backup: 'POST /api/admin/backups {"name": ...} (written under BACKUP_DIR)',
  restore: '(restore only into a new or empty DATA_DIR, with no server on it)',
  stats: 'GET /api/admin/stats',
  reindex: '(stop the server first: a rebuild needs the index to itself)',
  'account-create': 'POST /api/admin/accounts',
  'account-password': 'PUT /api/admin/accounts/{email}/password',
  'key-create': 'POST /api/admin/accounts/{email}/keys',
  'service-account-create': 'POST /api/admin/service-accounts',
};

const print = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

export async function runAdminCommand(config: Config, cmd: AdminCommand): Promise<number> {
  const log = createLogger(config.logLevel, (line) => process.stderr.write(`${line}\n`));
  try {
    await dispatch(config, cmd, log);
    return 0;
  } catch (err) {
    if (isEngineError(err, 'LOCKED')) {
      process.stderr.write(
        `${cmd.name}: the data directory ${config.dataDir} is in use by a running server (${err.message}). ` +
          `Ask the server instead: ${WHILE_SERVING[cmd.name]} with an administrator key.\n`,
      );
      return 1;
    }
    // Refusals, and file-system failures an operator can fix (a path that is not writable, a full disk): one line.
    if (
      err instanceof ServiceError ||
      err instanceof BackupError ||
      typeof (err as NodeJS.ErrnoException)?.code === 'string'
    ) {
      process.stderr.write(`${cmd.name}: ${(err as Error).message}\n`);
      return 1;
    }
    throw err;
  }
}

async function dispatch(config: Config, cmd: AdminCommand, log: Logger): Promise<void> {
  const now = () => Date.now();
  switch (cmd.name) {
    case 'restore':
      return print(await restoreBackup(cmd.dir, config.dataDir));
    case 'backup': {
      const index = await openSearchIndex({ ...config, mergeIdleMs: 0 }, log);
      try {
        return print(await writeBackup(config.dataDir, index, cmd.dir));
      } finally {
        await index.close();
      }
    }
    case 'stats':
    case 'reindex':
      return withDocuments(config, log, cmd.name);
    default:
      return withState(config, log, (state) => changeState(state, cmd, now));
  }
}

/** Opens the index, the state and the documents (replaying the queue), for stats and reindex. */
async function withDocuments(config: Config, log: Logger, what: 'stats' | 'reindex'): Promise<void> {
  const now = () => Date.now();
  const index = await openSearchIndex({ ...config, mergeIdleMs: 0 }, log);
  let state: StateStore | undefined;
  try {
    state = await openState(config, log);
    const documents = await openDocuments({ config, index, state, log, now });
    if (what === 'stats') {
      print(await serverStats({ state, dataDir: config.dataDir, documents, now }));
      await documents.close();
      return;
    }
    // Every acknowledged operation is applied and committed first: the rebuild must be the only writer.
    await documents.close();
    const report = progressReporter(process.stderr, 'reindex');
    const result = await index.rebuild(report.update);
    report.done();
    print({ documents: result.done });
  } finally {
    await index.close();
    await closeSharedPool();
    await state?.close();
  }
}

/** Takes the data directory's lock and opens the state (no index): commands that change accounts. */
async function withState(config: Config, log: Logger, run: (state: StateStore) => Promise<unknown>): Promise<void> {
  const directory = await FsDirectory.open(join(config.dataDir, 'index'));
  let lock: DirectoryLock | undefined;
  try {
    lock = await directory.lock();
    const state = await openState(config, log);
    try {
      print(await run(state));
    } finally {
      await state.close();
    }
  } finally {
    await lock?.release();
    await directory.close();
  }
}

async function changeState(state: StateStore, cmd: AdminCommand, now: () => number): Promise<unknown> {
  const deps = { state, now };
  switch (cmd.name) {
    case 'account-create': {
      const problem = emailProblem(cmd.email);
      if (problem !== undefined) throw new ServiceError('BAD_REQUEST', problem);
      return createAccount(deps, { email: cmd.email, name: cmd.displayName ?? null, roles: cmd.roles }, 'master');
    }
    case 'account-password': {
      const password = await readSecretLine(`password for ${cmd.email}: `);
      return setPassword(deps, cmd.email, password, 'master');
    }
    case 'key-create':
      return createPersonalKey(deps, cmd.email, expiry(cmd.expiresAt, now), 'master');
    case 'service-account-create':
      return createServiceAccount(deps, {
        name: cmd.serviceName,
        expiresAt: expiry(cmd.expiresAt, now),
        createdBy: 'cli',
      });
    default:
      throw new Error(`not a state command: ${cmd.name}`);
  }
}

function expiry(text: string | undefined, now: () => number): number | null {
  if (text === undefined) return null;
  const ms = parseTimestamp(text);
  if (ms === undefined) throw new ServiceError('BAD_REQUEST', `--expires-at ${text} is not an ISO 8601 instant`);
  if (ms <= now()) throw new ServiceError('BAD_REQUEST', `--expires-at ${text} is not in the future`);
  return ms;
}
