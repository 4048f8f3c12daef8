/**
 * How the engine's filtered search scales with threads: opens an index built by
 * `scale.ts` (BENCH_SCALE_DIR=DIR keeps it in DIR/ours) once per worker thread
 * (each thread holds its own copy), warms each up with 300 queries, then runs
 * the scale scenario's 50-token access-filtered top-10 queries in every thread
 * at once for a fixed time. Prints queries/s over all threads and process CPU
 * per query, for 1 thread and for N threads, alternating `rounds` times (the
 * VM's speed drifts, so compare within a round). Measures what search on worker
 * threads could give the HTTP server; the server itself searches on its main thread.
 *
 *   node --import tsx bench/search/threads.ts DIR/ours [threads=2] [seconds=10] [rounds=2]
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { loadavg } from 'node:os';

interface Job {
  dir: string;
  seed: number;
}

async function measure(dir: string, threads: number, seconds: number): Promise<{ qps: number; cpuMs: number }> {
  // Workers load TypeScript through tsx's API (an eval'd CommonJS entry), as --import does for the main thread.
  const entry = `import('tsx/esm/api').then((m) => m.register()).then(() => import(${JSON.stringify(import.meta.url)}))`;
  const workers = Array.from(
    { length: threads },
    (_, seed) => new Worker(entry, { eval: true, workerData: { dir, seed } satisfies Job }),
  );
  try {
    await Promise.all(
      workers.map((w) => new Promise((resolve, reject) => w.once('message', resolve).once('error', reject))),
    );
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const counts = workers.map((w) => new Promise<number>((resolve) => w.once('message', resolve)));
    for (const w of workers) w.postMessage(seconds);
    const done = await Promise.all(counts);
    const elapsed = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const queries = done.reduce((a, b) => a + b, 0);
    return { qps: queries / elapsed, cpuMs: (c.user + c.system) / 1000 / queries };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

async function workerMain(job: Job): Promise<void> {
  const { FsDirectory, openIndex } = await import('../../engine/index.ts');
  const { loadGcide } = await import('../corpora/gcide.ts');
  const { sampleQueries } = await import('../corpora/queries.ts');
  const { userTokenSets } = await import('../corpora/scale.ts');
  const { docs } = loadGcide();
  const queries = sampleQueries(docs, 600, 12 + job.seed);
  docs.length = 0;
  const users = userTokenSets(20);
  const index = await openIndex({
    directory: await FsDirectory.open(job.dir),
    schema: { textFields: { title: { boost: 2 }, body: {} }, keywordFields: ['datasource', 'acl'], numericFields: [] },
    commitIntervalMs: 0,
    merge: false,
  });
  const run = (i: number) =>
    index.reader.searcher().search({
      query: queries[i % queries.length],
      language: 'en',
      limit: 10,
      filter: { keyword: 'acl', anyOf: users[i % users.length] },
    });
  for (let i = 0; i < 300; i++) run(i);
  parentPort!.postMessage('ready');
  parentPort!.once('message', (seconds: number) => {
    const end = performance.now() + seconds * 1000;
    let n = 0;
    while (performance.now() < end) run(300 + n++);
    parentPort!.postMessage(n);
  });
}

if (isMainThread) {
  const [dir, threadsArg, secondsArg, roundsArg] = process.argv.slice(2);
  if (!dir) throw new Error('usage: threads.ts INDEX_DIR [threads=2] [seconds=10] [rounds=2]');
  const threads = Number(threadsArg ?? 2);
  const seconds = Number(secondsArg ?? 10);
  const rounds = Number(roundsArg ?? 2);
  for (let r = 0; r < rounds; r++) {
    const one = await measure(dir, 1, seconds);
    const many = await measure(dir, threads, seconds);
    console.log(
      `round ${r + 1}: 1 thread ${one.qps.toFixed(0)} queries/s (${one.cpuMs.toFixed(2)} ms CPU each); ` +
        `${threads} threads ${many.qps.toFixed(0)} queries/s (${many.cpuMs.toFixed(2)} ms CPU each): ${(many.qps / one.qps).toFixed(2)}x`,
    );
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} else {
  await workerMain(workerData as Job);
}
