/** Highlights (passages with match ranges) and summaries. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, indexOf } from '../helpers/index-fixture.ts';
import { highlightText, splitSentences } from '../../../engine/highlight/passages.ts';
import { cutAtWord, summarize } from '../../../engine/highlight/summary.ts';
import { simpleAnalyze } from '../helpers/simple-analyzer.ts';

const body =
  'Introduction. The weather was mild all week. Our holiday request was approved on Monday! ' +
  'Travel plans changed twice. The holiday itself was spent near the sea, and every holiday photo shows the sea.\n' +
  'Costs were low.';

test('sentences split at terminal punctuation and line breaks, trimmed', () => {
  const parts = splitSentences('One two. Three?  Four\nFive').map(([s, e]) =>
    'One two. Three?  Four\nFive'.slice(s, e),
  );
  assert.deepEqual(parts, ['One two.', 'Three?', 'Four', 'Five']);
});

test('passages carry ranges that cover exactly the matched words', () => {
  const weights = new Map([
    ['holiday', 2],
    ['sea', 1],
  ]);
  const passages = highlightText('body', body, simpleAnalyze(body, 'en'), weights, { maxPassages: 2 });
  assert.equal(passages.length, 2);
  for (const p of passages) {
    assert.equal(p.field, 'body');
    assert.ok(p.ranges.length > 0);
    for (const [s, e] of p.ranges) assert.match(p.text.slice(s, e).toLowerCase(), /^(holiday|sea)$/);
  }
  // the best two, returned in document order
  assert.ok(body.indexOf(passages[0].text) < body.indexOf(passages[1].text));
  assert.ok(passages[1].text.startsWith('The holiday itself'));
  assert.equal(passages[1].ranges.length, 4);
});

test('long sentences are cut around the first match at word boundaries', () => {
  const long = `${'lorem ipsum dolor '.repeat(40)}holiday ${'sit amet '.repeat(40)}`;
  const [p] = highlightText('body', long, simpleAnalyze(long, 'en'), new Map([['holiday', 1]]), {
    maxPassageLength: 80,
  });
  assert.ok(p.text.length <= 80);
  assert.ok(!p.text.startsWith(' ') && !p.text.endsWith(' '));
  const [[s, e]] = p.ranges;
  assert.equal(p.text.slice(s, e), 'holiday');
  assert.equal(highlightText('body', body, simpleAnalyze(body, 'en'), new Map([['absent', 1]])).length, 0);
});

test('searcher.highlight re-analyzes stored text with the index analyzer', async () => {
  const index = await indexOf([
    doc('a', 'Holiday request form', body),
    doc('b', 'Other', 'Nothing relevant here at all.'),
  ]);
  const s = index.reader.searcher();
  const [hit] = s.search({ query: 'holiday requests', language: 'en', limit: 1 }).hits;
  assert.equal(hit.key, 'a');
  const passages = s.highlight(hit, 'holiday requests', { language: 'en' });
  assert.ok(passages.length > 0 && passages.length <= 3);
  assert.ok(passages.some((p) => p.field === 'title'));
  for (const p of passages) {
    for (const [st, e] of p.ranges) assert.match(p.text.slice(st, e).toLowerCase(), /^(holiday|request)$/);
  }
  // excluded terms are not highlighted
  const neg = s.highlight(hit, 'holiday -request', { language: 'en' });
  assert.ok(neg.every((p) => p.ranges.every(([st, e]) => p.text.slice(st, e).toLowerCase() === 'holiday')));
  await index.close();
});

test('summary: first meaningful sentences, bounded, cut at a word boundary', async () => {
  assert.equal(
    summarize(body, { maxLength: 300, targetLength: 60 }),
    'The weather was mild all week. Our holiday request was approved on Monday!',
  );
  const long = 'word '.repeat(200);
  const cut = summarize(long, { maxLength: 50 });
  assert.ok(cut.length <= 50 && cut.endsWith('…'));
  assert.ok(!/\s…$/.test(cut));
  assert.equal(cutAtWord('short', 10), 'short');
  assert.equal(summarize('   '), '');
  const index = await indexOf([doc('a', 'Title', body)]);
  const s = index.reader.searcher();
  const [hit] = s.search({ query: 'weather', language: 'en', limit: 1 }).hits;
  const sum = s.summary(hit, { maxLength: 120 });
  assert.ok(sum.startsWith('The weather was mild') && sum.length <= 120);
  await index.close();
});
