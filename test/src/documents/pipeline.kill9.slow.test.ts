/**
 * Kill -9 of a process that is pushing documents, at random moments, many
 * times: after each restart every acknowledged document is indexed in its last
 * acknowledged version, and each document is in the index exactly once. Some
 * bulks carry binaries stored in blob files: those are indexed from their files,
 * and once everything is committed no blob file is left.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsDirectory } from '../../../engine/index.ts';
import { openTestState } from '../../support/app.ts';
import { docsHarness } from '../../support/documents.ts';

const CHILD = new URL('./helpers/push-child.ts', import.meta.url).pathname;

function runChild(dataDir: string, round: number, killAfterMs: number): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const acked = new Map<string, string>();
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, DATA_DIR: dataDir, ROUND: String(round) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buf = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buf += chunk.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line === 'READY') setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        const m = /^ACK (\S+) (\S+)$/.exec(line);
        if (m) acked.set(m[1], m[2]);
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`child exited with ${code}: ${stderr}`));
    });
  });
}

test('acknowledged documents survive kill -9 at random points, once each', { timeout: 240_000 }, async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'docs-kill9-'));
  const expected = new Map<string, string>();
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  try {
    const rounds = 8;
    for (let round = 1; round <= rounds; round++) {
      const acked = await runChild(dataDir, round, 150 + Math.floor(random() * 900));
      for (const [id, lm] of acked) expected.set(id, lm);
    }
    assert.ok(expected.size > 0, 'the child acknowledged documents');
    // Restart in-process on the same files: replay, commit, verify.
    const state = await openTestState(dataDir);
    const h = await docsHarness({ dir: dataDir, state, directory: await FsDirectory.open(join(dataDir, 'index')) });
    try {
      await h.commit();
      const searcher = h.index.reader.searcher();
      for (const [id, lm] of expected) {
        const got = searcher.get(`wiki:${id}`);
        assert.ok(got, `acknowledged document ${id} is indexed`);
        // A later write may have become durable without its ACK reaching us; never an older one.
        assert.ok(
          String(got.stored.last_modified) >= lm,
          `${id}: indexed ${got.stored.last_modified}, acknowledged ${lm}`,
        );
      }
      const all = searcher.search({ query: 'round', limit: 1000, language: 'en' });
      const keys = all.hits.map((x) => x.key);
      assert.equal(new Set(keys).size, keys.length, 'no document twice');
      assert.equal(searcher.numDocs, keys.length);
      assert.ok(
        // A binary holds its text six times (push-child.ts): 100 bytes and more.
        [...expected.keys()].some((id) => Number(searcher.get(`wiki:${id}`)?.stored.file_size) > 60),
        'some acknowledged documents were pushed as stored binaries',
      );
      // Removal after the commit is asynchronous: give it a moment.
      for (let i = 0; i < 50 && (await readdir(join(dataDir, 'documents', 'blobs'))).length > 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(await readdir(join(dataDir, 'documents', 'blobs')), [], 'no blob file left after the commit');
    } finally {
      await h.close(false);
      await state.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
