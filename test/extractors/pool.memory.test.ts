/**
 * Memory bounds of the extraction pool: the pool's inflation budget is split between its
 * workers and caps what one document may decompress there (an archive within every
 * per-entry ratio cap is refused once its worker's share is used up, and passes with a
 * larger budget); a worker that runs out of heap fails only the document it runs, while
 * the other worker's document and the queued ones complete; a job can name a file that
 * the worker reads itself.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ExtractionError, ExtractionPool, extract, resolveLimits } from '../../extractors/index.ts';
import { writeZip } from './fixtures/zip-writer.ts';

const hangWorker = new URL('./helpers/hang-worker.ts', import.meta.url);
const isCode = (code: string) => (err: unknown) => err instanceof ExtractionError && err.code === code;
const MB = 1024 * 1024;

/** An archive of 6 text members of 512 KiB each (3 MiB inflated), each compressing ~100:1 (under the ratio cap). */
function archive(): Uint8Array {
  const member = 'walrus tusk '.repeat((512 * 1024) / 12);
  return writeZip(Array.from({ length: 6 }, (_, i) => ({ name: `notes-${i}.txt`, data: member })));
}

describe('extraction pool memory bounds', () => {
  it("a document is refused once it has decompressed its worker's share of the inflation budget", async () => {
    const tight = new ExtractionPool({ size: 2, inflateBudgetBytes: 4 * MB });
    const roomy = new ExtractionPool({ size: 2, inflateBudgetBytes: 16 * MB });
    try {
      assert.equal(tight.inflateShare, 2 * MB);
      const job = { bytes: archive(), mediaType: 'application/zip', params: {}, limits: resolveLimits() };
      await assert.rejects(tight.run(job), (err) => {
        assert.ok(isCode('ZIP_BOMB')(err), String(err));
        assert.match((err as Error).message, new RegExp(`exceed ${2 * MB} bytes`));
        return true;
      });
      const ok = await roomy.run(job);
      assert.match(ok.text, /walrus tusk/);
    } finally {
      await tight.close();
      await roomy.close();
    }
  });

  it('a worker over its heap limit fails its own document only; the others complete', async () => {
    const pool = new ExtractionPool({ size: 2, workerUrl: hangWorker, maxHeapMb: 64 });
    try {
      const job = (mediaType: string, text: string) =>
        pool.run({ bytes: new TextEncoder().encode(text), mediaType, params: {}, limits: resolveLimits() });
      const hog = job('application/x-test-oom', '');
      const beside = job('text/plain', 'beside the hog');
      const queued = [job('text/plain', 'queued one'), job('text/plain', 'queued two')];
      await assert.rejects(hog, isCode('TOO_LARGE'));
      assert.equal((await beside).text.trim(), 'beside the hog');
      assert.deepEqual(
        (await Promise.all(queued)).map((x) => x.text.trim()),
        ['queued one', 'queued two'],
      );
      assert.equal(pool.replacements, 1);
    } finally {
      await pool.close();
    }
  });

  it('a job naming a file is read by the worker; a missing file is CORRUPT', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pool-file-'));
    const pool = new ExtractionPool({ size: 1 });
    try {
      const path = join(dir, 'doc.bin');
      await writeFile(path, 'narwhal horns in a file');
      const got = await extract({ path, size: 23 }, { mediaType: 'text/plain', pool });
      assert.equal(got.text.trim(), 'narwhal horns in a file');
      await assert.rejects(
        extract({ path: join(dir, 'gone.bin'), size: 10 }, { mediaType: 'text/plain', pool }),
        isCode('CORRUPT'),
      );
      await assert.rejects(
        extract({ path, size: 200 }, { mediaType: 'text/plain', pool, limits: { maxInputBytes: 100 } }),
        isCode('TOO_LARGE'),
      );
    } finally {
      await pool.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
