/** Passage selection for attached files and the analysis language of short inputs. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analysisLanguage, bm25, passages, questionTerms } from '../../../src/passages/relevance.ts';
import { selectRelevant } from '../../../src/passages/select.ts';

describe('selectRelevant', () => {
  const para = (i: number) => `Section ${i} describes the cafeteria menu and opening hours in some detail.`;
  const text = Array.from({ length: 30 }, (_, i) =>
    i === 12 ? 'Die Reisekostenabrechnung wird monatlich eingereicht.' : para(i),
  ).join('\n\n');

  it('keeps a text that fits the budget whole', () => {
    assert.equal(selectRelevant('short text', 'anything', 1000, 'en'), 'short text');
  });

  it('selects the passages matching the question (German compounds too) within the budget, in document order', () => {
    const out = selectRelevant(text, 'Wann reiche ich die Reisekosten ein?', 300, 'de');
    assert.ok(out.length <= 300 + 20, `${out.length}`);
    assert.match(out, /Reisekostenabrechnung wird monatlich eingereicht/);
    assert.match(out, /\[\.\.\.\]/);
  });
});

describe('bm25 and passages', () => {
  it('scores passages with the question terms higher', () => {
    const scores = bm25(
      ['the train leaves at noon', 'lunch is served at noon', 'nothing here'],
      questionTerms('when does the train leave', 'en'),
      'en',
    );
    assert.ok(scores[0] > scores[1] && scores[1] === 0 && scores[2] === 0);
  });
  it('cuts text at paragraph and sentence ends into pieces no longer than the size', () => {
    const parts = passages('One. Two two. Three three three.\n\nFour.', 12);
    assert.ok(parts.every((p) => p.length <= 12));
    assert.equal(parts.join(' ').replace(/\s+/g, ' '), 'One. Two two. Three three three. Four.');
    assert.deepEqual(passages('One. Two two.\n\nFour.', 20), ['One. Two two. Four.']);
  });
});

describe('analysisLanguage', () => {
  it('uses the hint for very short inputs and detection for longer ones', () => {
    assert.equal(analysisLanguage('Urlaub', 'en'), 'en');
    assert.equal(analysisLanguage('Urlaub', 'de'), 'de');
    assert.equal(
      analysisLanguage('Wie beantrage ich meinen Urlaub für die nächsten zwei Wochen bei der Personalabteilung?', 'en'),
      'de',
    );
  });
});
