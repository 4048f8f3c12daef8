/** Highlight markup: matches in <em>, everything else escaped, hostile text and ranges harmless. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, highlightMarkup } from '../../../src/search/markup.ts';
import { prng } from '../../support/prng.ts';

test('escapes the five HTML-special characters', () => {
  assert.equal(
    escapeHtml(`<a href="x" onclick='y'>&amp;</a>`),
    '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
  );
});

test('wraps ranges and escapes matched and unmatched text', () => {
  assert.equal(highlightMarkup('a <b> c', [[2, 5]]), 'a <em>&lt;b&gt;</em> c');
  assert.equal(highlightMarkup('<script>x</script> hit', [[19, 22]]), '&lt;script&gt;x&lt;/script&gt; <em>hit</em>');
  assert.equal(highlightMarkup('no ranges & <i>', []), 'no ranges &amp; &lt;i&gt;');
});

test('overlapping, unsorted, out-of-bounds and malformed ranges are normalised', () => {
  assert.equal(
    highlightMarkup('abcdef', [
      [3, 5],
      [0, 2],
      [1, 3],
    ]),
    '<em>abcde</em>f',
  );
  assert.equal(
    highlightMarkup('abc', [
      [-5, 1],
      [2, 99],
    ]),
    '<em>a</em>b<em>c</em>',
  );
  assert.equal(highlightMarkup('abc', [[2, 1], [1.5, 2] as [number, number], [NaN, 2] as [number, number]]), 'abc');
});

test('random hostile text: only <em> tags survive and the text round-trips', () => {
  const rnd = prng(1234);
  const alphabet = ['<', '>', '&', '"', "'", 'a', ' ', 'é', '<em>', '</em>', '&lt;', '\u0000'];
  for (let i = 0; i < 500; i++) {
    let text = '';
    for (let n = rnd.int(40); n > 0; n--) text += rnd.pick(alphabet);
    const ranges: [number, number][] = [];
    for (let n = rnd.int(4); n > 0; n--) ranges.push([rnd.int(text.length + 4) - 2, rnd.int(text.length + 4) - 2]);
    const html = highlightMarkup(text, ranges);
    const tags = html.match(/<[^>]*>/g) ?? [];
    assert.ok(
      tags.every((t) => t === '<em>' || t === '</em>'),
      html,
    );
    const decoded = html
      .replace(/<\/?em>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
    assert.equal(decoded, text);
  }
});
