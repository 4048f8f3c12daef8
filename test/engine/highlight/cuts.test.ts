/**
 * Where highlights and summaries cut text that has no spaces to cut at (CJK, runs of emoji,
 * letters with combining marks): a cut lands between user-perceived characters, never inside a
 * surrogate pair, between a letter and its marks, or inside a ZWJ emoji sequence.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Index, Searcher } from '../../../engine/index.ts';
import { doc, indexOf } from '../helpers/index-fixture.ts';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Offsets of every grapheme boundary of `text`, its end included. */
const boundaries = (text: string) => new Set([...[...segmenter.segment(text)].map((s) => s.index), text.length]);

const TEXTS: Record<string, string> = {
  astral: `日日${'😀'.repeat(200)}東${'𠀀'.repeat(200)}`,
  marks: `x${'e\u0301'.repeat(200)}東${'a\u0308'.repeat(200)}x`,
  zwj: `${'👨\u200d👩\u200d👧'.repeat(40)}東${'🏳️\u200d🌈'.repeat(40)}`,
  flags: `a${'🇩🇪🇫🇷'.repeat(60)}東${'🇮🇹'.repeat(80)}`,
};

let index: Index;
let s: Searcher;
before(async () => {
  index = await indexOf(Object.entries(TEXTS).map(([key, body]) => doc(key, 'Titel', body, { language: 'de' })));
  s = index.reader.searcher();
});
after(async () => {
  index.reader.release(s);
  await index.close();
});

/** Asserts that `part` occurs in `text` starting and ending at grapheme boundaries. */
function assertWhole(text: string, part: string, what: string): void {
  const at = text.indexOf(part);
  assert.ok(at >= 0, `${what}: not a substring`);
  const b = boundaries(text);
  assert.ok(b.has(at) && b.has(at + part.length), `${what}: cut inside a character at ${at}..${at + part.length}`);
}

test('highlight passages of long unspaced sentences start and end between characters', () => {
  for (const [key, text] of Object.entries(TEXTS)) {
    const hit = s.search({ query: '東', language: 'de', limit: 10 }).hits.find((h) => h.key === key);
    assert.ok(hit, key);
    const passages = s.highlight(hit, '東', { language: 'de', fields: ['body'] });
    assert.equal(passages.length, 1, key);
    const [p] = passages;
    assert.ok(p.text.length < text.length, `${key}: the passage is a window`);
    assertWhole(text, p.text, key);
    assert.deepEqual(
      p.ranges.map(([a, b]) => p.text.slice(a, b)),
      ['東'],
      key,
    );
  }
});

test('the analyzed head of a long text ends between characters', async () => {
  const text = `Nadel ${'😀'.repeat(100)}`;
  const idx = await indexOf([doc('head', 'Titel', text, { language: 'de' })]);
  const searcher = idx.reader.searcher();
  try {
    const [hit] = searcher.search({ query: 'Nadel', language: 'de', limit: 1 }).hits;
    const [p] = searcher.highlight(hit, 'Nadel', { language: 'de', fields: ['body'], maxAnalyzedChars: 101 });
    assert.ok(p.text.length <= 101);
    assertWhole(text, p.text, 'head');
  } finally {
    idx.reader.release(searcher);
    await idx.close();
  }
});

test('a summary cut out of a long sentence without spaces ends between characters', () => {
  for (const [key, text] of Object.entries(TEXTS)) {
    const hit = s.search({ query: '東', language: 'de', limit: 10 }).hits.find((h) => h.key === key);
    assert.ok(hit, key);
    const summary = s.summary(hit);
    assert.ok(summary.endsWith('…') && summary.length <= 300, key);
    const kept = summary.slice(0, -1);
    assert.ok(text.startsWith(kept), key);
    assertWhole(text, kept, key);
  }
});

test('Chinese and Japanese sentences end at 。！？ without a space, for summaries and passages', async () => {
  const ja = '東京タワーに行きました。京都も楽しかったです！また来年も旅行したいと思います。'.repeat(8);
  const idx = await indexOf([doc('ja', 'Reise', ja, { language: 'de' })]);
  const searcher = idx.reader.searcher();
  try {
    const [hit] = searcher.search({ query: '京都', language: 'de', limit: 1 }).hits;
    const summary = searcher.summary(hit);
    assert.ok(/[。！]$/.test(summary), `whole sentences, not a cut: ${summary}`);
    assert.ok(summary.length >= 30 && summary.length <= 300);
    const [p] = searcher.highlight(hit, '京都', { language: 'de', fields: ['body'] });
    assert.equal(p.text, '京都も楽しかったです！');
  } finally {
    idx.reader.release(searcher);
    await idx.close();
  }
});
