/** POST/DELETE/GET /api/indexing/documents: outcomes of the state table, envelopes, bulk counting, deletes and status. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { doc, docsHarness, type DocsHarness } from '../../support/documents.ts';

let h: DocsHarness;

before(async () => {
  h = await docsHarness({ env: { INDEXING_API_MAX_BINARY_BYTES: '200000' } });
  const ds = await h.api('POST', '/datasources', {
    name: 'wiki',
    display_name: 'Wiki',
    subs: [{ name: 'HR' }, { name: 'Policies', parent_key: 'hr' }],
    object_definitions: [
      {
        name: 'page',
        property_definitions: [
          { name: 'pages', display_label: 'Pages', is_searchable: false, property_type: 'INTEGER' },
        ],
      },
    ],
  });
  assert.equal(ds.status, 200);
});
after(() => h.close());

const search = (q: string) => h.index.reader.searcher().search({ query: q, limit: 10, language: 'en' });

describe('single form', () => {
  test('a new document is sent, with the single-form response shape', async () => {
    const r = await h.api('POST', '/documents', { documents: doc() });
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body).sort(), ['datasource', 'documents_received', 'message', 'results', 'status']);
    assert.equal(r.body.status, 'ok');
    assert.equal(r.body.datasource, 'wiki');
    assert.equal(r.body.documents_received, null);
    assert.equal(r.body.results.length, 1);
    assert.equal(r.body.results[0].document_id, 'doc-1');
    assert.equal(r.body.results[0].outcome, 'sent');
    assert.equal(typeof r.body.results[0].message, 'string');
  });

  test('it is invisible until the commit, then searchable', async () => {
    await h.documents.pipeline.drained();
    assert.equal(search('trains').hits.length, 0);
    await h.commit();
    const hits = search('trains').hits;
    assert.equal(hits.length, 1);
    assert.equal(hits[0].key, 'wiki:doc-1');
  });

  test('same id, same last_modified and same tokens: already_indexed, edits ignored, nothing queued', async () => {
    const before = h.documents.queue.next;
    const r = await h.api('POST', '/documents', {
      documents: doc({
        title: 'Edited title',
        body: { mime_type: 'text/plain', text_content: 'different words entirely' },
      }),
    });
    assert.equal(r.body.results[0].outcome, 'already_indexed');
    assert.equal(h.documents.queue.next, before, 'nothing was queued');
    await h.commit();
    assert.equal(search('entirely').hits.length, 0);
  });

  test('a new last_modified or a permission change is sent again and replaces the document', async () => {
    let r = await h.api('POST', '/documents', {
      documents: doc({
        last_modified: '2026-02-01T00:00:00Z',
        body: { mime_type: 'text/plain', text_content: 'bicycles are reimbursed' },
      }),
    });
    assert.equal(r.body.results[0].outcome, 'sent');
    r = await h.api('POST', '/documents', {
      documents: doc({ last_modified: '2026-02-01T00:00:00Z', permissions: { allowed_users: [{ email: 'a@x.org' }] } }),
    });
    assert.equal(r.body.results[0].outcome, 'sent');
    r = await h.api('POST', '/documents', {
      documents: doc({ last_modified: '2026-02-01T00:00:00Z', permissions: { allowed_users: [{ email: 'A@X.org' }] } }),
    });
    assert.equal(r.body.results[0].outcome, 'already_indexed', 'emails compare lowercased');
    await h.commit();
    assert.equal(h.index.reader.searcher().numDocs, 1);
  });

  test('a missing datasource is 404 {detail}', async () => {
    const r = await h.api('POST', '/documents', { documents: doc({ datasource: 'nope' }) });
    assert.equal(r.status, 404);
    assert.equal(typeof r.body.detail, 'string');
  });

  test('field violations are 422 validation items under body.documents', async () => {
    const r = await h.api('POST', '/documents', { documents: doc({ id: 'bad id!', file_type: 'pdf' }) });
    assert.equal(r.status, 422);
    const locs = r.body.detail.map((d: { loc: unknown[] }) => d.loc);
    assert.deepEqual(locs, [
      ['body', 'documents', 'id'],
      ['body', 'documents', 'file_type'],
    ]);
  });

  test('both text_content and binary_base64 is 422', async () => {
    const r = await h.api('POST', '/documents', {
      documents: doc({ body: { mime_type: 'text/plain', text_content: 'x', binary_base64: 'eA==' } }),
    });
    assert.equal(r.status, 422);
    assert.match(r.body.detail[0].msg, /exactly one/);
  });

  test('a decoded binary over INDEXING_API_MAX_BINARY_BYTES is 422', async () => {
    const big = Buffer.alloc(200_001, 1).toString('base64');
    const r = await h.api('POST', '/documents', {
      documents: doc({ id: 'big', body: { mime_type: 'application/pdf', binary_base64: big } }),
    });
    assert.equal(r.status, 422);
    assert.match(r.body.detail[0].msg, /exceeds the limit of 200000 bytes/);
  });

  test('schema errors are 422 in the error_code envelope', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ data_source_sub: 'finance' }, 'INVALID_DATA_SOURCE_SUB'],
      [{ data_source_sub_sub: 'nothing' }, 'INVALID_DATA_SOURCE_SUB_SUB'],
      [{ custom_properties: [{ name: 'colour', value: 'red' }] }, 'UNKNOWN_PROPERTY'],
      [{ custom_properties: [{ name: 'pages', value: 'ten' }] }, 'INVALID_PROPERTY_TYPE'],
    ];
    for (const [over, code] of cases) {
      const r = await h.api('POST', '/documents', { documents: doc({ id: 'schema', ...over }) });
      assert.equal(r.status, 422, code);
      assert.equal(r.body.status, 'error');
      assert.equal(r.body.details.error_code, code);
      assert.equal(typeof r.body.details.message, 'string');
    }
  });

  test('a child sub sent alone has its parent inferred', async () => {
    const r = await h.api('POST', '/documents', { documents: doc({ id: 'sub-doc', data_source_sub_sub: 'policies' }) });
    assert.equal(r.body.results[0].outcome, 'sent');
    await h.commit();
    const got = h.index.reader.searcher().get('wiki:sub-doc');
    assert.deepEqual(got?.keywords.sub, ['wiki__hr']);
    assert.deepEqual(got?.keywords.sub_sub, ['wiki__hr__policies']);
  });

  test('a computed suffix longer than 10 characters is skipped with an explanation', async () => {
    const r = await h.api('POST', '/documents', {
      documents: doc({ id: 'long-suffix', title: 'notes.verylongextension' }),
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.results[0].outcome, 'skipped');
    assert.match(r.body.results[0].message, /suffix 'verylongextension' is longer than 10/);
    await h.commit();
    assert.equal(h.index.reader.searcher().get('wiki:long-suffix'), null);
  });

  test('a body without any json is a missing body', async () => {
    const r = await h.api('POST', '/documents');
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.detail[0].loc, ['body']);
  });
});

describe('bulk form', () => {
  test('items are processed in order; failures are entries; the message counts every outcome', async () => {
    const r = await h.api('POST', '/documents', {
      documents: [
        doc({ id: 'b1' }),
        doc({ id: 'b1' }),
        doc({ id: 'b2', datasource: 'nope' }),
        doc({ id: 'b3', data_source_sub: 'finance' }),
        doc({ id: 'bad id' }),
        doc({ id: 'b4', title: 'x.superlongsuffix' }),
        doc({ id: 'b5' }),
      ],
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'ok');
    assert.equal(r.body.documents_received, 7);
    assert.equal('datasource' in r.body, false);
    assert.deepEqual(
      r.body.results.map((x: { outcome: string }) => x.outcome),
      ['sent', 'already_indexed', 'failed', 'failed', 'failed', 'skipped', 'sent'],
    );
    assert.match(r.body.results[2].message, /not found/);
    assert.match(r.body.results[3].message, /INVALID_DATA_SOURCE_SUB/);
    assert.match(r.body.results[4].message, /id/);
    assert.equal(r.body.message, '7 documents received: 2 sent, 1 already indexed, 1 skipped, 3 failed');
  });

  test('a documents value that is neither object nor array is 422', async () => {
    const r = await h.api('POST', '/documents', { documents: 'x' });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.detail[0].loc.slice(0, 2), ['body', 'documents']);
  });
});

describe('binary bodies', () => {
  test('a DOCX is extracted on the server and its text is searchable', async () => {
    const b64 = (await readFile(new URL('../../extractors/fixtures/sample.docx', import.meta.url))).toString('base64');
    const r = await h.api('POST', '/documents', {
      documents: doc({
        id: 'docx-1',
        title: 'Quarterly report',
        file_type: 'file',
        body: {
          mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          binary_base64: b64,
        },
      }),
    });
    assert.equal(r.body.results[0].outcome, 'sent');
    await h.commit();
    const got = h.index.reader.searcher().get('wiki:docx-1');
    assert.ok(got);
    assert.equal(got.stored.suffix, 'docx');
    assert.deepEqual(got.keywords.file_type, ['word']);
    assert.equal(got.stored.file_size, Buffer.from(b64, 'base64').byteLength);
  });

  test('a corrupt binary is accepted, then fails in the pipeline with the extraction message', async () => {
    const r = await h.api('POST', '/documents', {
      documents: doc({
        id: 'broken',
        file_type: 'file',
        body: { mime_type: 'application/pdf', binary_base64: Buffer.from('not a pdf at all').toString('base64') },
      }),
    });
    assert.equal(r.body.results[0].outcome, 'sent');
    await h.commit();
    const st = await h.api('GET', '/documents/wiki/broken');
    assert.equal(st.status, 200);
    assert.equal(st.body.state, 'failed');
    assert.match(st.body.message, /extraction or indexing failed/);
    assert.equal(h.index.reader.searcher().get('wiki:broken'), null);
  });
});

describe('status, delete', () => {
  test('status goes from queued to indexed with a commit time', async () => {
    await h.api('POST', '/documents', { documents: doc({ id: 'st-1' }) });
    let st = await h.api('GET', '/documents/wiki/st-1');
    assert.equal(st.status, 200);
    assert.equal(st.body.state, 'queued');
    assert.equal(st.body.committed_at, null);
    await h.commit();
    st = await h.api('GET', '/documents/wiki/st-1');
    assert.equal(st.body.state, 'indexed');
    assert.equal(st.body.outcome, 'sent');
    assert.equal(st.body.last_modified, '2026-01-01T00:00:00Z');
    assert.ok(!Number.isNaN(Date.parse(st.body.committed_at)));
  });

  test('status of an unknown document or datasource is 404', async () => {
    assert.equal((await h.api('GET', '/documents/wiki/never')).status, 404);
    assert.equal((await h.api('GET', '/documents/nope/st-1')).status, 404);
  });

  test('delete is 200 also for unknown ids, 404 for a missing datasource, and removes at the next commit', async () => {
    const unknown = await h.api('DELETE', '/documents/wiki/never-existed');
    assert.equal(unknown.status, 200);
    assert.equal((await h.api('DELETE', '/documents/nope/st-1')).status, 404);
    const r = await h.api('DELETE', '/documents/wiki/st-1');
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'ok');
    assert.ok(h.index.reader.searcher().get('wiki:st-1'), 'still there before the commit');
    await h.commit();
    assert.equal(h.index.reader.searcher().get('wiki:st-1'), null);
    assert.equal((await h.api('GET', '/documents/wiki/st-1')).body.state, 'deleted');
  });

  test('deleting the datasource removes its documents from the index', async () => {
    await h.api('POST', '/datasources', { name: 'temp', display_name: 'Temp' });
    await h.api('POST', '/documents', { documents: doc({ datasource: 'temp', id: 't1' }) });
    await h.commit();
    assert.ok(h.index.reader.searcher().get('temp:t1'));
    const del = await h.api('DELETE', '/datasources/temp');
    assert.equal(del.status, 200);
    await h.commit();
    assert.equal(h.index.reader.searcher().get('temp:t1'), null);
  });

  test('requests without a service-account key are 401', async () => {
    assert.equal((await h.call('POST', '/api/indexing/documents', null, { documents: doc() })).status, 401);
  });
});
