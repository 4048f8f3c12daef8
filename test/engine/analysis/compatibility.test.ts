/**
 * Compatibility and decomposed characters meet their plain forms: ligatures (ﬁ ﬂ ﬀ, common in
 * text from PDFs and typeset documents), full-width Latin letters and digits (East Asian text),
 * mathematical alphanumerics, superscript digits, and letters written with combining marks
 * (NFD text, e.g. from macOS file names; also decomposed Hangul) are analysed as their NFKC
 * forms, on the index and the query side alike. Offsets stay on the original text, so highlights
 * land on the written characters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, analyzeQuery, ANALYSIS_VERSION } from '../../../engine/analysis/index.ts';
import type { Language } from '../../../engine/analysis/index.ts';
import { doc, indexOf } from '../helpers/index-fixture.ts';

const terms = (text: string, lang: Language) => analyze(text, lang).map((t) => t.term);

const PAIRS: [string, string][] = [
  ['ﬁle ﬂow oﬀice', 'file flow office'],
  ['ＰＤＦ Ｆｉｌｅ ２０２４', 'PDF File 2024'],
  ['𝐀𝐥𝐠𝐞𝐛𝐫𝐚 𝒜lgebra', 'Algebra algebra'],
  ['m² ſtate', 'm2 state'],
  ['Abendro\u0308te Angstfru\u0308hstu\u0308ck Stra\u00dfe', 'Abendröte Angstfrühstück Straße'],
];

test('compatibility and decomposed forms give the terms of their plain forms, in both languages', () => {
  for (const lang of ['de', 'en'] as const) {
    for (const [odd, plain] of PAIRS) assert.deepEqual(terms(odd, lang), terms(plain, lang), `${lang}: ${odd}`);
  }
});

test('query words are normalised the same way', () => {
  for (const [odd, plain] of PAIRS) {
    assert.deepEqual(
      analyzeQuery(odd, 'de').map((w) => w.terms),
      analyzeQuery(plain, 'de').map((w) => w.terms),
      odd,
    );
  }
});

test('offsets stay on the original characters', () => {
  const text = 'Die ﬁnale Ｆｉｌｅ';
  assert.deepEqual(
    analyze(text, 'de').map((t) => text.slice(t.start, t.end)),
    ['ﬁnale', 'Ｆｉｌｅ'],
  );
});

test('a search for the plain word finds and highlights the ligature spelling', async () => {
  const body = 'The ﬁnal ﬁle of the ﬁscal year is ready.';
  const index = await indexOf([doc('lig', 'Oﬃce notes', body), doc('plain', 'Other', 'Nothing to see here at all.')]);
  const s = index.reader.searcher();
  try {
    const hits = s.search({ query: 'final file office', language: 'en', limit: 5 }).hits;
    assert.deepEqual(
      hits.map((h) => h.key),
      ['lig'],
    );
    const marked = s
      .highlight(hits[0], 'final file office', { language: 'en' })
      .flatMap((p) => p.ranges.map(([a, b]) => p.text.slice(a, b)));
    assert.deepEqual(marked.sort(), ['Oﬃce', 'ﬁle', 'ﬁnal']);
  } finally {
    index.reader.release(s);
    await index.close();
  }
});

test('the analysis version marks indexes made before this normalisation', () => {
  assert.ok(ANALYSIS_VERSION >= 3);
});

test('decomposed Hangul (conjoining jamo, as in NFD file names) meets precomposed syllables', () => {
  const text = '한국어 문서';
  for (const lang of ['de', 'en'] as const)
    assert.deepEqual(terms(text.normalize('NFD'), lang), terms(text, lang), lang);
});
