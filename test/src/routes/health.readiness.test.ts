/**
 * GET /readyz answers 503 with the step still missing until the state is
 * loaded, the index open and the documents service's replay applied, then
 * 200; GET /healthz stays 200 throughout (liveness). An app built from
 * services that are already open is ready.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp } from '../../../src/app.ts';
import { Readiness } from '../../../src/readiness.ts';
import { callJson, testServices } from '../../support/app.ts';
import { docsHarness } from '../../support/documents.ts';

test('/readyz names the start-up step still missing, then answers ready', async () => {
  const h = await docsHarness();
  try {
    const readiness = new Readiness();
    const app = createApp({ ...h.services, readiness });
    const expect503 = async (detail: RegExp) => {
      const res = await callJson(app, 'GET', '/readyz');
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('retry-after'), '1');
      assert.match(res.body.detail, detail);
      assert.equal((await callJson(app, 'GET', '/healthz')).status, 200);
    };
    await expect503(/state is not loaded/);
    readiness.mark('state');
    await expect503(/index is not open/);
    readiness.mark('index');
    await expect503(/queue is not open/);
    readiness.replaying(h.documents);
    const ready = await callJson(app, 'GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready' });
  } finally {
    await h.close();
  }
});

test('the replay of acknowledged operations counts as applied once the pipeline reaches it', async () => {
  const h = await docsHarness();
  try {
    // Nothing was replayed at open: ready at once, and operations pushed later do not hold readiness back.
    assert.equal(h.documents.replayed, true);
    await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
    await h.api('POST', '/documents', {
      documents: [
        {
          datasource: 'wiki',
          id: 'a',
          title: 'A',
          file_type: 'wiki',
          last_modified: '2026-01-01T00:00:00Z',
          body: { mime_type: 'text/plain', text_content: 'a' },
        },
      ],
    });
    assert.equal(h.documents.replayed, true);
  } finally {
    await h.close();
  }
});

test('an app built from open services is ready', async () => {
  const app = createApp(await testServices());
  assert.equal((await callJson(app, 'GET', '/readyz')).status, 200);
  assert.deepEqual((await callJson(app, 'GET', '/version')).body.version.split('.').length, 3);
});
