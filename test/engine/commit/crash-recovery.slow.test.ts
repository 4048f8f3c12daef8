/**
 * kill -9 at random moments: a child process (helpers/crash-child.ts) adds documents and
 * commits in a loop on a file-system index, reporting each completed commit; the parent
 * SIGKILLs it at a random point (while flushing, merging, writing deletion files or the
 * commit record), reopens the index and checks that every reported commit is there, that
 * the index is exactly some commit (a prefix of the key sequence, never a partial commit),
 * and that no unreferenced file survives the reopen. Repeated on the same directory.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndex, FsDirectory } from '../../../engine/index.ts';

const ITERATIONS = 25;
const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, '..', 'helpers', 'crash-child.ts');
const root = join(here, '..', '..', '..');

function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

/** Runs the child until killed; resolves with the highest reported committed key number (or -1). */
function runChild(dir: string, start: number, killAfterMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child, dir, String(start)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let last = -1;
    let buf = '';
    let stderr = '';
    let timer: NodeJS.Timeout | null = null;
    p.stdout.on('data', (chunk: Buffer) => {
      buf += chunk.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line === 'READY' && !timer) timer = setTimeout(() => p.kill('SIGKILL'), killAfterMs);
        else if (line.startsWith('C ')) last = Number(line.slice(2));
      }
    });
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal === 'SIGKILL') resolve(last);
      else reject(new Error(`child exited (${code}) before the kill: ${stderr}`));
    });
  });
}

const expectedLive = (i: number) => i % 10 !== 3;

describe('kill -9 recovery', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it(`reopens at the last complete commit after ${ITERATIONS} random kills`, async () => {
    const path = await mkdtemp(join(tmpdir(), 'engine-crash-'));
    dirs.push(path);
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000_007); // CRASH_SEED reproduces a run's kill delays
    const r = rng(seed);
    let committedUpTo = -1;
    const acknowledged: [number, number][] = []; // key ranges found committed after each kill
    let kills = 0;
    for (let iter = 0; iter < ITERATIONS; iter++) {
      const start = committedUpTo + 1000; // fresh keys for each run
      const reported = await runChild(path, start, Math.floor(r() * 500));
      kills++;
      const index = await openIndex({
        directory: await FsDirectory.open(path),
        schema: { textFields: { body: {} }, keywordFields: ['batch'], numericFields: [] },
        merge: false,
      });
      try {
        const present = new Map<number, { v: number }>();
        for (const seg of index.reader.segments()) {
          for (let d = 0; d < seg.maxDoc; d++) {
            if (seg.isDeleted(d)) continue;
            const key = seg.key(d);
            const n = Number(key.slice(1));
            assert.ok(!present.has(n), `duplicate live key ${key}`);
            const stored = seg.stored(d) as { i: number; v: number };
            assert.equal(stored.i, n);
            present.set(n, stored);
          }
        }
        // this run's keys: an exact prefix [start, M] (minus deletes) for some M >= reported
        const mine = [...present.keys()].filter((n) => n >= start).sort((a, b) => a - b);
        const maxSeen = mine.length ? mine[mine.length - 1] : start - 1;
        const upper = Math.max(maxSeen, reported);
        for (let n = start; n <= upper; n++) {
          if (n <= maxSeen || n <= reported) {
            assert.equal(
              present.has(n),
              expectedLive(n),
              `key c${n} (reported ${reported}, max ${maxSeen}, iter ${iter}, seed ${seed})`,
            );
          }
        }
        // updates are atomic with their batch: c(n-1) is updated when c(n) with n % 10 == 6 is committed
        for (const n of mine)
          if (n % 10 === 5 && present.has(n + 1)) assert.equal(present.get(n)!.v, 2, `update of c${n}`);
        // earlier runs' acknowledged keys are all still there
        for (const [from, to] of acknowledged) {
          for (let n = from; n <= to; n++)
            assert.equal(present.has(n), expectedLive(n), `earlier key c${n} (seed ${seed})`);
        }
        acknowledged.push([start, maxSeen]);
        if (process.env.CRASH_DEBUG)
          console.error(
            `iter ${iter}: reported ${reported - start}, found ${maxSeen - start}, segments ${index.reader.segments().length}`,
          );
        assert.equal(index.reader.info.docCount, present.size);
        assert.equal(index.reader.searcher().numDocs, present.size);
        const files = await readdir(path);
        const segIds = new Set(index.reader.segments().map((s) => `${s.id}.seg`));
        for (const f of files.filter((f) => f.endsWith('.seg')))
          assert.ok(segIds.has(f), `unreferenced ${f} left after reopen`);
        committedUpTo = Math.max(committedUpTo, maxSeen, reported);
      } finally {
        await index.close();
      }
    }
    assert.ok(
      acknowledged.some(([from, to]) => to >= from),
      'some commits completed before the kills',
    );
    assert.equal(kills, ITERATIONS);
  });
});
