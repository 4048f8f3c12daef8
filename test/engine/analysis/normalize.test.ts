/**
 * Spelling variants meet: hyphenated compounds and their closed forms, letter-digit
 * words and their parts, Greek letters and their names, British and American
 * spelling (engine/analysis/normalize.ts through analyze / analyzeQuery).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, analyzeQuery } from '../../../engine/analysis/index.ts';
import type { Language } from '../../../engine/analysis/index.ts';
import { alnumRuns, americanSpelling, foldGreek, joinHyphenated } from '../../../engine/analysis/normalize.ts';

function indexTerms(text: string, lang: Language): Set<string> {
  return new Set(analyze(text, lang).map((t) => t.term));
}

/** Main query terms (not compound parts) of `query` that the index of `doc` holds. */
function matched(query: string, doc: string, lang: Language = 'en'): string[] {
  const idx = indexTerms(doc, lang);
  return analyzeQuery(query, lang).flatMap((w) => w.terms.filter((t) => idx.has(t)));
}

test('a hyphenated compound meets its closed and its inflected forms through the whole term', () => {
  assert.ok(matched('IL-6', 'serum IL6 levels').includes('il6'));
  assert.deepEqual(matched('IL6', 'serum IL-6 levels'), ['il6']);
  assert.deepEqual(matched('IL6', 'serum IL-8 levels'), []);
  assert.ok(matched('noncoding RNA', 'long non-coding RNAs').includes('noncod'));
  assert.ok(matched('non-coding', 'noncoding transcripts').includes('noncod'));
  assert.ok(matched('T-cell', 'CD4 T-cells').includes('tcell'));
  assert.ok(matched('e-mail', 'send an email').includes('email'));
  assert.ok(matched('E-Mail-Adresse', 'die Emailadresse', 'de').includes('emailadress'));
});

test('compounds with dots or underscores keep their literal whole term', () => {
  const terms = analyze('see config_file.ts and foo-bar.baz', 'en').map((t) => t.term);
  assert.ok(terms.includes('config_file.ts'));
  assert.ok(terms.includes('foo-bar.baz'));
});

test('a word mixing letters and digits carries its runs as parts at its own position', () => {
  const toks = analyze('mutant p53 protein', 'en');
  assert.deepEqual(
    toks.filter((t) => t.position === 1).map((t) => t.term),
    ['p53', 'p', '53'],
  );
  assert.equal(toks.find((t) => t.term === 'protein')?.position, 2, 'positions are not shifted');
  const [w] = analyzeQuery('p53', 'en');
  assert.deepEqual(w.terms, ['p53']);
  assert.deepEqual(w.parts, ['p', '53']);
  // long mixes (hashes, ids) stay whole; stopword runs are no parts
  assert.deepEqual(
    analyze('a3f9c0e1d2b4', 'en').map((t) => t.term),
    ['a3f9c0e1d2b4'],
  );
  assert.deepEqual(
    analyze('a1', 'en').map((t) => t.term),
    ['a1', '1'],
  );
});

test('Greek letters in Latin-script words are named; Greek words stay', () => {
  assert.ok(matched('TNF-α', 'TNFalpha and TNF-alpha').includes('tnfalpha'));
  assert.ok(matched('TNFα', 'TNF-alpha').includes('tnfalpha'));
  assert.ok(matched('IL-1β', 'IL-1beta').includes('il1beta'));
  assert.ok(matched('β-blockers', 'beta-blocker therapy').includes('betablock'));
  assert.deepEqual(
    analyze('ωμέγα', 'en').map((t) => t.term),
    ['ωμέγα'],
  );
  assert.equal(foldGreek('μg'), 'μg', 'the micro sign is kept');
});

test('British spellings take the American form in English', () => {
  for (const [gb, us] of [
    ['leukaemia', 'leukemia'],
    ['oestrogen', 'estrogen'],
    ['diarrhoea', 'diarrhea'],
    ['tumours', 'tumors'],
    ['behaviour', 'behavior'],
    ['coeliac', 'celiac'],
  ]) {
    assert.deepEqual([...indexTerms(gb, 'en')], [...indexTerms(us, 'en')], `${gb} / ${us}`);
  }
  for (const w of ['four', 'hour', 'flour', 'vertebrae', 'aerobic', 'poet', 'does'])
    assert.equal(americanSpelling(w), w, w);
});

test('the normalisation helpers are pure and leave other input alone', () => {
  assert.deepEqual(alnumRuns('nih3t3'), ['nih', '3', 't', '3']);
  assert.equal(alnumRuns('protein'), null);
  assert.equal(alnumRuns('1234'), null);
  assert.equal(joinHyphenated('non-coding'), 'noncoding');
  assert.equal(joinHyphenated('protein'), 'protein');
  assert.equal(foldGreek('protein'), 'protein');
  assert.equal(americanSpelling('cell'), 'cell');
});
