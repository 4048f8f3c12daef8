/**
 * analyze / analyzeQuery / detectLanguage / folding / decompounding through
 * the public API of engine/analysis.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AnalysisError,
  analyze,
  analyzeQuery,
  detectLanguage,
  foldGerman,
  splitGermanCompound,
} from '../../../engine/analysis/index.ts';
import type { Language } from '../../../engine/analysis/index.ts';

function terms(text: string, lang: Language): string[] {
  return analyze(text, lang).map((t) => t.term);
}
/** True when some query word of q finds a term (or part) that analyze(doc) indexed. */
function matches(q: string, doc: string, docLang: Language, qLang: Language = docLang): boolean {
  const indexed = new Set(terms(doc, docLang));
  return analyzeQuery(q, qLang).some((w) => w.terms.some((t) => indexed.has(t)));
}

test('stopwords are dropped but keep their positions', () => {
  const en = analyze('the cat and the hat', 'en');
  assert.deepEqual(
    en.map((t) => [t.term, t.position]),
    [
      ['cat', 1],
      ['hat', 4],
    ],
  );
  const de = analyze('Der Hund und die Katze', 'de');
  assert.deepEqual(
    de.map((t) => [t.term, t.position]),
    [
      ['hund', 1],
      ['katz', 4],
    ],
  );
});

test('case folding and German umlaut/ß folding: Häuser meets Hauser, Straße meets Strasse', () => {
  assert.deepEqual(terms('Häuser', 'de'), terms('Hauser', 'de'));
  assert.deepEqual(terms('HÄUSER', 'de'), terms('häuser', 'de'));
  assert.deepEqual(terms('Straße', 'de'), terms('STRASSE', 'de'));
  assert.equal(foldGerman('Größe Übermaß'), 'Grosse Ubermass');
  assert.equal(foldGerman('plain'), 'plain');
  assert.deepEqual(terms('Café', 'en'), terms('cafe', 'en'));
});

test('German compounds: Urlaubsantrag is found by Antrag and by Urlaub', () => {
  const doc = 'Der Urlaubsantrag wurde genehmigt.';
  assert.ok(matches('Antrag', doc, 'de'));
  assert.ok(matches('Urlaub', doc, 'de'));
  assert.ok(matches('Urlaubsantrag', doc, 'de'));
  assert.ok(matches('Anträge', doc, 'de'), 'inflected query meets the part');
  assert.ok(!matches('Vertrag', doc, 'de'));
  const toks = analyze(doc, 'de').filter((t) => t.position === 1);
  assert.deepEqual(toks.map((t) => t.term).sort(), ['antrag', 'urlaub', 'urlaubsantrag']);
  for (const t of toks) assert.equal(doc.slice(t.start, t.end), 'Urlaubsantrag');
});

test('splitGermanCompound splits recursively with linking morphemes', () => {
  assert.deepEqual(splitGermanCompound('Urlaubsantrag'), ['urlaub', 'antrag']);
  assert.deepEqual(splitGermanCompound('Urlaubsanträge'), ['urlaub', 'antrage']);
  assert.deepEqual(splitGermanCompound('Reisekostenabrechnung'), ['reise', 'kosten', 'abrechnung']);
  assert.deepEqual(splitGermanCompound('Arbeitszeiterfassung'), ['arbeit', 'zeit', 'erfassung']);
  assert.deepEqual(splitGermanCompound('Kundennummer'), ['kunde', 'nummer']);
  assert.deepEqual(splitGermanCompound('Datenschutzerklärung'), ['daten', 'schutz', 'erklarung']);
  assert.deepEqual(splitGermanCompound('Kontakt'), []);
  assert.deepEqual(splitGermanCompound('Abteilung'), []);
  assert.deepEqual(splitGermanCompound('xyz'), []);
});

test('unlisted -ung/-heit words count as parts; plain derived words stay whole', () => {
  assert.deepEqual(splitGermanCompound('Softwareaktualisierung'), ['software', 'aktualisierung']);
  assert.deepEqual(splitGermanCompound('Kundenzufriedenheit'), ['kunde', 'zufriedenheit']);
  assert.deepEqual(splitGermanCompound('Archivierungspflicht'), ['archivierung', 'pflicht']);
  assert.deepEqual(splitGermanCompound('Störungsmeldung'), ['storung', 'meldung']);
  for (const w of [
    'Information',
    'Verwaltung',
    'Persönlichkeit',
    'Beratung',
    'Zeitung',
    'Gesundheit',
    'Entwicklung',
    'Organisation',
    'Wirtschaft',
    'Mitarbeiter',
    'Unternehmen',
    'Kalender',
  ]) {
    assert.deepEqual(splitGermanCompound(w), [], w);
  }
});

test('three-part compounds also index their leading and trailing sub-compounds', () => {
  const t = terms('Datenschutzbeauftragter', 'de');
  for (const want of ['datenschutz', 'schutz', 'beauftragt']) assert.ok(t.includes(want), want);
  assert.ok(matches('Datenschutz', 'Unser Datenschutzbeauftragter', 'de'));
});

test('analyzeQuery: one entry per surface word, hint language first, other language second', () => {
  const q = analyzeQuery('Die laufenden Anträge running', 'de');
  assert.deepEqual(
    q.map((w) => w.text),
    ['Die', 'laufenden', 'Anträge', 'running'],
  );
  assert.equal(q[0].stopword, true);
  assert.deepEqual(q[0].terms, []);
  assert.deepEqual(q[1].terms, ['laufend', 'laufenden']);
  assert.deepEqual(q[2].terms[0], 'antrag');
  assert.deepEqual(q[3].terms, ['running', 'run']);
  const en = analyzeQuery('running', 'en');
  assert.deepEqual(en[0].terms, ['run', 'running']);
});

test('analyzeQuery finds documents whatever their language', () => {
  assert.ok(matches('running', 'The dog was running fast', 'en', 'de'));
  assert.ok(matches('Häuser', 'Die Häuser sind alt', 'de', 'en'));
});

test('analyzeQuery gives compound parts; technical compounds become their parts, the first with the whole term', () => {
  const [w] = analyzeQuery('Urlaubsantrag', 'de');
  assert.deepEqual(w.terms, ['urlaubsantrag']);
  assert.deepEqual(w.parts, ['urlaub', 'antrag']);
  const q = analyzeQuery('config_file.ts error', 'en');
  assert.deepEqual(
    q.map((x) => x.text),
    ['config', 'file', 'ts', 'error'],
  );
  assert.deepEqual(q[0].terms, ['config_file.ts', 'config']);
  assert.deepEqual(q[1].terms, ['file', 'fil']);
  assert.deepEqual(q[3].terms, ['error']);
  // consecutive query words stand at consecutive index positions
  const idx = analyze('see config_file.ts error', 'en');
  const at = (term: string): number => idx.find((t) => t.term === term)?.position ?? -1;
  assert.equal(at('config_file.ts'), at('config'));
  assert.equal(at('error') - at('config'), 3);
  const stop = analyzeQuery('the-end', 'en');
  assert.deepEqual(
    stop.map((x) => [x.terms, x.stopword]),
    [
      [['theend'], false],
      [['end'], false],
    ],
  );
});

test('query terms equal index terms for the same text and language', () => {
  const text = 'Die Mitarbeiterinnen reichten Reisekostenabrechnungen ein; running databases';
  for (const lang of ['de', 'en'] as const) {
    const indexed = new Set(terms(text, lang));
    for (const w of analyzeQuery(text, lang)) {
      if (w.stopword) continue;
      assert.ok(indexed.has(w.terms[0]), `${lang}: ${w.text} -> ${w.terms[0]}`);
      for (const p of w.parts) if (lang === 'de') assert.ok(indexed.has(p), `${lang}: part ${p}`);
    }
  }
});

test('detectLanguage', () => {
  assert.equal(detectLanguage('The committee approved the budget for the next year and the plan was published.'), 'en');
  assert.equal(detectLanguage('Der Antrag wurde von der Abteilung geprüft und ist nicht genehmigt worden.'), 'de');
  assert.equal(detectLanguage('Größe Übermaß Straße'), 'de');
  assert.equal(detectLanguage(''), 'de');
  assert.equal(detectLanguage('12345 !!!'), 'de');
  assert.equal(detectLanguage('Server'), 'de', 'no evidence: default de');
  assert.equal(detectLanguage('Meeting am Montag'), 'de', 'weak English evidence is not enough');
  assert.equal(detectLanguage('Server Wartung heute Nacht'), 'de');
  assert.equal(detectLanguage('Dirtily: in a dirty manner; foully; nastily; filthily'), 'en', 'letter patterns add up');
  assert.equal(detectLanguage('How to reset your password'), 'en');
});

test('wrong input types and unknown languages give a typed AnalysisError', () => {
  const bad = (f: () => unknown, code: string): void => {
    assert.throws(f, (e: unknown) => e instanceof AnalysisError && e.code === code);
  };
  bad(() => analyze(undefined as unknown as string, 'de'), 'invalid_text');
  bad(() => analyze(42 as unknown as string, 'en'), 'invalid_text');
  bad(() => analyze('text', 'fr' as Language), 'invalid_language');
  bad(() => analyzeQuery(null as unknown as string, 'de'), 'invalid_text');
  bad(() => analyzeQuery('x', 'xx' as Language), 'invalid_language');
  bad(() => detectLanguage({} as unknown as string), 'invalid_text');
});
