/** Configuration parsing: defaults, overrides, and readable failures that never echo secrets. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('defaults match the documented values', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.dataDir, './data');
  assert.equal(c.adminKey, undefined);
  assert.equal(c.commitIntervalMs, 1000);
  assert.equal(c.maxBinaryBytes, 100_000_000);
  assert.equal(c.logLevel, 'info');
  assert.ok(c.maxRequestBytes > (c.maxBinaryBytes * 4) / 3, 'a maximal Base64 binary fits in a request');
});

test('variables override defaults', () => {
  const c = loadConfig({
    PORT: '9000',
    HOST: '0.0.0.0',
    DATA_DIR: '/tmp/x',
    COMMIT_INTERVAL_MS: '250',
    INDEXING_API_MAX_BINARY_BYTES: '1000',
    LOG_LEVEL: 'DEBUG',
  });
  assert.equal(c.port, 9000);
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.dataDir, '/tmp/x');
  assert.equal(c.commitIntervalMs, 250);
  assert.equal(c.maxBinaryBytes, 1000);
  assert.equal(c.logLevel, 'debug');
});

test('idle compaction: 30 s of quiet by default, 0 turns it off, negative values are refused', () => {
  assert.equal(loadConfig({}).mergeIdleMs, 30_000);
  assert.equal(loadConfig({ MERGE_IDLE_MS: '0' }).mergeIdleMs, 0);
  assert.throws(
    () => loadConfig({ MERGE_IDLE_MS: '-1' }),
    (err: unknown) => err instanceof ConfigError && /MERGE_IDLE_MS/.test(err.message),
  );
});

test('empty strings count as unset', () => {
  assert.equal(loadConfig({ PORT: '' }).port, 8080);
});

test('bad values fail fast with one readable line per variable', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', COMMIT_INTERVAL_MS: '-5' }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /PORT: PORT must be a whole number \(got "eighty"\)/);
      assert.match(err.message, /LOG_LEVEL: LOG_LEVEL must be one of/);
      assert.match(err.message, /COMMIT_INTERVAL_MS/);
      return true;
    },
  );
});

test('a bad ADMIN_KEY is reported without its value', () => {
  assert.throws(
    () => loadConfig({ ADMIN_KEY: 'short-secret' }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /ADMIN_KEY/);
      assert.doesNotMatch(err.message, /short-secret/);
      return true;
    },
  );
});

test('PORT out of range is rejected', () => {
  assert.throws(() => loadConfig({ PORT: '70000' }), /PORT must be at most 65535/);
});

test('memory bounds: documented defaults, overrides, and refused values', () => {
  const c = loadConfig({});
  assert.equal(c.requestBodyBudgetBytes, 256 * 1024 * 1024);
  assert.equal(c.requestBodyWaitMs, 10_000);
  assert.equal(c.httpMaxHeaderBytes, 81_920);
  assert.deepEqual(c.extraction, { workerHeapMb: 1024, inflateBudgetBytes: 512 * 1024 * 1024 });
  const o = loadConfig({
    REQUEST_BODY_BUDGET_BYTES: '1000000',
    REQUEST_BODY_WAIT_MS: '0',
    HTTP_MAX_HEADER_BYTES: '16384',
    EXTRACT_WORKER_HEAP_MB: '256',
    EXTRACT_INFLATE_BUDGET_BYTES: '2000000',
  });
  assert.equal(o.requestBodyBudgetBytes, 1_000_000);
  assert.equal(o.requestBodyWaitMs, 0);
  assert.equal(o.httpMaxHeaderBytes, 16_384);
  assert.deepEqual(o.extraction, { workerHeapMb: 256, inflateBudgetBytes: 2_000_000 });
  for (const [name, value] of [
    ['REQUEST_BODY_BUDGET_BYTES', '10'],
    ['HTTP_MAX_HEADER_BYTES', '100'],
    ['EXTRACT_WORKER_HEAP_MB', '8'],
  ])
    assert.throws(
      () => loadConfig({ [name]: value }),
      (err: unknown) => err instanceof ConfigError && err.message.includes(`${name}: ${name} must be at least`),
    );
});

test('search budgets and scheduling: documented defaults, overrides, readable refusals', () => {
  const d = loadConfig({}).search;
  assert.deepEqual(d.limits, {
    maxClauses: 1024,
    maxTerms: 2048,
    maxPlannedWork: 400_000,
    maxWork: 100_000,
    timeBudgetMs: 1000,
  });
  assert.equal(d.accountConcurrency, undefined, 'unset: the search threads but one (the pool decides)');
  assert.equal(d.cheapWords, 16);
  const c = loadConfig({
    SEARCH_MAX_CLAUSES: '64',
    SEARCH_MAX_TERMS: '100',
    SEARCH_MAX_PLANNED_WORK: '5000',
    SEARCH_MAX_WORK: '2000',
    SEARCH_TIME_BUDGET_MS: '250',
    SEARCH_ACCOUNT_CONCURRENCY: '3',
    SEARCH_CHEAP_WORDS: '8',
  }).search;
  assert.deepEqual(c, {
    limits: { maxClauses: 64, maxTerms: 100, maxPlannedWork: 5000, maxWork: 2000, timeBudgetMs: 250 },
    accountConcurrency: 3,
    cheapWords: 8,
  });
  assert.throws(
    () => loadConfig({ SEARCH_MAX_WORK: '0', SEARCH_ACCOUNT_CONCURRENCY: 'many' }),
    (err: unknown) =>
      err instanceof ConfigError &&
      /SEARCH_MAX_WORK: SEARCH_MAX_WORK must be at least 1/.test(err.message) &&
      /SEARCH_ACCOUNT_CONCURRENCY: SEARCH_ACCOUNT_CONCURRENCY must be a whole number/.test(err.message),
  );
});

test('BACKUP_DIR must lie outside DATA_DIR and not contain it', () => {
  assert.equal(loadConfig({ DATA_DIR: '/srv/data', BACKUP_DIR: '/srv/backups' }).backupDir, '/srv/backups');
  for (const BACKUP_DIR of ['/srv/data/backups', '/srv/data', '/srv', './data/b']) {
    const DATA_DIR = BACKUP_DIR === './data/b' ? './data' : '/srv/data';
    assert.throws(
      () => loadConfig({ DATA_DIR, BACKUP_DIR }),
      (err: unknown) => err instanceof ConfigError && /BACKUP_DIR: must lie outside DATA_DIR/.test(err.message),
      BACKUP_DIR,
    );
  }
});
