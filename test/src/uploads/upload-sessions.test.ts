/**
 * Upload sessions, the datasource-wide replace: finishing deletes the datasource's documents no
 * page named (also documents pushed outside the session), keeps those a page named even when
 * they failed; an abandoned session deletes nothing; a session survives a restart; pages of
 * another datasource are refused; ended sessions take no more pages.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { connectorHarness, tempDir, type ConnectorHarness } from '../../support/connectors.ts';

const doc = (id: string, lm = '2026-01-01T00:00:00Z') => ({
  datasource: 'wiki',
  id,
  title: `Page ${id}`,
  file_type: 'wiki',
  last_modified: lm,
  body: { mime_type: 'text/plain', text_content: `Text of page ${id}` },
});

async function setup(h: ConnectorHarness) {
  const key = await h.serviceKey();
  const api = (method: string, path: string, body?: unknown) => h.call(method, `/api/indexing${path}`, key, body);
  await api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
  const pushed = await api('POST', '/documents?wait=true', { documents: ['a', 'b', 'c', 'd', 'e'].map((x) => doc(x)) });
  assert.equal(pushed.body.committed, true);
  return api;
}

const ids = (h: ConnectorHarness) => h.ids('wiki').sort();

describe('upload sessions', () => {
  it('finishing deletes what no page named, keeping failed items and new ones', async () => {
    const h = await connectorHarness();
    try {
      const api = await setup(h);
      const started = await api('POST', '/upload-sessions', { datasource: 'wiki' });
      assert.equal(started.status, 200, started.text);
      const id = started.body.upload_id;
      assert.match(id, /^up_[0-9a-f]{24}$/);
      const p1 = await api('POST', `/upload-sessions/${id}/documents`, {
        documents: [doc('a'), doc('b', '2026-02-01T00:00:00Z')],
      });
      assert.deepEqual(
        p1.body.results.map((r: any) => r.outcome),
        ['already_indexed', 'sent'],
      );
      assert.equal(p1.body.documents_seen, 2);
      const p2 = await api('POST', `/upload-sessions/${id}/documents`, {
        documents: [doc('f'), { ...doc('c'), file_type: 'nonsense' }],
      });
      assert.deepEqual(
        p2.body.results.map((r: any) => r.outcome),
        ['sent', 'failed'],
      );
      const outside = await api('POST', '/documents', { documents: [doc('g')] });
      assert.equal(outside.status, 200);
      const finished = await api('POST', `/upload-sessions/${id}/finish`);
      assert.equal(finished.status, 200, finished.text);
      assert.equal(finished.body.state, 'finished');
      assert.equal(finished.body.documents_seen, 4);
      assert.equal(finished.body.documents_deleted, 3, 'd, e and g were not named');
      await h.documents.waitCommitted(h.documents.queue.next - 1, 10_000);
      assert.deepEqual(ids(h), ['a', 'b', 'c', 'f'], 'c failed in the session but keeps its older version');
      assert.equal((await api('GET', `/upload-sessions/${id}`)).body.state, 'finished');
      assert.equal((await api('POST', `/upload-sessions/${id}/documents`, { documents: [doc('a')] })).status, 409);
      assert.equal((await api('POST', `/upload-sessions/${id}/finish`)).status, 409);
    } finally {
      await h.close();
    }
  });

  it('an abandoned session deletes nothing', async () => {
    const h = await connectorHarness();
    try {
      const api = await setup(h);
      const id = (await api('POST', '/upload-sessions', { datasource: 'wiki' })).body.upload_id;
      await api('POST', `/upload-sessions/${id}/documents`, { documents: doc('a') });
      const abandoned = await api('DELETE', `/upload-sessions/${id}`);
      assert.equal(abandoned.body.state, 'abandoned');
      await h.documents.waitCommitted(h.documents.queue.next - 1, 10_000);
      assert.deepEqual(ids(h), ['a', 'b', 'c', 'd', 'e']);
    } finally {
      await h.close();
    }
  });

  it('refuses documents of another datasource and unknown sessions', async () => {
    const h = await connectorHarness();
    try {
      const api = await setup(h);
      const id = (await api('POST', '/upload-sessions', { datasource: 'wiki' })).body.upload_id;
      const wrong = await api('POST', `/upload-sessions/${id}/documents`, {
        documents: [doc('a'), { ...doc('x'), datasource: 'other' }],
      });
      assert.equal(wrong.status, 422);
      assert.deepEqual(wrong.body.detail[0].loc, ['body', 'documents', 1, 'datasource']);
      assert.equal((await api('GET', `/upload-sessions/${id}`)).body.pages, 0, 'a refused page is not counted');
      assert.equal((await api('GET', '/upload-sessions/up_000000000000000000000000')).status, 404);
      assert.equal((await api('POST', '/upload-sessions', { datasource: 'missing' })).status, 404);
    } finally {
      await h.close();
    }
  });

  it('a session continues across a restart', async () => {
    const dir = await tempDir('uploads-restart-');
    try {
      const h = await connectorHarness({ dir });
      const api = await setup(h);
      const id = (await api('POST', '/upload-sessions', { datasource: 'wiki' })).body.upload_id;
      await api('POST', `/upload-sessions/${id}/documents`, { documents: [doc('a'), doc('b')] });
      await h.close(false);
      const h2 = await connectorHarness({ dir });
      try {
        const key = await h2.serviceKey();
        const api2 = (method: string, path: string, body?: unknown) =>
          h2.call(method, `/api/indexing${path}`, key, body);
        const status = await api2('GET', `/upload-sessions/${id}`);
        assert.equal(status.body.state, 'open');
        assert.equal(status.body.documents_seen, 2);
        await api2('POST', `/upload-sessions/${id}/documents`, { documents: [doc('c')] });
        const finished = await api2('POST', `/upload-sessions/${id}/finish`);
        assert.equal(finished.body.documents_deleted, 2);
        await h2.documents.waitCommitted(h2.documents.queue.next - 1, 10_000);
        assert.deepEqual(ids(h2), ['a', 'b', 'c']);
      } finally {
        await h2.close(false);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
