/**
 * Term dictionary lookups (terms-reader.ts): every written term is found with
 * its metadata and every other string is absent, for random sorted term sets
 * over ASCII, Latin-1, BMP private-use and astral characters (where UTF-8 byte
 * order and JS string order differ), prefixes of terms, and repeated lookups.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TermsWriter } from '../../../engine/termdict/terms-writer.ts';
import { TermsReader } from '../../../engine/termdict/terms-reader.ts';
import { int, rng } from '../helpers/random.ts';

const ALPHABET = [
  'a',
  'b',
  'c',
  'ab',
  'z',
  'é',
  'ß',
  '\u{E000}',
  '\u{FFFD}',
  '\u{1F600}',
  '\u{10000}',
  '0',
  '-',
  'ü',
  '\u4e2d',
];

test('lookup finds exactly the written terms with their metadata', () => {
  const r = rng(3);
  const word = () => Array.from({ length: int(r, 1, 6) }, () => ALPHABET[int(r, 0, ALPHABET.length - 1)]).join('');
  for (let round = 0; round < 150; round++) {
    const set = new Set<string>();
    const n = int(r, 0, 300);
    while (set.size < n) set.add(word());
    const terms = [...set].sort();
    const w = new TermsWriter();
    const meta = (i: number) => ({ docFreq: i + 1, totalTermFreq: 2 * i + 3, docStart: i * 10, posStart: i * 20 });
    terms.forEach((t, i) => w.add(t, meta(i)));
    const reader = new TermsReader(w.data.buf.slice(0, w.data.length), w.index(), terms.length);
    const index = new Map(terms.map((t, i) => [t, i]));
    const probes = [
      ...terms,
      ...terms.map((t) => t.slice(0, -1)),
      ...terms.map((t) => `${t}a`),
      ...Array.from({ length: 200 }, word),
    ];
    for (let pass = 0; pass < 2; pass++) {
      for (const p of probes) {
        const i = index.get(p);
        assert.deepEqual(reader.lookup(p), i === undefined ? null : meta(i), JSON.stringify(p));
      }
    }
  }
});
