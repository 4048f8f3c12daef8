/**
 * CORS_ORIGINS: off by default (no CORS headers, a preflight is not answered as one); with a list, an
 * allowed origin gets its own value in Access-Control-Allow-Origin on API answers of every kind (JSON,
 * errors, a chat stream) and a 204 preflight naming the methods and headers; other origins get no CORS
 * headers; credentials are never allowed. Real app on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.ts';
import { chatHarness, type ChatHarness } from '../../support/chat.ts';

const APP = 'https://app.example.com';
const preflight = (h: ChatHarness, origin: string) =>
  h.fetch('/api/beta/serviceai/chat/completions', {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });

describe('CORS off (the default)', () => {
  let h: ChatHarness;
  before(async () => (h = await chatHarness()));
  after(() => h.close());

  it('answers carry no CORS headers and a preflight is not granted', async () => {
    const key = await h.personal('alice@example.com');
    const res = await h.fetch('/api/beta/serviceai/models', { key, headers: { origin: APP } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    const pre = await preflight(h, APP);
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
    assert.equal(pre.headers.get('access-control-allow-methods'), null);
  });
});

describe('CORS_ORIGINS set', () => {
  let h: ChatHarness;
  let key: string;
  before(async () => {
    h = await chatHarness({ env: { CORS_ORIGINS: `${APP}, http://localhost:5173` } });
    key = await h.personal('alice@example.com');
  });
  after(() => h.close());

  it('a preflight from an allowed origin is 204 with the origin, methods and headers, no credentials', async () => {
    const res = await preflight(h, APP);
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), APP);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /authorization/);
    assert.match(res.headers.get('vary') ?? '', /Origin/);
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
  });

  it('JSON answers, errors and a chat stream carry the allowed origin and expose the request id', async () => {
    const ok = await h.fetch('/api/beta/serviceai/models', { key, headers: { origin: 'http://localhost:5173' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), 'http://localhost:5173');
    assert.match(ok.headers.get('access-control-expose-headers') ?? '', /x-request-id/);
    const denied = await h.fetch('/api/beta/search?query=x', { headers: { origin: APP } });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('access-control-allow-origin'), APP, 'a browser app can read the error');
    const stream = await h.fetch('/api/beta/serviceai/chat/completions', {
      method: 'POST',
      key,
      headers: { origin: APP },
      body: JSON.stringify({ model: 'extractive', stream: true, messages: [{ role: 'user', content: 'hello' }] }),
    });
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get('access-control-allow-origin'), APP);
    assert.match(await stream.text(), /\[DONE\]/);
  });

  it('another origin gets no CORS headers', async () => {
    const res = await h.fetch('/api/beta/serviceai/models', { key, headers: { origin: 'https://evil.example.net' } });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    assert.equal((await preflight(h, 'https://evil.example.net')).headers.get('access-control-allow-origin'), null);
  });
});

describe('CORS_ORIGINS parsing', () => {
  it('a list of origins, lower-cased; empty is off; a path or a non-URL is refused', () => {
    assert.deepEqual(loadConfig({ CORS_ORIGINS: 'https://App.Example.com ,http://localhost:3000' }).corsOrigins, [
      'https://app.example.com',
      'http://localhost:3000',
    ]);
    assert.deepEqual(loadConfig({}).corsOrigins, []);
    assert.deepEqual(loadConfig({ CORS_ORIGINS: '' }).corsOrigins, []);
    for (const bad of ['https://app.example.com/path', 'app.example.com', '*'])
      assert.throws(() => loadConfig({ CORS_ORIGINS: bad }), /CORS_ORIGINS must be a comma-separated list/);
  });
});
