/**
 * GET /metrics of the real server process, parsed by a Prometheus text parser:
 * the token is required; the families are there with their types; requests are
 * counted under their route pattern (never the raw path), and searches,
 * indexed and failed documents, commits, the index, the per-datasource
 * figures, LLM upstream errors and web-search provider errors move as the
 * requests are made. Also /readyz and /version of the same process.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parsePrometheus, samples, total, type Exposition, type Family } from '../../support/prometheus-text.ts';
import { REPO, startServer, type ServerProcess } from '../../support/server-process.ts';
import { tempDir } from '../../support/tmp.ts';

const ADMIN_KEY = 'metrics-master-key-0123456789';
const METRICS_TOKEN = 'metrics-scrape-token-0123456789';
const P = 'enterprise_search_';

const dataDir = await tempDir('metrics-');
let server: ServerProcess;
let port: number;
/** Stands in for the LLM upstream and the SearXNG provider: every call fails with 500. */
let failing: Server;

before(async () => {
  failing = createServer((req, res) => {
    req.resume();
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}');
  });
  failing.listen(0, '127.0.0.1');
  await once(failing, 'listening');
  const upstream = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
  server = startServer({
    ADMIN_KEY,
    METRICS_TOKEN,
    DATA_DIR: dataDir,
    COMMIT_INTERVAL_MS: '50',
    LLM_BASE_URL: `${upstream}/v1`,
    LLM_MODELS: 'upstream-model',
    SEARXNG_BASE_URL: upstream,
  });
  port = await server.port();
});

after(async () => {
  if (server?.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  failing?.close();
});

async function call(method: string, path: string, key?: string, body?: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

async function scrape(): Promise<Exposition> {
  const res = await call('GET', '/metrics', METRICS_TOKEN);
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parsePrometheus(res.text);
}

const doc = (id: string, body: Record<string, string>) => ({
  datasource: 'handbook',
  id,
  title: `Page ${id}`,
  file_type: 'wiki',
  last_modified: '2026-01-01T00:00:00Z',
  body,
});

test('/metrics wants the metrics token', async () => {
  for (const key of [undefined, 'wrong-token-0123456789', ADMIN_KEY]) {
    const res = await call('GET', '/metrics', key);
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="metrics"');
    assert.match(res.json().detail, /metrics token/);
  }
});

test('/readyz is ready once started; /version answers the version of --version', async () => {
  const ready = await call('GET', '/readyz');
  assert.equal(ready.status, 200);
  assert.deepEqual(ready.json(), { status: 'ready' });
  const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  assert.deepEqual((await call('GET', '/version')).json(), { version });
  assert.equal((await call('GET', '/healthz')).status, 200);
});

test('the families move as requests are made, under route patterns', async () => {
  const first = await scrape();
  const types: Record<string, Family['type']> = {
    [`${P}http_request_duration_seconds`]: 'HISTOGRAM',
    [`${P}search_duration_seconds`]: 'HISTOGRAM',
    [`${P}indexing_queue_depth`]: 'GAUGE',
    [`${P}indexing_lag_seconds`]: 'GAUGE',
    [`${P}documents_indexed_total`]: 'COUNTER',
    [`${P}extraction_failures_total`]: 'COUNTER',
    [`${P}index_commit_duration_seconds`]: 'HISTOGRAM',
    [`${P}index_merge_duration_seconds`]: 'HISTOGRAM',
    [`${P}index_segments`]: 'GAUGE',
    [`${P}index_size_bytes`]: 'GAUGE',
    [`${P}llm_upstream_duration_seconds`]: 'HISTOGRAM',
    [`${P}llm_upstream_errors_total`]: 'COUNTER',
    [`${P}web_search_provider_errors_total`]: 'COUNTER',
    [`${P}build_info`]: 'GAUGE',
    process_resident_memory_bytes: 'GAUGE',
    nodejs_eventloop_lag_p99_seconds: 'GAUGE',
  };
  for (const [name, type] of Object.entries(types)) assert.equal(first.families.get(name)?.type, type, name);
  assert.ok(total(first, 'process_resident_memory_bytes') > 0);
  const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  assert.equal(total(first, `${P}build_info`, { version }), 1);
  const indexedBefore = total(first, `${P}documents_indexed_total`);
  const failedBefore = total(first, `${P}extraction_failures_total`);

  // Indexing: two text documents and a "PDF" that is not one (its extraction fails).
  const created = await call('POST', '/api/admin/service-accounts', ADMIN_KEY, { name: 'pusher' });
  assert.equal(created.status, 200, created.text);
  const sa = created.json();
  await call('POST', '/api/indexing/datasources', sa.key, { name: 'handbook', display_name: 'Handbook' });
  const pushed = await call('POST', '/api/indexing/documents?wait=true', sa.key, {
    documents: [
      doc('a', { mime_type: 'text/plain', text_content: 'Holiday rules for the whole team.' }),
      doc('b', { mime_type: 'text/plain', text_content: 'Travel rules and holiday requests.' }),
      doc('c', { mime_type: 'application/pdf', binary_base64: Buffer.from('not a pdf at all').toString('base64') }),
    ],
  });
  assert.equal(pushed.status, 200, pushed.text);
  assert.equal(pushed.json().committed, true, pushed.text);
  for (const id of ['a', 'missing-1', 'missing-2']) await call('GET', `/api/indexing/documents/handbook/${id}`, sa.key);

  // Searches, a chat completion and a web search (their upstreams fail).
  await call('POST', '/api/admin/accounts', ADMIN_KEY, { email: 'ann@example.com' });
  const ann = (await call('POST', '/api/admin/accounts/ann@example.com/keys', ADMIN_KEY, {})).json().key;
  for (const q of ['holiday', 'travel'])
    assert.equal((await call('GET', `/api/beta/search?query=${q}`, ann)).status, 200);
  const chat = await call('POST', '/api/beta/serviceai/chat/completions', ann, {
    model: 'upstream-model',
    messages: [{ role: 'user', content: 'Hello' }],
  });
  assert.ok(chat.status >= 400, chat.text);
  const web = await call('POST', '/api/beta/web_search', ann, { queries: ['holiday'], mode: 'engine2' });
  assert.equal(web.status, 502, web.text);

  const m = await scrape();
  const route = `${P}http_request_duration_seconds`;
  assert.equal(total(m, route, { route: '/api/beta/search', method: 'GET', status: '200' }), 2);
  assert.equal(total(m, route, { route: '/api/indexing/documents/:datasource/:document_id', status: '404' }), 2);
  assert.equal(total(m, route, { route: '/api/indexing/documents/:datasource/:document_id', status: '200' }), 1);
  assert.equal(total(m, route, { route: '/metrics', status: '200' }), 1);
  const routes = new Set(samples(m, `${route}_count`).map((s) => s.labels?.route));
  for (const r of routes) assert.doesNotMatch(r ?? '', /missing|ann@example/, `raw path as a label: ${r}`);
  const inf = samples(m, `${route}_bucket`, { route: '/api/beta/search', status: '200', le: '+Inf' });
  assert.deepEqual(
    inf.map((s) => s.value),
    ['2'],
  );

  assert.equal(total(m, `${P}search_duration_seconds`), 2);
  assert.equal(total(m, `${P}documents_indexed_total`) - indexedBefore, 2);
  assert.equal(total(m, `${P}extraction_failures_total`) - failedBefore, 1);
  assert.ok(total(m, `${P}index_commit_duration_seconds`) >= 1);
  assert.ok(total(m, `${P}index_segments`) >= 1);
  assert.ok(total(m, `${P}index_size_bytes`) > 0);
  assert.equal(total(m, `${P}index_documents`), 2);
  assert.equal(total(m, `${P}indexing_queue_depth`), 0);
  assert.equal(total(m, `${P}indexing_lag_seconds`), 0);
  assert.equal(total(m, `${P}datasource_documents`, { datasource: 'handbook', state: 'committed' }), 2);
  assert.equal(total(m, `${P}datasource_documents`, { datasource: 'handbook', state: 'failed' }), 1);
  assert.ok(total(m, `${P}llm_upstream_errors_total`, { outcome: 'http_error' }) >= 1);
  assert.ok(total(m, `${P}llm_upstream_duration_seconds`, { outcome: 'http_error' }) >= 1);
  assert.ok(total(m, `${P}web_search_provider_errors_total`, { code: 'HTTP_STATUS' }) >= 1);
});
