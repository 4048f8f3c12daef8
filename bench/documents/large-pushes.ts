/**
 * Large pushes: N concurrent pushes of one document with a large `binary_base64`
 * each (default three of 100,000,000 decoded bytes) into the real server, while a
 * client searches at a fixed rate. Reports the server's peak RSS (sampled every
 * 50 ms from /proc) against its RSS before, when each push was answered and when
 * all were indexed, and the searches' p50/p99/max over the same span.
 *
 *   node --import tsx bench/documents/large-pushes.ts [--pushes 3] [--bytes 100000000]
 *     [--mime application/octet-stream] [--base-docs 13000] [--search-rate 10] [--root DIR]
 *
 * The bodies are streamed from one random buffer (the client never holds a whole body);
 * `--mime text/plain` sends text instead of random bytes (the extractor then decodes it).
 * `--root DIR` starts the server of another checkout (an A/B against an older version).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MASTER, percentile, rssMB, startService } from '../lib/service.ts';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : def;
};
const PUSHES = Number(arg('pushes', '3'));
const BYTES = Number(arg('bytes', '100000000'));
const MIME = arg('mime', 'application/octet-stream');
const BASE_DOCS = Number(arg('base-docs', '13000'));
const SEARCH_RATE = Number(arg('search-rate', '10'));
const ROOT = arg('root', '');
const USER = 'reader@example.com';
const WORDS = 'travel policy expense report budget contract customer invoice project meeting agenda review'.split(' ');

/** The decoded binary: random bytes, or text of words (--mime text/...). */
function payload(): Buffer {
  if (!MIME.startsWith('text/')) return randomBytes(BYTES);
  const out = Buffer.alloc(BYTES);
  let at = 0;
  for (let i = 0; at < BYTES; i++) at += out.write(`${WORDS[i % WORDS.length]} `, at);
  return out;
}

/** POSTs one document whose binary is `binary`, streaming the Base64 in 3 MB slices; resolves with the status. */
function pushStreaming(base: string, key: string, id: string, binary: Buffer): Promise<number> {
  const head = Buffer.from(
    `{"documents": {"datasource": "big", "id": "${id}", "title": "${id}.bin", "file_type": "file", "body": {"mime_type": "${MIME}", "binary_base64": "`,
  );
  const tail = Buffer.from('"}}}');
  const slice = 3 * 1024 * 1024; // a multiple of 3: each slice encodes to whole Base64 groups
  const length = head.length + Math.ceil(binary.length / 3) * 4 + tail.length;
  const url = new URL('/api/indexing/documents', base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: url.pathname,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    let at = 0;
    const pump = () => {
      if (at === 0) req.write(head);
      while (at < binary.length) {
        const piece = binary.subarray(at, at + slice).toString('base64');
        at += slice;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'large-pushes-'));
  const svc = await startService(dataDir, { COMMIT_INTERVAL_MS: '1000' }, [], ROOT || undefined);
  try {
    const sa = (await svc.call('POST', '/api/admin/service-accounts', MASTER, { name: 'bench' })).key;
    for (const ds of ['big', 'base']) {
      await svc.call('POST', '/api/indexing/datasources', sa, { name: ds, display_name: ds });
    }
    await svc.call('POST', '/api/admin/accounts', MASTER, { email: USER });
    const pk = (await svc.call('POST', `/api/admin/accounts/${USER}/keys`, MASTER, {})).key;
    await svc.call('POST', '/api/indexing/users', sa, { datasource: 'base', user: { email: USER } });
    for (let i = 0; i < BASE_DOCS; i += 500) {
      const docs = [];
      for (let j = i; j < Math.min(BASE_DOCS, i + 500); j++)
        docs.push({
          datasource: 'base',
          id: `d${j}`,
          title: `${WORDS[j % WORDS.length]} ${WORDS[(j * 7) % WORDS.length]}`,
          file_type: 'wiki',
          body: {
            mime_type: 'text/plain',
            text_content: Array.from({ length: 150 }, (_, k) => WORDS[(j + k * k) % WORDS.length]).join(' '),
          },
        });
      await svc.call('POST', '/api/indexing/documents?wait=true', sa, { documents: docs });
    }
    const binary = payload();
    await new Promise((r) => setTimeout(r, 3000));
    const before = rssMB(svc.child.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMB(svc.child.pid))), 50);

    let searchErrors = 0;
    let searching = true;
    /** Searches at SEARCH_RATE per second into `into` while `searching` (and until `until`, if given). */
    const searchLoop = async (into: number[], until = Infinity) => {
      for (let i = 0; searching && performance.now() < until; i++) {
        const t0 = performance.now();
        const res = await fetch(`${svc.base}/api/beta/search?count=10&query=${WORDS[i % WORDS.length]}`, {
          headers: { authorization: `Bearer ${pk}` },
        });
        await res.arrayBuffer();
        if (!res.ok) searchErrors++;
        const ms = performance.now() - t0;
        into.push(ms);
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 / SEARCH_RATE - ms)));
      }
    };
    // The same searches without pushes first: the machine's own latency, for comparison.
    const idleMs: number[] = [];
    await searchLoop(idleMs, performance.now() + 10_000);
    const searchMs: number[] = [];
    const searches = searchLoop(searchMs);

    const t0 = performance.now();
    const answered: string[] = [];
    const statuses = await Promise.all(
      Array.from({ length: PUSHES }, (_, i) =>
        pushStreaming(svc.base, sa, `big-${i}`, binary).then((status) => {
          answered.push(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
          return status;
        }),
      ),
    );
    const ackedS = (performance.now() - t0) / 1000;
    // Indexed: every document's status reports a commit (or a failure).
    for (;;) {
      const st = await Promise.all(
        Array.from({ length: PUSHES }, (_, i) => svc.call('GET', `/api/indexing/documents/big/big-${i}`, sa)),
      );
      if (st.every((s) => s.committed_at || s.state === 'failed')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const indexedS = (performance.now() - t0) / 1000;
    searching = false;
    await searches;
    clearInterval(sampler);
    const f = (x: number) => x.toFixed(1);
    console.log(
      `${PUSHES} concurrent pushes of ${BYTES.toLocaleString()} bytes (${MIME}) into ${ROOT || 'this checkout'}; ${BASE_DOCS} base documents`,
    );
    console.log(
      `push statuses ${statuses.join(', ')}; answered at ${answered.join(', ')}; all indexed at ${f(indexedS)} s`,
    );
    console.log(`server RSS before ${f(before)} MB, peak ${f(peak)} MB (+${f(peak - before)} MB)`);
    const line = (xs: number[]) =>
      `${xs.length}, p50 ${f(percentile(xs, 50))} ms, p99 ${f(percentile(xs, 99))} ms, max ${f(Math.max(...xs))} ms`;
    console.log(`searches for 10 s before the pushes (${SEARCH_RATE}/s): ${line(idleMs)}`);
    console.log(`searches during the pushes (until indexed): ${line(searchMs)}; errors ${searchErrors}`);
    console.log(
      `pushes answered after ${f(ackedS)} s; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await svc.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
