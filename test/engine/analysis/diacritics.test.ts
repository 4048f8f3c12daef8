/**
 * Latin letters with diacritics meet their plain spelling in both analysis languages ("Café" =
 * "Cafe"), including the German path, where the marks must go before the stemmer reads the word
 * (a stem of "Cafe" is not the stem of "Café" folded afterwards), letters of Latin Extended
 * Additional (Vietnamese "Nguyễn") and letters with a stroke or ligatures that have no
 * decomposition (ł ø đ ı æ œ). German umlauts and ß keep their own treatment (Häuser = Hauser).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, analyzeQuery } from '../../../engine/analysis/index.ts';
import type { Language } from '../../../engine/analysis/index.ts';

const terms = (text: string, lang: Language) => analyze(text, lang).map((t) => t.term);

const PAIRS: [string, string][] = [
  ['Café Crème Résumé Façade Renée', 'Cafe Creme Resume Facade Renee'],
  ['Nguyễn Đặng Phạm', 'Nguyen Dang Pham'],
  ['Łódź Ørsted Dubrovnik Ħamrun', 'Lodz Orsted Dubrovnik Hamrun'],
  ['encyclopædia Œuvre', 'encyclopaedia Oeuvre'],
];

test('accented spellings give the terms of the plain spellings, in both languages', () => {
  for (const lang of ['de', 'en'] as const) {
    for (const [odd, plain] of PAIRS) assert.deepEqual(terms(odd, lang), terms(plain, lang), `${lang}: ${odd}`);
  }
});

test('a query with accents finds a German text written without them, and the reverse', () => {
  for (const [odd, plain] of PAIRS) {
    for (const [q, text] of [
      [odd, plain],
      [plain, odd],
    ]) {
      const indexed = new Set(terms(text, 'de'));
      for (const w of analyzeQuery(q, 'de'))
        assert.ok(
          w.terms.some((t) => indexed.has(t)),
          `${q} -> ${text}: ${w.text}`,
        );
    }
  }
});

test('German umlauts and ß keep the stemmer treatment', () => {
  assert.deepEqual(terms('Häuser Straße Mädchen', 'de'), terms('Hauser Strasse Madchen', 'de'));
  assert.deepEqual(terms('Häuser', 'de'), ['haus']);
});
