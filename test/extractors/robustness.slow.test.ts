/**
 * Hostile-input suite: truncated, corrupted, random-byte, bomb (high-ratio and lying ZIPs,
 * deeply nested archives and markup) inputs go to every extractor. Each run must end with
 * either a well-formed Extraction or an ExtractionError with a known code: never another
 * exception, a crash or a hang (the per-test timeout guards hangs).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ExtractionError, extractInline } from '../../extractors/index.ts';
import type { Extraction } from '../../extractors/index.ts';
import { writeZip } from './fixtures/zip-writer.ts';

const CODES = new Set(['TOO_LARGE', 'ZIP_BOMB', 'CORRUPT', 'TIMEOUT', 'UNSUPPORTED', 'DEPTH']);
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

/** Fixture file and the media type of its extractor. */
const FORMATS: [string, string][] = [
  ['sample.pdf', 'application/pdf'],
  ['sample.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['sample.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  ['sample.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['sample.odt', 'application/vnd.oasis.opendocument.text'],
  ['sample.ods', 'application/vnd.oasis.opendocument.spreadsheet'],
  ['sample.odp', 'application/vnd.oasis.opendocument.presentation'],
  ['sample.html', 'text/html'],
  ['sample.xhtml', 'application/xhtml+xml'],
  ['sample.txt', 'text/plain'],
  ['sample-utf16.txt', 'text/plain'],
  ['sample.md', 'text/markdown'],
  ['sample.csv', 'text/csv'],
  ['sample.tsv', 'text/tab-separated-values'],
  ['sample.json', 'application/json'],
  ['sample.xml', 'application/xml'],
  ['sample.yaml', 'application/yaml'],
  ['sample.py', 'text/x-python'],
  ['sample.eml', 'message/rfc822'],
  ['sample.rtf', 'application/rtf'],
  ['sample.zip', 'application/zip'],
  ['sample.doc', 'application/msword'],
  ['sample.png', 'image/png'],
  ['sample.pdf', 'application/octet-stream'],
];
const ZIP_TYPES = FORMATS.filter(([f]) => /\.(docx|pptx|xlsx|odt|ods|odp|zip)$/.test(f)).map(([, t]) => t);

/** Runs one extraction and checks the outcome is a clean result or a typed error. */
async function expectCleanOutcome(
  bytes: Uint8Array,
  mediaType: string,
  limits = {},
): Promise<Extraction | ExtractionError> {
  try {
    const e = await extractInline(bytes, { mediaType, limits });
    assert.equal(typeof e.text, 'string');
    assert.ok(Array.isArray(e.sections));
    for (const s of e.sections)
      assert.ok(
        s.start >= 0 && s.start <= s.end && s.end <= e.text.length,
        `section ${JSON.stringify(s)} out of range`,
      );
    return e;
  } catch (err) {
    assert.ok(err instanceof ExtractionError, `${mediaType}: expected ExtractionError, got ${String(err)}`);
    assert.ok(CODES.has(err.code), `unexpected code ${err.code}`);
    assert.ok(err.message.length > 0);
    return err;
  }
}

function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

describe('robustness: damaged inputs to every extractor', { timeout: 60_000 }, () => {
  for (const [name, type] of FORMATS) {
    it(`${name} as ${type}: truncated at several points`, async () => {
      const data = fixture(name);
      for (const cut of [0, 1, 0.1, 0.5, 0.9, -1]) {
        const end =
          cut === -1 ? data.length - 1 : cut <= 1 && cut > 0 && cut !== 1 ? Math.floor(data.length * cut) : cut;
        await expectCleanOutcome(data.slice(0, end), type);
      }
    });

    it(`${name} as ${type}: corrupted bytes`, async () => {
      const data = fixture(name);
      const rnd = prng(data.length);
      for (let round = 0; round < 6; round++) {
        const copy = data.slice();
        for (let k = 0; k < 1 + round * 4; k++) copy[rnd() % copy.length] = rnd() & 0xff;
        await expectCleanOutcome(copy, type);
      }
    });

    it(`${type}: random bytes`, async () => {
      const rnd = prng(type.length * 31);
      for (const size of [1, 17, 512, 8192]) {
        await expectCleanOutcome(
          Uint8Array.from({ length: size }, () => rnd() & 0xff),
          type,
        );
      }
    });
  }
});

describe('robustness: bombs and nesting', { timeout: 60_000 }, () => {
  /** The part each container format reads first, so a bomb placed there is actually inflated. */
  const MAIN_PART: Record<string, string> = {
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'word/document.xml',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'ppt/presentation.xml',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xl/workbook.xml',
    'application/vnd.oasis.opendocument.text': 'content.xml',
    'application/vnd.oasis.opendocument.spreadsheet': 'content.xml',
    'application/vnd.oasis.opendocument.presentation': 'content.xml',
    'application/zip': 'member.txt',
  };
  const zeros = new Uint8Array(4 * 1024 * 1024); // inflates ~1000x, beyond the 1 MiB ratio-free size
  const bombs = new Map<string, { ratio: Uint8Array; declaredHuge: Uint8Array; declaredSmall: Uint8Array }>();
  const bombsFor = (part: string) => {
    let b = bombs.get(part);
    if (!b) {
      b = {
        ratio: writeZip([{ name: part, data: zeros }]),
        declaredHuge: writeZip([{ name: part, data: 'small', declaredSize: 0xfff0_0000 }]),
        declaredSmall: writeZip([{ name: part, data: zeros, declaredSize: 100 }]),
      };
      bombs.set(part, b);
    }
    return b;
  };
  const isBomb = (out: Extraction | ExtractionError) => out instanceof ExtractionError && out.code === 'ZIP_BOMB';

  for (const type of ZIP_TYPES) {
    it(`${type}: high-ratio entry is rejected as ZIP_BOMB`, async () => {
      const out = await expectCleanOutcome(bombsFor(MAIN_PART[type]).ratio, type);
      assert.ok(isBomb(out), String(out));
    });

    it(`${type}: entries lying about their size are rejected as ZIP_BOMB`, async () => {
      const b = bombsFor(MAIN_PART[type]);
      const huge = await expectCleanOutcome(b.declaredHuge, type);
      assert.ok(isBomb(huge), String(huge));
      const small = await expectCleanOutcome(b.declaredSmall, type);
      assert.ok(isBomb(small), String(small));
    });

    it(`${type}: more entries than allowed is rejected as ZIP_BOMB`, async () => {
      const many = writeZip(Array.from({ length: 50 }, (_, i) => ({ name: `f${i}.txt`, data: 'x' })));
      const out = await expectCleanOutcome(many, type, { maxEntries: 20 });
      assert.ok(isBomb(out), String(out));
    });
  }

  it('total decompressed size across nested archives is bounded', async () => {
    const member = new TextEncoder().encode('lorem ipsum '.repeat(50_000)); // 600 KB, compresses well under ratio 200
    const inner = writeZip([
      { name: 'a.txt', data: member },
      { name: 'b.txt', data: member },
    ]);
    const outer = writeZip([
      { name: 'in1.zip', data: inner },
      { name: 'in2.zip', data: inner },
    ]);
    const out = await expectCleanOutcome(outer, 'application/zip', { maxDecompressedBytes: 2_000_000 });
    assert.ok(out instanceof ExtractionError && out.code === 'ZIP_BOMB', String(out));
  });

  it('deeply nested archives stop at maxDepth and still extract', async () => {
    const out = await expectCleanOutcome(fixture('bomb-nested.zip'), 'application/zip', { maxDepth: 3 });
    assert.ok(!(out instanceof ExtractionError), String(out));
    assert.doesNotMatch(out.text, /matryoshka/);
    const deep = await expectCleanOutcome(fixture('bomb-nested.zip'), 'application/zip', { maxDepth: 10 });
    assert.ok(!(deep instanceof ExtractionError) && /innermost matryoshka/.test(deep.text));
  });

  it('deeply nested markup, JSON, RTF and MIME give a result or a typed error', async () => {
    const n = 100_000;
    const enc = (s: string) => new TextEncoder().encode(s);
    await expectCleanOutcome(enc('<a>'.repeat(n) + 'x' + '</a>'.repeat(n)), 'application/xml');
    await expectCleanOutcome(enc('<div>'.repeat(n) + 'x'), 'text/html');
    await expectCleanOutcome(enc('['.repeat(n) + ']'.repeat(n)), 'application/json');
    const rtf = await expectCleanOutcome(
      enc('{\\rtf1 ' + '{'.repeat(n) + 'x' + '}'.repeat(n) + '}'),
      'application/rtf',
    );
    assert.ok(rtf instanceof ExtractionError && rtf.code === 'DEPTH');
    let mime = 'Content-Type: text/plain\r\n\r\ninnermost\r\n';
    for (let i = 0; i < 60; i++)
      mime = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${mime}--b${i}--\r\n`;
    const email = await expectCleanOutcome(enc('From: x@example.com\r\n' + mime), 'message/rfc822');
    assert.ok(email instanceof ExtractionError && email.code === 'DEPTH');
    const docx = writeZip([{ name: 'word/document.xml', data: '<w:document>' + '<w:p>'.repeat(n) + '</w:document>' }]);
    await expectCleanOutcome(docx, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('XML entity expansion (billion laughs) is bounded', async () => {
    const lol =
      '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">' +
      Array.from(
        { length: 9 },
        (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`,
      ).join('') +
      ']><l>&j;</l>';
    const out = await expectCleanOutcome(new TextEncoder().encode(lol), 'application/xml');
    if (!(out instanceof ExtractionError)) assert.ok(out.text.length < 2_000_000);
  });

  it('input over maxInputBytes is rejected as TOO_LARGE before parsing', async () => {
    const out = await expectCleanOutcome(new Uint8Array(2048), 'application/pdf', { maxInputBytes: 1024 });
    assert.ok(out instanceof ExtractionError && out.code === 'TOO_LARGE');
  });

  it('output text is capped for every format', async () => {
    for (const [name, type] of FORMATS) {
      const out = await expectCleanOutcome(fixture(name), type, { maxOutputChars: 10 });
      if (!(out instanceof ExtractionError)) assert.ok(out.text.length <= 10, `${name}: ${out.text.length}`);
    }
  });
});
