/**
 * Worker pool: extraction through real worker threads started from TypeScript via tsx,
 * wall-time limit enforced by terminating and replacing a stalled worker, crash replacement,
 * bounded queue, abort.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { ExtractionError, ExtractionPool, closeSharedPool, extract } from '../../extractors/index.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const hangWorker = new URL('./helpers/hang-worker.ts', import.meta.url);
const isCode = (code: string) => (err: unknown) => err instanceof ExtractionError && err.code === code;

describe('extraction pool', () => {
  after(() => closeSharedPool());

  it('extract() runs in the shared worker pool and returns the extraction', async () => {
    const e = await extract(fixture('sample.pdf'), { mediaType: 'application/pdf' });
    assert.equal(e.pageCount, 2);
    assert.match(e.text, /Zebrafish migration study/);
  });

  it('extract() rejects typed errors from the worker', async () => {
    await assert.rejects(extract(fixture('bomb-ratio.zip'), { mediaType: 'application/zip' }), isCode('ZIP_BOMB'));
    await assert.rejects(
      extract(new Uint8Array(10), { mediaType: 'text/plain', limits: { maxInputBytes: 5 } }),
      isCode('TOO_LARGE'),
    );
  });

  it('damaged documents through the pool give a typed error or a result, and the pool keeps serving', async () => {
    for (const [name, type] of [
      ['sample.pdf', 'application/pdf'],
      ['sample.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['sample.eml', 'message/rfc822'],
    ]) {
      const data = fixture(name);
      const outcome = await extract(data.slice(0, Math.floor(data.length / 2)), { mediaType: type }).catch(
        (err: unknown) => err,
      );
      assert.ok(
        outcome instanceof ExtractionError || typeof (outcome as { text?: unknown }).text === 'string',
        `${name}: ${String(outcome)}`,
      );
    }
    assert.match((await extract(fixture('sample.txt'), { mediaType: 'text/plain' })).text, /walruses/);
  });

  it('terminates a stalled worker at the wall-time limit, replaces it, and keeps serving', async () => {
    const pool = new ExtractionPool({ size: 1, workerUrl: hangWorker });
    try {
      await assert.rejects(
        pool.run({
          bytes: new Uint8Array(1),
          mediaType: 'application/x-test-hang',
          params: {},
          limits: { ...limitsWith(500) },
        }),
        isCode('TIMEOUT'),
      );
      assert.equal(pool.replacements, 1);
      const ok = await pool.run({
        bytes: fixture('sample.txt'),
        mediaType: 'text/plain',
        params: {},
        limits: limitsWith(20_000),
      });
      assert.match(ok.text, /walruses/);
    } finally {
      await pool.close();
    }
  });

  it('fails the job of a crashed worker and replaces the worker', async () => {
    const pool = new ExtractionPool({ size: 1, workerUrl: hangWorker });
    try {
      await assert.rejects(
        pool.run({
          bytes: new Uint8Array(1),
          mediaType: 'application/x-test-crash',
          params: {},
          limits: limitsWith(20_000),
        }),
        isCode('CORRUPT'),
      );
      const ok = await pool.run({
        bytes: fixture('sample.md'),
        mediaType: 'text/markdown',
        params: {},
        limits: limitsWith(20_000),
      });
      assert.equal(ok.title, 'Sourdough Notes');
      assert.equal(pool.replacements, 1);
    } finally {
      await pool.close();
    }
  });

  it('a worker running out of heap fails its job with TOO_LARGE and is replaced', async () => {
    const pool = new ExtractionPool({ size: 1, workerUrl: hangWorker, maxHeapMb: 64 });
    try {
      await assert.rejects(
        pool.run({
          bytes: new Uint8Array(1),
          mediaType: 'application/x-test-oom',
          params: {},
          limits: limitsWith(60_000),
        }),
        isCode('TOO_LARGE'),
      );
      assert.equal(pool.replacements, 1);
      const ok = await pool.run({
        bytes: fixture('sample.txt'),
        mediaType: 'text/plain',
        params: {},
        limits: limitsWith(20_000),
      });
      assert.match(ok.text, /walruses/);
    } finally {
      await pool.close();
    }
  });

  it('runs waiting interactive jobs before waiting indexing jobs, each lane in arrival order', async () => {
    const pool = new ExtractionPool({ size: 1, workerUrl: hangWorker });
    try {
      const busy = new AbortController();
      const hang = pool.run({
        bytes: new Uint8Array(1),
        mediaType: 'application/x-test-hang',
        params: {},
        limits: limitsWith(60_000),
        signal: busy.signal,
      });
      const order: string[] = [];
      const job = (name: string, interactive: boolean) =>
        pool
          .run({
            bytes: new TextEncoder().encode(name),
            mediaType: 'text/plain',
            params: {},
            limits: limitsWith(20_000),
            interactive,
          })
          .then((x) => order.push(x.text.trim()));
      const all = [job('bulk1', false), job('page1', true), job('bulk2', false), job('page2', true)];
      assert.equal(pool.queued, 4);
      busy.abort(); // frees the only worker: the queue drains one job at a time
      await assert.rejects(hang, isCode('ABORTED'));
      await Promise.all(all);
      assert.deepEqual(order, ['page1', 'page2', 'bulk1', 'bulk2']);
    } finally {
      await pool.close();
    }
  });

  it('rejects with OVERLOADED when the queue is full', async () => {
    const pool = new ExtractionPool({ size: 1, maxQueue: 1, workerUrl: hangWorker });
    try {
      const hang = pool.run({
        bytes: new Uint8Array(1),
        mediaType: 'application/x-test-hang',
        params: {},
        limits: limitsWith(1_000),
      });
      const queued = pool.run({
        bytes: fixture('sample.txt'),
        mediaType: 'text/plain',
        params: {},
        limits: limitsWith(20_000),
      });
      await assert.rejects(
        pool.run({ bytes: fixture('sample.txt'), mediaType: 'text/plain', params: {}, limits: limitsWith(20_000) }),
        isCode('OVERLOADED'),
      );
      await assert.rejects(hang, isCode('TIMEOUT'));
      assert.match((await queued).text, /walruses/);
    } finally {
      await pool.close();
    }
  });

  it('aborting a running job terminates its worker', async () => {
    const pool = new ExtractionPool({ size: 1, workerUrl: hangWorker });
    try {
      const ac = new AbortController();
      const job = pool.run({
        bytes: new Uint8Array(1),
        mediaType: 'application/x-test-hang',
        params: {},
        limits: limitsWith(60_000),
        signal: ac.signal,
      });
      setTimeout(() => ac.abort(), 200);
      await assert.rejects(job, isCode('ABORTED'));
      assert.equal(pool.replacements, 1);
    } finally {
      await pool.close();
    }
  });
});

function limitsWith(timeoutMs: number) {
  return {
    maxInputBytes: 1 << 20,
    maxDecompressedBytes: 1 << 24,
    maxCompressionRatio: 200,
    maxEntries: 100,
    maxDepth: 2,
    maxOutputChars: 1 << 20,
    timeoutMs,
  };
}
