/**
 * The Snowball English (Porter2) and German stemmers against the published
 * snowball-data vocabulary/output lists (a contiguous portion, see data/README.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { stemEnglish, stemGerman } from '../../../engine/analysis/index.ts';

function lines(name: string): string[] {
  const text = readFileSync(new URL(`./data/${name}`, import.meta.url), 'utf8');
  const out = text.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

function checkList(lang: string, stem: (w: string) => string): void {
  const voc = lines(`${lang}-voc.txt`);
  const expected = lines(`${lang}-output.txt`);
  assert.equal(voc.length, expected.length, 'vocabulary and output files align');
  assert.ok(voc.length > 1000, 'a large portion of the list is present');
  const wrong: string[] = [];
  for (let i = 0; i < voc.length; i++) {
    const got = stem(voc[i]);
    if (got !== expected[i]) wrong.push(`${voc[i]} -> ${got} (published ${expected[i]})`);
  }
  assert.deepEqual(wrong, []);
}

test('English stemmer reproduces the published english/output.txt', () => {
  checkList('english', stemEnglish);
});

test('German stemmer reproduces the published german/output.txt', () => {
  checkList('german', stemGerman);
});

test('English special cases: exceptions, short words, region prefixes, -ing forms', () => {
  const cases: Record<string, string> = {
    skies: 'sky',
    dying: 'die',
    lying: 'lie',
    tying: 'tie',
    news: 'news',
    only: 'onli',
    early: 'earli',
    generous: 'generous',
    generously: 'generous',
    communism: 'communism',
    international: 'internat',
    inning: 'inning',
    proceed: 'proceed',
    exceed: 'exceed',
    hoping: 'hope',
    hopping: 'hop',
    running: 'run',
    agreed: 'agre',
    caresses: 'caress',
    ponies: 'poni',
    ties: 'tie',
    cats: 'cat',
    relational: 'relat',
    hopeful: 'hope',
    electrical: 'electr',
    is: 'is',
    by: 'by',
    youth: 'youth',
    "children's": 'children',
    pasted: 'paste',
    conditional: 'condit',
    biologist: 'biolog',
  };
  for (const [w, s] of Object.entries(cases)) assert.equal(stemEnglish(w), s, w);
});

test('German special cases: umlauts, ß, ae/oe/ue, -erin, -et, apostrophes', () => {
  const cases: Record<string, string> = {
    häuser: 'haus',
    hauser: 'haus',
    straße: 'strass',
    strasse: 'strass',
    aepfel: 'apfel',
    äpfel: 'apfel',
    quelle: 'quell',
    feuer: 'feu',
    lehrerin: 'lehr',
    lehrerinnen: 'lehr',
    system: 'system',
    systemen: 'system',
    ergebnisse: 'ergebnis',
    kategorien: 'kategori',
    aufeinanderfolgenden: 'aufeinanderfolg',
    planet: 'planet',
    internet: 'internet',
    abgebildet: 'abgebild',
    "geht's": 'geht',
    urlaub: 'urlaub',
  };
  for (const [w, s] of Object.entries(cases)) assert.equal(stemGerman(w), s, w);
});
