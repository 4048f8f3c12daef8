/**
 * State table precedence: a push with the same id, the same last_modified and the same access
 * tokens as the accepted version is `already_indexed` (nothing queued, edits ignored), also when
 * the edited title would give a suffix the pipeline rejects: an ignored edit must not remove the
 * indexed document. With a new last_modified the edit counts, and the document is skipped.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, docsHarness, type DocsHarness } from '../../support/documents.ts';

let h: DocsHarness;

before(async () => {
  h = await docsHarness();
  assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
  assert.equal((await h.api('POST', '/documents', { documents: doc() })).body.results[0].outcome, 'sent');
  await h.commit();
});
after(() => h.close());

const indexed = () => h.index.reader.searcher().get('wiki:doc-1');

describe('already_indexed before the suffix rule', () => {
  test('an unchanged push with a title that would be skipped is already_indexed and keeps the document', async () => {
    const before = h.documents.queue.next;
    const r = await h.api('POST', '/documents', { documents: doc({ title: 'Kickoff.Announcements' }) });
    assert.equal(r.body.results[0].outcome, 'already_indexed', JSON.stringify(r.body));
    assert.equal(h.documents.queue.next, before, 'nothing was queued');
    await h.commit();
    assert.equal(indexed()?.stored.title, 'Travel policy');
    assert.equal((await h.api('GET', '/documents/wiki/doc-1')).body.state, 'indexed');
  });

  test('the same in bulk', async () => {
    const r = await h.api('POST', '/documents', { documents: [doc({ title: 'Kickoff.Announcements' })] });
    assert.deepEqual(
      r.body.results.map((x: { outcome: string }) => x.outcome),
      ['already_indexed'],
    );
    await h.commit();
    assert.ok(indexed());
  });

  test('with a new last_modified the document is skipped and removed', async () => {
    const r = await h.api('POST', '/documents', {
      documents: doc({ title: 'Kickoff.Announcements', last_modified: '2026-05-01T00:00:00Z' }),
    });
    assert.equal(r.body.results[0].outcome, 'skipped');
    await h.commit();
    assert.ok(!indexed());
    // Skipped: no accepted version, so the same push is skipped again rather than already_indexed.
    const again = await h.api('POST', '/documents', {
      documents: doc({ title: 'Kickoff.Announcements', last_modified: '2026-05-01T00:00:00Z' }),
    });
    assert.equal(again.body.results[0].outcome, 'skipped');
  });
});
