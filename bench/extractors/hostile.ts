/**
 * Hostile but legal files through the extraction pool (two workers, default limits): a 30 MB
 * HTML page of 3,000,000 nested elements, and a ZIP archive whose members each stay under the
 * per-entry ratio cap but together inflate far past the decompression budget. Reports each
 * one's wall time and outcome; while they run, the process's peak RSS (the workers' memory
 * is part of it).
 *
 *   node --import tsx bench/extractors/hostile.ts [--root DIR]
 *
 * `--root DIR` loads the extractors of another checkout (an A/B against an older version).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeZip } from '../../test/extractors/fixtures/zip-writer.ts';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : def;
};
const ROOT = arg('root', fileURLToPath(new URL('../../', import.meta.url)));

interface Extractors {
  ExtractionPool: new (o: { size: number }) => {
    run(job: object): Promise<{ text: string; truncated?: boolean }>;
    close(): Promise<void>;
  };
  resolveLimits: () => object;
}

/** 3,000,000 nested elements, 30 MB. */
function nestedHtml(): Uint8Array {
  return new TextEncoder().encode(`<html><body>${'<section>x'.repeat(3_000_000)}</body></html>`);
}

/**
 * 300 binary members of 2 MiB, each a random 2,048-byte block repeated (deflate compresses that
 * about 160:1, under the ratio cap of 200; no text, so nothing fills the output): 600 MiB
 * inflated in all.
 */
function ratioZip(): Uint8Array {
  const block = randomBytes(2048);
  const member = Buffer.alloc(2 * 1024 * 1024);
  for (let i = 0; i < member.length; i += block.length) block.copy(member, i);
  return writeZip(Array.from({ length: 300 }, (_, i) => ({ name: `part-${i}.bin`, data: member })));
}

async function main(): Promise<void> {
  const x = (await import(pathToFileURL(`${ROOT}/extractors/index.ts`).href)) as Extractors;
  const pool = new x.ExtractionPool({ size: 2 });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const run = async (name: string, bytes: Uint8Array, mediaType: string) => {
    const t0 = performance.now();
    let outcome: string;
    try {
      const r = await pool.run({ bytes, mediaType, params: {}, limits: x.resolveLimits() });
      outcome = `text of ${r.text.length} characters${r.truncated ? ' (cut)' : ''}`;
    } catch (err) {
      outcome = `${(err as { code?: string }).code}: ${(err as Error).message.slice(0, 90)}`;
    }
    console.log(`${name}: ${((performance.now() - t0) / 1000).toFixed(2)} s, ${outcome}`);
  };
  const html = nestedHtml();
  const zip = ratioZip();
  console.log(
    `extractors of ${ROOT}; HTML ${(html.length / 1e6).toFixed(1)} MB, ZIP ${(zip.length / 1e6).toFixed(1)} MB`,
  );
  await run('nested HTML alone', html, 'text/html');
  await run('ratio-capped ZIP alone', zip, 'application/zip');
  await Promise.all([
    run('ZIP beside a second ZIP (1)', zip, 'application/zip'),
    run('ZIP beside a second ZIP (2)', zip, 'application/zip'),
  ]);
  clearInterval(sampler);
  await pool.close();
  console.log(
    `peak RSS ${(peak / 1e6).toFixed(0)} MB; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
