/**
 * Files connector memory over a large tree: BENCH_FILES tiny files (default 100,000 in 1,000
 * folders) crawled by the real server; the server's RSS is sampled every second and reported at
 * each tenth of the run's progress, with the peak; then the second run (all unchanged). The index
 * itself grows with every document (segments in memory, document statuses), so the same files
 * are also pushed by a client through POST /api/indexing/documents into a fresh server (bulks of
 * 200 `binary_base64` documents, as the connector's pages): the difference between the two is what
 * the connector holds. Its own memory is one folder listing and one page of documents at a time,
 * plus the item state while a run lasts (about 100 bytes per file).
 *
 *   node --import tsx bench/connectors/memory.ts         (from the repository root)
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineLine } from '../lib/machine.ts';
import { runSeconds, startServer, type BenchServer } from './server.ts';

const FILES = Number(process.env.BENCH_FILES ?? 100_000);

async function sampledRun(server: BenchServer, id: string): Promise<{ view: any; byTenth: number[]; peak: number }> {
  const byTenth: number[] = [];
  let peak = 0;
  const view = await server.run(
    id,
    (status) => {
      void server.rssMb().then((rss) => {
        peak = Math.max(peak, rss);
        const p = status.current_run?.progress;
        if (!p || p.total === 0) return;
        const tenth = Math.floor((10 * p.done) / p.total);
        byTenth[tenth] ??= Math.round(rss);
      });
    },
    1000,
  );
  return { view, byTenth, peak };
}

async function main() {
  const root = await mkdtemp(join(process.env.BENCH_TMP ?? tmpdir(), 'bench-memory-'));
  for (let d = 0; d < 1000; d++) await mkdir(join(root, `f${d}`));
  for (let i = 0; i < FILES; i++)
    await writeFile(join(root, `f${i % 1000}`, `n${i}.txt`), `note ${i} about item ${i % 997}\n`);
  const server = await startServer();
  try {
    const c = await server.admin('POST', '/connectors', {
      name: 'Bench memory',
      type: 'fileshares',
      datasource: 'bench_memory',
      interval_minutes: null,
      settings: { root },
    });
    const rss0 = await server.rssMb();
    const first = await sampledRun(server, c.id);
    const second = await sampledRun(server, c.id);
    console.log(`server RSS before the runs: ${rss0.toFixed(0)} MB`);
    for (const [name, r] of [
      ['first (all new)', first],
      ['second (unchanged)', second],
    ] as const) {
      console.log(
        `| ${name} | ${runSeconds(r.view).toFixed(1)} s | RSS MB at 0%..90% of progress: ${r.byTenth.map((x) => x ?? '–').join(', ')} | peak ${r.peak.toFixed(0)} MB |`,
      );
    }
  } finally {
    await server.close();
  }
  const pushed = await pushedRun(root);
  console.log(
    `| the same files pushed by a client | ${pushed.seconds.toFixed(1)} s | RSS MB at 0%..90%: ${pushed.byTenth.join(', ')} | peak ${pushed.peak.toFixed(0)} MB |`,
  );
  console.log(machineLine());
  await rm(root, { recursive: true, force: true });
}

/** The files of `root` pushed through the Indexing API in bulks of 200, RSS sampled at each tenth. */
async function pushedRun(root: string): Promise<{ seconds: number; byTenth: number[]; peak: number }> {
  const server = await startServer();
  try {
    const sa = await server.admin('POST', '/service-accounts', { name: 'bench' });
    const api = async (path: string, body: unknown) => {
      const res = await fetch(`${server.base}/api/indexing${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sa.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    await api('/datasources', { name: 'bench_pushed', display_name: 'Pushed' });
    const byTenth: number[] = [];
    let peak = 0;
    const started = Date.now();
    let page: unknown[] = [];
    let seq = 0;
    for (let i = 0; i < FILES; i++) {
      const rel = `f${i % 1000}/n${i}.txt`;
      const bytes = await readFile(join(root, rel));
      page.push({
        datasource: 'bench_pushed',
        id: `d${i}`,
        title: `n${i}.txt`,
        file_type: 'file',
        path: rel,
        last_modified: '2026-01-01T00:00:00Z',
        body: { mime_type: 'text/plain', binary_base64: bytes.toString('base64') },
      });
      if (page.length === 200 || i === FILES - 1) {
        const last = i === FILES - 1;
        await api(`/documents${last ? '?wait=true&wait_timeout_ms=120000' : ''}`, { documents: page });
        page = [];
        const rss = await server.rssMb();
        peak = Math.max(peak, rss);
        const tenth = Math.floor((10 * i) / FILES);
        if (++seq && byTenth[tenth] === undefined) byTenth[tenth] = Math.round(rss);
      }
    }
    return { seconds: (Date.now() - started) / 1000, byTenth, peak };
  } finally {
    await server.close();
  }
}

await main();
