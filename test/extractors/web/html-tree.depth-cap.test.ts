/**
 * Hostile HTML nesting: the web-page tree builder nests elements at most MAX_HTML_DEPTH
 * deep (deeper ones become children of the element at that depth, as in browsers), so a
 * page of hundreds of thousands of nested elements gives a shallow tree whose text is
 * all there, and main-content extraction walks it without overflowing the stack; the
 * document HTML extractor reads at most MAX_HTML_TAGS tags and marks the rest as cut.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractHtml, MAX_HTML_TAGS } from '../../../extractors/formats/html.ts';
import { resolveLimits } from '../../../extractors/limits.ts';
import { extractMainContent } from '../../../extractors/web/main-content.ts';
import { MAX_HTML_DEPTH, parseHtml, type HtmlElement } from '../../../extractors/web/html-tree.ts';

function depth(root: HtmlElement): number {
  let max = 0;
  const stack: [HtmlElement, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [el, d] = stack.pop()!;
    max = Math.max(max, d);
    for (const c of el.children) if (typeof c !== 'string') stack.push([c, d + 1]);
  }
  return max;
}

test('deeply nested elements give a tree at most MAX_HTML_DEPTH deep, with every text kept', () => {
  const html = '<div>a'.repeat(100_000) + 'bottom';
  const { root } = parseHtml(html);
  assert.equal(depth(root), MAX_HTML_DEPTH + 1);
  let texts = 0;
  const stack: HtmlElement[] = [root];
  while (stack.length > 0) for (const c of stack.pop()!.children) typeof c === 'string' ? texts++ : stack.push(c);
  assert.equal(texts, 100_000);
});

test('main-content extraction of a page of 150,000 nested elements returns its text', () => {
  const html = `<html><body>${'<div><p>'.repeat(75_000)}deep walrus text</body></html>`;
  const r = extractMainContent(html, 6000);
  assert.match(r.text, /deep walrus text/);
});

test('the document HTML extractor stops after MAX_HTML_TAGS tags and marks the text cut', async () => {
  const page = `<p>start</p>${'<b>x</b>'.repeat(MAX_HTML_TAGS / 2)}<p>after the cap</p>`;
  const r = await extractHtml(new TextEncoder().encode(page), {
    mediaType: 'text/html',
    params: {},
    limits: resolveLimits(),
    depth: 0,
  });
  assert.match(r.text, /^start/);
  assert.doesNotMatch(r.text, /after the cap/);
  assert.equal(r.truncated, true);
  const small = await extractHtml(new TextEncoder().encode('<p>whole</p>'), {
    mediaType: 'text/html',
    params: {},
    limits: resolveLimits(),
    depth: 0,
  });
  assert.equal(small.truncated, undefined);
});
