/**
 * GET /api/admin/settings (the effective configuration, secrets only as set / not set, and the
 * upstreams) and POST /api/admin/settings/check (one real call to the LLM upstream or a web-search
 * provider, each a fake on 127.0.0.1; failures are answers with the reason, never errors).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EnvSchema } from '../../../src/config.ts';
import { appHarness, type AppHarness } from '../../support/app.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-llm.ts';
import { providerState, startFakeBrave, startFakeSearxng, type TestServer } from '../../support/fake-web.ts';

let llm: FakeUpstream;
let brave: TestServer;
let searxng: TestServer;
const web = providerState();
let h: AppHarness;

before(async () => {
  llm = await startFakeUpstream();
  brave = await startFakeBrave(web);
  searxng = await startFakeSearxng(web);
  web.hits = [{ url: 'https://example.org/a', title: 'A', description: 'about a' }];
  h = await appHarness({
    env: {
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'upstream-secret-value',
      LLM_MODELS: 'fake-model,org/fake-large',
      BRAVE_API_KEY: 'test-brave-key',
      BRAVE_BASE_URL: brave.url,
      SEARXNG_BASE_URL: searxng.url,
    },
  });
});
after(async () => {
  await h.close();
  await Promise.all([llm.close(), brave.close(), searxng.close()]);
});

const check = (target: unknown) => h.admin('POST', '/api/admin/settings/check', { target });

test('the settings list every variable with its effective value, and secrets only as set or not set', async () => {
  const r = await h.admin('GET', '/api/admin/settings');
  assert.equal(r.status, 200);
  const byName = Object.fromEntries(r.body.settings.map((s: { name: string }) => [s.name, s]));
  assert.deepEqual(Object.keys(byName), Object.keys(EnvSchema.entries));
  assert.deepEqual(byName.LLM_API_KEY, {
    name: 'LLM_API_KEY',
    value: null,
    secret: true,
    set: true,
    description: 'bearer key sent to the chat upstream',
  });
  assert.equal(byName.OIDC_CLIENT_SECRET.set, false);
  assert.equal(byName.ADMIN_KEY.set, true);
  assert.equal(byName.LLM_MODELS.value, 'fake-model,org/fake-large');
  assert.equal(byName.COMMIT_INTERVAL_MS.value, 1000, 'defaults are shown as in effect');
  assert.equal(byName.SESSION_IDLE_MINUTES.value, 720);
  const text = JSON.stringify(r.body);
  for (const secret of ['upstream-secret-value', 'test-brave-key', 'master-key-for-tests'])
    assert.ok(!text.includes(secret), secret);
  assert.deepEqual(
    r.body.upstreams.map((u: any) => [u.id, u.configured, u.serves]),
    [
      ['llm', true, ['fake-model', 'org/fake-large']],
      ['brave', true, ['search', 'context']],
      ['searxng', true, ['engine2']],
    ],
  );
});

test('checking the LLM upstream lists its models with the key; a model it lacks is named', async () => {
  const ok = await check('llm');
  assert.equal(ok.status, 200);
  assert.deepEqual(Object.keys(ok.body).sort(), ['checked_at', 'message', 'ms', 'ok', 'target']);
  assert.equal(ok.body.ok, true);
  assert.equal(llm.auth.at(-1), 'Bearer upstream-secret-value');
  llm.models = ['fake-model'];
  const missing = await check('llm');
  assert.equal(missing.body.ok, false);
  assert.match(missing.body.message, /does not list org\/fake-large/);
  llm.models = ['fake-model', 'org/fake-large'];
});

test('checking the web-search providers runs one search each; a failing provider answers ok: false', async () => {
  const b = await check('brave');
  assert.equal(b.body.ok, true);
  assert.match(b.body.message, /Brave Search answered .* with 1 result/);
  assert.equal((await check('searxng')).body.ok, true);
  web.behaviour = 503;
  const down = await check('searxng');
  assert.equal(down.status, 200);
  assert.equal(down.body.ok, false);
  assert.match(down.body.message, /SearXNG answered HTTP 503/);
  web.behaviour = 'ok';
});

test('an unconfigured upstream is "not configured"; an unknown target 422; administrators only', async () => {
  const bare = await appHarness();
  try {
    const r = await bare.admin('POST', '/api/admin/settings/check', { target: 'brave' });
    assert.deepEqual([r.body.ok, r.body.message], [false, 'not configured']);
    const unknown = await bare.admin('POST', '/api/admin/settings/check', { target: 'smtp' });
    assert.deepEqual([unknown.status, unknown.body.detail[0].loc], [422, ['body', 'target']]);
    await bare.admin('POST', '/api/admin/accounts', { email: 'p@example.com' });
    const key = (await bare.admin('POST', '/api/admin/accounts/p@example.com/keys', {})).body.key;
    assert.equal((await bare.call('GET', '/api/admin/settings', { key })).status, 403);
    assert.equal((await bare.call('POST', '/api/admin/settings/check', { key, body: { target: 'llm' } })).status, 403);
  } finally {
    await bare.close();
  }
});
