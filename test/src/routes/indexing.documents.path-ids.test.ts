/**
 * Document ids must stay addressable in DELETE/GET /documents/{datasource}/{document_id}:
 * `.` and `..` are dot segments that every URL parser removes (also percent-encoded), so
 * such a document could be pushed but never deleted; they are rejected at push time.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, docsHarness, type DocsHarness } from '../../support/documents.ts';

let h: DocsHarness;

before(async () => {
  h = await docsHarness();
  assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
});
after(() => h.close());

describe('dot-segment ids', () => {
  for (const id of ['.', '..']) {
    test(`'${id}' is a 422 at body.documents.id in the single form`, async () => {
      const r = await h.api('POST', '/documents', { documents: doc({ id }) });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.deepEqual(
        r.body.detail.map((d: { loc: unknown[] }) => d.loc),
        [['body', 'documents', 'id']],
      );
      assert.match(r.body.detail[0].msg, /'\.' or '\.\.'/);
    });

    test(`'${id}' is a failed entry in bulk, the rest continue`, async () => {
      const r = await h.api('POST', '/documents', { documents: [doc({ id }), doc({ id: `fine${id.length}` })] });
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.results.map((x: { outcome: string }) => x.outcome),
        ['failed', 'sent'],
      );
      assert.match(r.body.results[0].message, /^id: /);
    });
  }

  test('other ids made of dots are pushed, and deleted through the path', async () => {
    for (const id of ['...', '.hidden', 'a..b']) {
      const r = await h.api('POST', '/documents', { documents: doc({ id }) });
      assert.equal(r.body.results?.[0]?.outcome, 'sent', `${id}: ${JSON.stringify(r.body)}`);
      await h.commit();
      assert.equal((await h.api('GET', `/documents/wiki/${id}`)).body.state, 'indexed', id);
      const del = await h.api('DELETE', `/documents/wiki/${id}`);
      assert.equal(del.status, 200, id);
      assert.equal(del.body.document_id, id);
      await h.commit();
      assert.ok(!h.index.reader.searcher().get(`wiki:${id}`), `${id} is gone`);
    }
  });
});
