/**
 * The label sets of /metrics stay bounded whatever the clients send: raw
 * paths of unknown routes count as `unmatched`, unknown methods as `other`,
 * and past MAX_DATASOURCE_SERIES datasources the rest are summed under
 * `_other`. Also: /metrics is not served without METRICS_TOKEN.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_DATASOURCE_SERIES, OTHER_DATASOURCES } from '../../../src/metrics/scrape.ts';
import { docsHarness } from '../../support/documents.ts';
import { parsePrometheus, samples, total } from '../../support/prometheus-text.ts';

const TOKEN = 'bounded-labels-token-0123456789';
const P = 'enterprise_search_';

test('unknown paths and methods and many datasources keep the label sets bounded', async () => {
  const h = await docsHarness({ env: { METRICS_TOKEN: TOKEN } });
  try {
    for (let i = 0; i < 40; i++) assert.equal((await h.call('GET', `/no/such/path/${i}`, null)).status, 404);
    assert.equal((await h.app.request('/healthz', { method: 'PURGE' })).status, 405);
    const count = MAX_DATASOURCE_SERIES + 3;
    for (let i = 0; i < count; i++) {
      const name = `ds${String(i).padStart(4, '0')}`;
      const created = await h.api('POST', '/datasources', { name, display_name: name });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      await h.api('POST', '/documents', {
        documents: {
          datasource: name,
          id: 'one',
          title: 'One',
          file_type: 'wiki',
          last_modified: '2026-01-01T00:00:00Z',
          body: { mime_type: 'text/plain', text_content: 'one document' },
        },
      });
    }
    await h.commit();

    const res = await h.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    const m = parsePrometheus(await res.text());
    const routes = new Set(samples(m, `${P}http_request_duration_seconds_count`).map((s) => s.labels?.route));
    assert.ok(routes.has('unmatched'));
    assert.ok(![...routes].some((r) => r?.startsWith('/no/such')), [...routes].join(' '));
    assert.equal(total(m, `${P}http_request_duration_seconds`, { route: 'unmatched', status: '404' }), 40);
    assert.equal(total(m, `${P}http_request_duration_seconds`, { method: 'other', status: '405' }), 1);

    const labels = new Set(samples(m, `${P}datasource_documents`).map((s) => s.labels?.datasource));
    assert.equal(labels.size, MAX_DATASOURCE_SERIES + 1);
    assert.ok(labels.has(OTHER_DATASOURCES));
    assert.equal(total(m, `${P}datasource_documents`, { datasource: OTHER_DATASOURCES, state: 'committed' }), 3);
    assert.equal(total(m, `${P}datasource_documents`, { state: 'committed' }), count);
  } finally {
    await h.close();
  }
});

test('without METRICS_TOKEN /metrics is not served', async () => {
  const h = await docsHarness();
  try {
    assert.equal((await h.call('GET', '/metrics', null)).status, 404);
  } finally {
    await h.close();
  }
});
