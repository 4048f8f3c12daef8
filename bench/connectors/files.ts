/**
 * Files connector throughput, end to end: BENCH_FILES small text files (default 5,000 of about
 * 1 KB in 50 folders) crawled by the real server: walk, read, push, extraction in the worker
 * pool, indexing, commit (a run ends when its last documents are committed). Then a second run
 * over the unchanged tree (nothing read or extracted). Target: at least 500 files/s on 2 cores.
 *
 *   node --import tsx bench/connectors/files.ts          (from the repository root)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineLine } from '../lib/machine.ts';
import { runSeconds, startServer } from './server.ts';

const FILES = Number(process.env.BENCH_FILES ?? 5000);
const WORDS =
  'travel policy expense report budget contract customer invoice project meeting agenda review security'.split(' ');

async function main() {
  const root = await mkdtemp(join(process.env.BENCH_TMP ?? tmpdir(), 'bench-files-'));
  for (let d = 0; d < 50; d++) await mkdir(join(root, `folder${d}`));
  for (let i = 0; i < FILES; i++) {
    const words = Array.from({ length: 150 }, (_, k) => WORDS[(i * 7 + k * 13) % WORDS.length]).join(' ');
    await writeFile(join(root, `folder${i % 50}`, `note-${i}.txt`), `Note ${i}\n${words}\n`);
  }
  const server = await startServer();
  try {
    const c = await server.admin('POST', '/connectors', {
      name: 'Bench files',
      type: 'fileshares',
      datasource: 'bench_files',
      interval_minutes: null,
      settings: { root },
    });
    const cpu0 = await server.cpuMs();
    const first = await server.run(c.id);
    const cpu1 = await server.cpuMs();
    const second = await server.run(c.id);
    const t1 = runSeconds(first);
    const t2 = runSeconds(second);
    console.log(`| Run | Files | Seconds | Files/s | Server CPU ms per file |`);
    console.log(`|---|--:|--:|--:|--:|`);
    console.log(
      `| first (all new) | ${first.counts.sent} sent | ${t1.toFixed(2)} | ${Math.round(FILES / t1)} | ${((cpu1 - cpu0) / FILES).toFixed(2)} |`,
    );
    console.log(
      `| second (unchanged) | ${second.counts.unchanged} unchanged | ${t2.toFixed(2)} | ${Math.round(FILES / t2)} | |`,
    );
    console.log(machineLine());
    if (first.counts.sent !== FILES || second.counts.unchanged !== FILES)
      throw new Error(`unexpected counts ${JSON.stringify([first.counts, second.counts])}`);
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
