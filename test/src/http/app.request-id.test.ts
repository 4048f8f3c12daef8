/** The request id header reaches every kind of response: context-made ones, handler-made ones and ones with immutable headers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../src/app.ts';
import { createLogger } from '../../../src/log.ts';
import { testServices } from '../../support/app.ts';

async function setup() {
  const app = createApp(await testServices({ log: createLogger('warn', () => {}) }));
  app.get('/test/body', (c) => c.body('{"a":1}', 200, { 'content-type': 'application/json' }));
  app.get('/test/own', () => new Response('own', { headers: { 'x-own': '1' } }));
  app.get('/test/immutable', () => Response.redirect('http://127.0.0.1/elsewhere', 302));
  return app;
}

test('a context-made response keeps its body and headers and carries the request id', async () => {
  const app = await setup();
  const res = await app.request('/test/body', { headers: { 'x-request-id': 'req-1' } });
  assert.equal(res.headers.get('x-request-id'), 'req-1');
  assert.equal(res.headers.get('content-type'), 'application/json');
  assert.equal(await res.text(), '{"a":1}');
});

test('a handler-made response carries the request id', async () => {
  const app = await setup();
  const res = await app.request('/test/own', { headers: { 'x-request-id': 'req-2' } });
  assert.equal(res.headers.get('x-request-id'), 'req-2');
  assert.equal(res.headers.get('x-own'), '1');
  assert.equal(await res.text(), 'own');
});

test('a response with immutable headers is rebuilt with the request id', async () => {
  const app = await setup();
  const res = await app.request('/test/immutable', { headers: { 'x-request-id': 'req-3' } });
  assert.equal(res.status, 302);
  assert.equal(res.headers.get('x-request-id'), 'req-3');
  assert.equal(res.headers.get('location'), 'http://127.0.0.1/elsewhere');
});

test('each request gets its own id on a fresh response', async () => {
  const app = await setup();
  const a = await app.request('/test/body');
  const b = await app.request('/test/body');
  assert.ok(a.headers.get('x-request-id'));
  assert.notEqual(a.headers.get('x-request-id'), b.headers.get('x-request-id'));
});
