/**
 * POST /documents with a large `binary_base64` (well under the 100 MB default limit): the
 * Base64 check must hold for any length the limit admits, so a large valid binary is `sent`
 * and a large invalid one is a 422 validation item (a `failed` entry in bulk), never a 500.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, docsHarness, type DocsHarness } from '../../support/documents.ts';

let h: DocsHarness;
// 12 MB decoded: 16 M Base64 characters.
const SIZE = 12 * 1024 * 1024;
const valid = Buffer.alloc(SIZE, 'walrus tusks ').toString('base64');
const invalid = `${valid.slice(0, -8)}!!!!${valid.slice(-4)}`;

before(async () => {
  h = await docsHarness();
  assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
});
after(() => h.close());

const binary = (id: string, b64: string) =>
  doc({ id, title: 'tusks.txt', file_type: 'file', body: { mime_type: 'text/plain', binary_base64: b64 } });

describe('large binary_base64', () => {
  test('a valid one is sent and indexed with its decoded size', async () => {
    const r = await h.api('POST', '/documents', { documents: binary('big', valid) });
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.equal(r.body.results[0].outcome, 'sent');
    await h.commit();
    const got = h.index.reader.searcher().get('wiki:big');
    assert.equal(got?.stored.file_size, SIZE);
  });

  test('an invalid one is a 422 at body.documents.body.binary_base64', async () => {
    const r = await h.api('POST', '/documents', { documents: binary('bad', invalid) });
    assert.equal(r.status, 422, JSON.stringify(r.body).slice(0, 300));
    assert.deepEqual(
      r.body.detail.map((d: { loc: unknown[] }) => d.loc),
      [['body', 'documents', 'body', 'binary_base64']],
    );
  });

  test('in bulk, an invalid one is a failed entry and a valid one is sent', async () => {
    const r = await h.api('POST', '/documents', { documents: [binary('bad2', invalid), binary('big2', valid)] });
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.deepEqual(
      r.body.results.map((x: { outcome: string }) => x.outcome),
      ['failed', 'sent'],
    );
    assert.match(r.body.results[0].message, /^body\.binary_base64: /);
  });

  test('short strings keep the padded-Base64 verdict', async () => {
    const cases: [string, string][] = [
      ['', 'sent'],
      ['SGVsbG8=', 'sent'],
      ['SGVsbA==', 'sent'],
      ['SGVs', 'sent'],
      ['SGVsbG8', 'failed'],
      ['SGV=bG8=', 'failed'],
      ['A===', 'failed'],
      ['====', 'failed'],
      ['SGVsbG8=\n', 'failed'],
      ['SGVs bG8=', 'failed'],
      ['SGVs-_8=', 'failed'],
    ];
    const r = await h.api('POST', '/documents', { documents: cases.map(([b64], i) => binary(`short${i}`, b64)) });
    assert.deepEqual(
      r.body.results.map((x: { outcome: string }) => x.outcome),
      cases.map(([, outcome]) => outcome),
    );
  });
});
