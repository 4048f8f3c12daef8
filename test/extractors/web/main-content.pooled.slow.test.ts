/**
 * extractMainContentPooled: a web page's main content is read by a worker of the extraction
 * pool (the real worker gives exactly what the in-thread extraction gives), the calling thread
 * only hands over the bytes, and the pool's wall-time limit and abort apply to it.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  ExtractionError,
  ExtractionPool,
  MAIN_CONTENT_TIMEOUT_MS,
  closeSharedPool,
  configureSharedPool,
  extractMainContentFromBytes,
  extractMainContentPooled,
  type JobRunner,
  type PoolJob,
} from '../../../extractors/index.ts';

const hangWorker = new URL('../helpers/hang-worker.ts', import.meta.url);
const isCode = (code: string) => (err: unknown) => err instanceof ExtractionError && err.code === code;

const PAGE = `<!doctype html><html><head><meta charset="windows-1252"><title>Caf\xe9 &amp; Co</title>
<meta name="description" content="About the caf\xe9"></head><body><nav><a href="/">Home</a></nav>
<main><h1>Menu</h1><p>Cr\xe8me br\xfbl\xe9e and other desserts, written to be long enough for a paragraph.</p></main>
<footer>Footer notice</footer></body></html>`;
const bytes = () => new Uint8Array(Buffer.from(PAGE, 'latin1'));

describe('extractMainContentPooled', () => {
  after(() => closeSharedPool());

  it('reads the page in the shared pool with the same result as the in-thread extraction (charset from <meta>)', async () => {
    configureSharedPool({ size: 1 });
    const pooled = await extractMainContentPooled(bytes(), { maxChars: 60 });
    assert.deepEqual(pooled, extractMainContentFromBytes(bytes(), undefined, 60));
    assert.equal(pooled.title, 'Café & Co');
    assert.equal(pooled.description, 'About the café');
    assert.match(pooled.text, /^Menu\nCrème brûlée/);
    assert.equal(pooled.truncated, true);
  });

  it('hands the bytes, charset and limits to the pool as a main-content job and parses nothing itself', async () => {
    const jobs: PoolJob[] = [];
    const sentinel = { title: 'from the pool', text: 'pool text', truncated: false };
    const spy = {
      run: async (job: PoolJob) => {
        jobs.push(job);
        return sentinel;
      },
    } as unknown as JobRunner;
    const ac = new AbortController();
    const result = await extractMainContentPooled(bytes(), {
      charset: 'iso-8859-1',
      maxChars: 500,
      signal: ac.signal,
      pool: spy,
    });
    assert.equal(result, sentinel);
    assert.equal(jobs.length, 1);
    const [job] = jobs;
    assert.equal(job.kind, 'main-content');
    assert.deepEqual(job.bytes, bytes());
    assert.deepEqual(job.params, { charset: 'iso-8859-1' });
    assert.equal(job.limits.maxOutputChars, 500);
    assert.equal(job.limits.timeoutMs, MAIN_CONTENT_TIMEOUT_MS);
    assert.equal(job.signal, ac.signal);
    await extractMainContentPooled(bytes(), { maxChars: 10, timeoutMs: 1234, pool: spy });
    assert.equal(jobs[1].limits.timeoutMs, 1234);
    assert.deepEqual(jobs[1].params, {});
  });

  it('a page whose parse does not finish fails with TIMEOUT, its worker is replaced and the pool keeps serving', async () => {
    const pool = new ExtractionPool({ size: 1, workerUrl: hangWorker });
    try {
      await assert.rejects(
        extractMainContentPooled(bytes(), { charset: 'x-test-hang', maxChars: 100, timeoutMs: 300, pool }),
        isCode('TIMEOUT'),
      );
      assert.equal(pool.replacements, 1);
      const ok = await extractMainContentPooled(bytes(), { maxChars: 1000, pool });
      assert.equal(ok.title, 'Café & Co');
    } finally {
      await pool.close();
    }
  });

  it('aborting a running page extraction fails it with ABORTED and terminates its worker', async () => {
    const pool = new ExtractionPool({ size: 1, workerUrl: hangWorker });
    try {
      const ac = new AbortController();
      const job = extractMainContentPooled(bytes(), {
        charset: 'x-test-hang',
        maxChars: 100,
        signal: ac.signal,
        timeoutMs: 60_000,
        pool,
      });
      setTimeout(() => ac.abort(), 200);
      await assert.rejects(job, isCode('ABORTED'));
      assert.equal(pool.replacements, 1);
    } finally {
      await pool.close();
    }
  });
});
