/**
 * Extraction throughput per format: MB/s (input bytes) and documents/s through the worker
 * pool (size 2, kept busy with 8 jobs in flight), plus single-thread inline figures for
 * comparison. Documents are generated with realistic sizes (see FORMATS below).
 *
 *   cd /work/main && node --import tsx bench/extractors/throughput.ts [--seconds 2] [--pool 2]
 *
 * Prints a markdown table. Figures depend on the machine and on other load.
 */
import { ExtractionPool, extract, extractInline } from '../../extractors/index.ts';
import {
  makeDocx,
  makeHtml,
  makeOdp,
  makeOds,
  makeOdt,
  makePdf,
  makePptx,
  makeRtf,
  makeXlsx,
  prose,
} from '../../test/extractors/fixtures/generate.ts';
import { writeZip } from '../../test/extractors/fixtures/zip-writer.ts';

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const SECONDS = arg('seconds', 2);
const POOL = arg('pool', 2);
const IN_FLIGHT = POOL * 4;

const enc = (s: string) => new TextEncoder().encode(s);
const paragraphs = (n: number, words: number) => Array.from({ length: n }, (_, i) => prose(words, i + 1));
const lines = (text: string, width: number) =>
  text.match(new RegExp(`.{1,${width}}(\\s|$)`, 'g'))!.map((l) => l.trim());
const rows = (n: number, seed: number) =>
  Array.from({ length: n }, (_, r) => [`item ${r}`, prose(3, seed + r), r * 3.5, r % 7, prose(2, r + 99), r % 2 === 0]);

function email(): Uint8Array {
  const att = Buffer.from(makeDocx(paragraphs(60, 60)))
    .toString('base64')
    .replace(/.{76}/g, '$&\r\n');
  const body = Buffer.from(paragraphs(40, 60).join('\n\n')).toString('base64').replace(/.{76}/g, '$&\r\n');
  return enc(
    [
      'From: a@example.com',
      'To: b@example.com',
      'Subject: =?UTF-8?Q?Bericht_f=C3=BCr_Q3?=',
      'Date: Tue, 03 Mar 2026 10:00:00 +0100',
      'Content-Type: multipart/mixed; boundary="x"',
      '',
      '--x',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      body,
      '--x',
      'Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'Content-Disposition: attachment; filename="r.docx"',
      'Content-Transfer-Encoding: base64',
      '',
      att,
      '--x--',
      '',
    ].join('\r\n'),
  );
}

/** [format, media type, document, description]. */
const FORMATS: [string, string, Uint8Array, string][] = [
  [
    'pdf',
    'application/pdf',
    makePdf(Array.from({ length: 20 }, (_, p) => lines(prose(700, p + 1), 90).slice(0, 45))),
    '20 pages',
  ],
  [
    'docx',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    makeDocx(paragraphs(300, 60)),
    '300 paragraphs',
  ],
  [
    'pptx',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    makePptx(
      Array.from({ length: 30 }, (_, i) => ({
        texts: paragraphs(6, 12).map((t, j) => `${i}.${j} ${t}`),
        notes: prose(80, i),
      })),
    ),
    '30 slides + notes',
  ],
  [
    'xlsx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    makeXlsx([0, 1, 2].map((s) => ({ name: `Sheet${s + 1}`, rows: rows(2000, s * 5000) }))),
    '3 sheets x 2000 rows x 6 cols',
  ],
  ['odt', 'application/vnd.oasis.opendocument.text', makeOdt(paragraphs(300, 60)), '300 paragraphs'],
  [
    'ods',
    'application/vnd.oasis.opendocument.spreadsheet',
    makeOds([0, 1, 2].map((s) => ({ name: `Sheet${s + 1}`, rows: rows(2000, s * 5000) }))),
    '3 sheets x 2000 rows x 6 cols',
  ],
  [
    'odp',
    'application/vnd.oasis.opendocument.presentation',
    makeOdp(Array.from({ length: 30 }, (_, i) => ({ texts: paragraphs(6, 12), notes: prose(80, i) }))),
    '30 slides + notes',
  ],
  ['html', 'text/html', makeHtml('Report', paragraphs(400, 60)), '400 paragraphs'],
  ['email', 'message/rfc822', email(), 'text body + DOCX attachment'],
  ['rtf', 'application/rtf', makeRtf(paragraphs(300, 60)), '300 paragraphs'],
  [
    'csv',
    'text/csv',
    enc(
      rows(5000, 1)
        .map((r) => r.map((c) => `"${c}"`).join(','))
        .join('\n'),
    ),
    '5000 rows',
  ],
  [
    'json',
    'application/json',
    enc(JSON.stringify(rows(3000, 1).map((r) => ({ name: r[0], text: r[1], value: r[2] })))),
    '3000 objects',
  ],
  ['text', 'text/plain', enc(paragraphs(400, 60).join('\n\n')), '400 paragraphs'],
  [
    'zip',
    'application/zip',
    writeZip([
      { name: 'a.docx', data: makeDocx(paragraphs(100, 60)) },
      { name: 'b.txt', data: paragraphs(100, 60).join('\n') },
    ]),
    'DOCX + TXT members',
  ],
];

interface Result {
  docs: number;
  seconds: number;
  bytes: number;
  chars: number;
}

async function measure(run: () => Promise<{ text: string }>, size: number, parallel: number): Promise<Result> {
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  let docs = 0;
  let chars = 0;
  const lane = async () => {
    while (performance.now() < deadline) {
      const e = await run();
      docs++;
      chars = e.text.length;
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return { docs, seconds: (performance.now() - start) / 1000, bytes: docs * size, chars };
}

const pool = new ExtractionPool({ size: POOL });
// Warm up: every worker and this thread load their parsers once.
for (const [, mediaType, doc] of FORMATS) {
  await Promise.all(Array.from({ length: POOL * 2 }, () => extract(doc, { mediaType, pool })));
  await extractInline(doc, { mediaType });
}

const out: string[] = [
  `Extraction throughput, pool of ${POOL} workers with ${IN_FLIGHT} jobs in flight, ${SECONDS} s per format; inline = one thread, no pool.`,
  '',
  '| Format | Document | Size (KB) | Text (K chars) | Pool docs/s | Pool MB/s | Inline docs/s | Inline MB/s |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
];
for (const [format, mediaType, doc, description] of FORMATS) {
  const p = await measure(() => extract(doc, { mediaType, pool }), doc.length, IN_FLIGHT);
  const i = await measure(() => extractInline(doc, { mediaType }), doc.length, 1);
  const f = (n: number, d = 1) => n.toFixed(d);
  out.push(
    `| ${format} | ${description} | ${f(doc.length / 1024, 0)} | ${f(p.chars / 1000, 0)} | ${f(p.docs / p.seconds)} | ${f(p.bytes / p.seconds / 1e6, 2)} | ${f(i.docs / i.seconds)} | ${f(i.bytes / i.seconds / 1e6, 2)} |`,
  );
  console.error(out[out.length - 1]);
}
await pool.close();
console.log(out.join('\n'));
