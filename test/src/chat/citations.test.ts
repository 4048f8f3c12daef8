/** CitationWriter: renumbering by first use, unknown markers kept, and no marker split across emitted pieces, at every split point. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CitationWriter } from '../../../src/chat/citations.ts';
import type { Source } from '../../../src/chat/types.ts';

const sources: Source[] = [1, 2, 3].map((key) => ({
  key,
  id: `d${key}`,
  title: `T${key}`,
  path_preview: `p${key}`,
  datasource: 'wiki',
  text: '',
}));
const writer = () => new CitationWriter((k) => sources[k - 1]);

describe('CitationWriter', () => {
  it('renumbers by first use and lists the cited sources in answer order', () => {
    const w = writer();
    const out = w.write('A [3] b [1], c [3] d [2, 3] e [9] f [x].') + w.end();
    assert.equal(out, 'A [1] b [2], c [1] d [3][1] e [9] f [x].');
    assert.deepEqual(
      w.citations().map((c) => [c.number, c.id]),
      [
        [1, 'd3'],
        [2, 'd1'],
        [3, 'd2'],
      ],
    );
  });

  it('a marker listing a known and an unknown key cites the known source under its answer number, never under its retrieval key', () => {
    const w = writer();
    const out = w.write('Salary [2]. Trains [1, 7].') + w.end();
    assert.equal(out, 'Salary [1]. Trains [2].');
    assert.deepEqual(
      w.citations().map((c) => [c.number, c.id]),
      [
        [1, 'd2'],
        [2, 'd1'],
      ],
    );
  });

  it('never emits part of a marker, wherever the deltas are split', () => {
    const text = 'See [2] and [1][3], also [12] or [2, 1]. [';
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j++) {
        const w = writer();
        const pieces = [w.write(text.slice(0, i)), w.write(text.slice(i, j)), w.write(text.slice(j)), w.end()];
        assert.equal(pieces.join(''), 'See [1] and [2][3], also [12] or [1][2]. [', `split ${i}/${j}`);
        for (const p of pieces.slice(0, 3))
          assert.doesNotMatch(p, /\[[\d,\s]*$/, `piece ${JSON.stringify(p)} at ${i}/${j}`);
      }
    }
  });

  it('leaves bracketed numbers in code alone (inline code and fenced blocks), wherever the deltas are split', () => {
    const text =
      'See [2]. Use `items[1]` or ``a[3]``:\n```ts\nx = a[1];\n```\nthen [1].\nA stray ` [3]\nends at the line end [3].';
    const expected =
      'See [1]. Use `items[1]` or ``a[3]``:\n```ts\nx = a[1];\n```\nthen [2].\nA stray ` [3]\nends at the line end [3].';
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j++) {
        const w = writer();
        const pieces = [w.write(text.slice(0, i)), w.write(text.slice(i, j)), w.write(text.slice(j)), w.end()];
        assert.equal(pieces.join(''), expected, `split ${i}/${j}`);
      }
    }
    const w = writer();
    w.write(text);
    w.end();
    assert.deepEqual(
      w.citations().map((c) => c.id),
      ['d2', 'd1', 'd3'],
    );
  });

  it('passes text without brackets through at once, and gives up holding a bracket that is no marker', () => {
    const w = writer();
    assert.equal(w.write('plain text'), 'plain text');
    assert.equal(w.write(' [1'), ' ');
    assert.equal(w.write('a'), '[1a');
  });
});
