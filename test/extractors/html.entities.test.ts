/**
 * HTML character references are decoded from the complete HTML5 table, in text, in the title and in
 * attribute values (meta author), including names the old hand-kept list lacked, legacy names without a
 * semicolon and numeric references with the spec's replacements; unknown names stay as written.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractInline } from '../../extractors/index.ts';

const html = (body: string, head = '') =>
  extractInline(new TextEncoder().encode(`<html><head>${head}</head><body>${body}</body></html>`), {
    mediaType: 'text/html; charset=utf-8',
  });

test('named references beyond Latin-1 and punctuation: Greek, arrows, maths, card suits, two-code-point names', async () => {
  const e = await html(
    '<p>&alpha;&Omega; &rArr; &sum;&isin;&nbsp;&hearts; &Afr; &fjlig; &NotNestedGreaterGreater; &starf;</p>',
  );
  assert.equal(e.text, '\u03b1\u03a9 \u21d2 \u2211\u2208\u00a0\u2665 \u{1d504} fj \u2aa2\u0338 \u2605');
});

test('legacy names without a semicolon, numeric references, unknown names', async () => {
  const e = await html('<p>Fish &amp chips &copy 2026 &#x80;&#8364;&#0; &unknownname; &ampx</p>');
  assert.equal(e.text, 'Fish & chips \u00a9 2026 \u20ac\u20ac\ufffd &unknownname; &x');
});

test('the title and attribute values are decoded; an attribute keeps a legacy name before = or a letter', async () => {
  const e = await html(
    '<p>x</p>',
    '<title>Caf&eacute; &mdash; &lambda;-calculus</title><meta name="author" content="Ana &amp; Ben &copy=x &Scaron;">',
  );
  assert.equal(e.title, 'Caf\u00e9 \u2014 \u03bb-calculus');
  assert.equal(e.author, 'Ana & Ben &copy=x \u0160');
});
