/** Main-content extraction: boilerplate removed, the content root chosen, text rendered and cut. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMainContent, truncateText } from '../../../extractors/web/main-content.ts';

const page = (body: string, head = '<title>T &amp; Co</title><meta name="description" content="Desc &quot;x&quot;">') =>
  `<!doctype html><html><head>${head}<script>var s = "<p>not text</p>";</script><style>p { color: red }</style></head><body>${body}</body></html>`;

describe('extractMainContent', () => {
  it('drops navigation, header, footer, aside, forms, scripts and boilerplate classes', () => {
    const html = page(`<header>Site header</header><nav><a href="/">Home</a></nav>
      <div class="cookie-banner">Accept cookies</div><div role="navigation">Role nav</div>
      <form><label>Search</label><input name="q"></form>
      <div id="content"><p>The actual article text, long enough to be a paragraph of real content.</p></div>
      <aside>Related links</aside><div class="share-buttons">Share this</div><footer>Copyright</footer>`);
    const out = extractMainContent(html, 10_000);
    assert.equal(out.title, 'T & Co');
    assert.equal(out.description, 'Desc "x"');
    assert.match(out.text, /The actual article text/);
    for (const junk of [
      'Site header',
      'Home',
      'Accept cookies',
      'Role nav',
      'Search',
      'Related links',
      'Share this',
      'Copyright',
      'not text',
      'color',
    ]) {
      assert.doesNotMatch(out.text, new RegExp(junk), junk);
    }
  });

  it('prefers <main>, then <article>', () => {
    const withMain = page(
      '<div><p>Outside text that is fairly long, but not in the main element at all.</p></div><main><p>Main text.</p></main>',
    );
    assert.equal(extractMainContent(withMain, 1000).text, 'Main text.');
    const withArticle = page(
      '<div class="wrapper"><p>Teaser outside.</p><article><h1>Title</h1><p>Article body.</p></article></div>',
    );
    assert.equal(extractMainContent(withArticle, 1000).text, 'Title\nArticle body.');
  });

  it('picks the densest text block over link lists', () => {
    const links = Array.from(
      { length: 30 },
      (_, i) => `<p><a href="/${i}">A link list entry number ${i} with some words</a></p>`,
    ).join('');
    const content = Array.from(
      { length: 4 },
      (_, i) => `<p>Paragraph ${i}: real prose, with commas, clauses and enough words to count.</p>`,
    ).join('');
    const out = extractMainContent(page(`<div class="x">${links}</div><div class="y">${content}</div>`), 10_000);
    assert.match(out.text, /^Paragraph 0/);
    assert.doesNotMatch(out.text, /link list entry/);
  });

  it('renders blocks on their own lines and decodes entities', () => {
    const out = extractMainContent(
      page('<main><h2>Head</h2><p>One&nbsp;&amp;   two<br>three</p><ul><li>a</li><li>b</li></ul></main>'),
      1000,
    );
    assert.equal(out.text, 'Head\nOne\u00a0& two\nthree\na\nb'.replace('\u00a0', ' '));
  });

  it('survives broken markup', () => {
    const out = extractMainContent('<div><p>unclosed <b>bold <i>italic</div></span><p>next', 1000);
    assert.equal(out.text, 'unclosed bold italic\nnext');
    assert.equal(extractMainContent('', 100).text, '');
  });

  it('cuts long text on a word boundary', () => {
    const out = extractMainContent(page(`<main><p>${'word '.repeat(1000)}</p></main>`), 100);
    assert.equal(out.truncated, true);
    assert.ok(out.text.length <= 101);
    assert.match(out.text, /word…$/);
    assert.deepEqual(truncateText('short', 10), { text: 'short', truncated: false });
  });
});
