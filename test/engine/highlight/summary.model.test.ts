/**
 * Summaries against a model: summarize gives exactly what the plain rule gives (normalise
 * every sentence, keep the meaningful ones if any, add them while they fit), on random texts
 * of headings, short and long sentences, blank lines and runs of whitespace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutAtWord, DEFAULT_SUMMARY, summarize, type SummaryOptions } from '../../../engine/highlight/summary.ts';
import { splitSentences } from '../../../engine/highlight/passages.ts';
import { int, rng } from '../helpers/random.ts';

const WORD = /[\p{L}\p{N}]*\p{L}[\p{L}\p{N}]*/gu;

function model(text: string, options: Partial<SummaryOptions> = {}): string {
  const o = { ...DEFAULT_SUMMARY, ...options };
  const head = text.slice(0, Math.max(o.maxLength * 20, 4000));
  const sentences = splitSentences(head)
    .map(([s, e]) => head.slice(s, e).replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0);
  if (sentences.length === 0) return '';
  const meaningful = sentences.filter((s) => (s.match(WORD)?.length ?? 0) >= o.minWords);
  const pool = meaningful.length > 0 ? meaningful : sentences;
  let out = '';
  for (const s of pool) {
    const next = out ? `${out} ${s}` : s;
    if (next.length > o.maxLength) {
      if (!out) out = cutAtWord(s, o.maxLength);
      break;
    }
    out = next;
    if (out.length >= o.targetLength) break;
  }
  return out;
}

test('summarize equals the model on random texts', () => {
  const r = rng(11);
  const words = ['Urlaub', 'antrag', 'the', 'weather', '42', 'ß', 'über', 'x', 'Page', 'mild', 'approved', '—', 'a.b'];
  const ends = ['. ', '! ', '? ', '\n', '\n\n  ', '… ', '." ', ' ', '  \t ', '.\u00a0', ', \u2003', '\u3000'];
  for (let i = 0; i < 2000; i++) {
    let text = '';
    for (let n = int(r, 0, 25); n > 0; n--) {
      for (let w = int(r, 1, i % 3 === 0 ? 3 : 40); w > 0; w--)
        text +=
          words[int(r, 0, words.length - 1)] + [' ', ' ', ' ', ' ', ' ', ' ', ' ', '  ', '\u00a0', '\t'][int(r, 0, 9)];
      text += ends[int(r, 0, ends.length - 1)];
    }
    const options = i % 2 ? {} : { maxLength: int(r, 10, 300), targetLength: int(r, 5, 200), minWords: int(r, 1, 6) };
    assert.equal(summarize(text, options), model(text, options), JSON.stringify({ text, options }));
  }
});
