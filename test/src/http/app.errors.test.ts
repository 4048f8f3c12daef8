/** Cross-cutting HTTP behaviour: unknown routes, wrong methods, body limits, malformed JSON, unexpected errors, request ids. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { createApp } from '../../../src/app.ts';
import { createLogger } from '../../../src/log.ts';
import { jsonBody } from '../../../src/http/body.ts';
import { testServices } from '../../support/app.ts';

async function setup(env: Record<string, string> = {}) {
  const lines: string[] = [];
  const log = createLogger('info', (l) => lines.push(l));
  const app = createApp(await testServices({ env, log }));
  app.post('/test/echo', async (c) => c.json(await jsonBody(c, v.strictObject({ name: v.string() }))));
  app.get('/test/boom', () => {
    throw new Error('secret internals');
  });
  return { app, lines };
}

test('GET /healthz answers 200', async () => {
  const { app } = await setup();
  const res = await app.request('/healthz');
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: 'ok' });
});

test('unknown routes give 404 {detail}', async () => {
  const { app } = await setup();
  const res = await app.request('/no/such/route');
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { detail: 'Not Found' });
});

test('a known path with a wrong method gives 405 {detail} and Allow', async () => {
  const { app } = await setup();
  const res = await app.request('/healthz', { method: 'DELETE' });
  assert.equal(res.status, 405);
  assert.deepEqual(await res.json(), { detail: 'Method Not Allowed' });
  assert.match(res.headers.get('allow') ?? '', /GET/);
});

test('malformed JSON gives 422 json_invalid in the Pydantic shape', async () => {
  const { app } = await setup();
  const res = await app.request('/test/echo', {
    method: 'POST',
    body: '{"name": ',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(res.status, 422);
  const body = await res.json();
  assert.equal(body.detail.length, 1);
  assert.equal(body.detail[0].type, 'json_invalid');
  assert.equal(body.detail[0].loc[0], 'body');
  assert.equal(typeof body.detail[0].loc[1], 'number');
  assert.equal(body.detail[0].msg, 'JSON decode error');
});

test('validation errors list every offending field with body locations', async () => {
  const { app } = await setup();
  const res = await app.request('/test/echo', {
    method: 'POST',
    body: JSON.stringify({ extra: 1 }),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(res.status, 422);
  const { detail } = await res.json();
  assert.deepEqual(
    detail.map((d: { type: string; loc: unknown[] }) => [d.type, d.loc]),
    [
      ['missing', ['body', 'name']],
      ['extra_forbidden', ['body', 'extra']],
    ],
  );
  assert.equal(detail[0].msg, 'Field required');
  assert.equal(detail[1].msg, 'Extra inputs are not permitted');
});

test('an empty body where one is required is a missing body', async () => {
  const { app } = await setup();
  const res = await app.request('/test/echo', { method: 'POST' });
  assert.equal(res.status, 422);
  const { detail } = await res.json();
  assert.deepEqual(detail[0].loc, ['body']);
  assert.equal(detail[0].type, 'missing');
});

test('bodies over the configured limit give 413 {detail}', async () => {
  const { app } = await setup({ MAX_REQUEST_BYTES: '2048' });
  const res = await app.request('/test/echo', {
    method: 'POST',
    body: JSON.stringify({ name: 'x'.repeat(5000) }),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(res.status, 413);
  assert.match((await res.json()).detail, /exceeds the limit of 2048 bytes/);
});

test('an unexpected error gives 500 with the request id and no internals', async () => {
  const { app, lines } = await setup();
  const res = await app.request('/test/boom', { headers: { 'x-request-id': 'req-42' } });
  assert.equal(res.status, 500);
  const body = await res.json();
  assert.deepEqual(Object.keys(body), ['detail']);
  assert.match(body.detail, /req-42/);
  assert.doesNotMatch(body.detail, /secret internals/);
  assert.ok(lines.some((l) => JSON.parse(l).level === 'error' && JSON.parse(l).requestId === 'req-42'));
});

test('every request is logged once with a request id, which is echoed in a header', async () => {
  const { app, lines } = await setup();
  const res = await app.request('/healthz', { headers: { authorization: 'Bearer svcsa_topsecret' } });
  const id = res.headers.get('x-request-id');
  assert.ok(id && id.length >= 8);
  const access = lines.map((l) => JSON.parse(l)).filter((r) => r.msg === 'request');
  assert.equal(access.length, 1);
  assert.equal(access[0].requestId, id);
  assert.equal(access[0].status, 200);
  assert.ok(!lines.join('\n').includes('topsecret'));
});

test('a client request id with unsafe characters is replaced', async () => {
  const { app } = await setup();
  const res = await app.request('/healthz', { headers: { 'x-request-id': 'bad id\n' } });
  assert.notEqual(res.headers.get('x-request-id'), 'bad id\n');
});
