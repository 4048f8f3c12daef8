/**
 * GET /api/docs: the reference page is built from the served document (every
 * operation id and path appears), needs a credential (a bearer key or the
 * session cookie of a signed-in account), carries the pages' strict CSP, and
 * has no script, no inline style and no other origin; document text is
 * escaped (the `<em>` of a description arrives as text).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { accountsPart } from '../../../src/accounts/state.ts';
import { createSession } from '../../../src/sessions/sessions.ts';
import { CONTENT_SECURITY_POLICY } from '../../../src/web/security.ts';
import { connectorHarness, MASTER, type ConnectorHarness } from '../../support/connectors.ts';

let h: ConnectorHarness;
let doc: any;

before(async () => {
  h = await connectorHarness({ audit: true });
  const r = await h.app.request('/api/beta/openapi.json', { headers: { authorization: `Bearer ${MASTER}` } });
  doc = await r.json();
});
after(() => h.close());

test('without a credential: 401; with a bad session cookie: 401', async () => {
  assert.equal((await h.app.request('/api/docs')).status, 401);
  const bad = await h.app.request('/api/docs', { headers: { cookie: `es_session=ses_${'x'.repeat(43)}` } });
  assert.equal(bad.status, 401);
  assert.equal(bad.headers.get('www-authenticate'), 'Bearer');
});

test('with a key: the page lists every operation of the document, escaped, under the CSP', async () => {
  const r = await h.app.request('/api/docs', { headers: { authorization: `Bearer ${MASTER}` } });
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type')!, /^text\/html/);
  assert.equal(r.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
  const html = await r.text();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      assert.ok(html.includes(`id="${op.operationId}"`), op.operationId);
      assert.ok(html.includes(`${method.toUpperCase()} ${path}`), `${method} ${path}`);
    }
  }
  for (const name of Object.keys(doc.components.schemas)) assert.ok(html.includes(`id="components-schemas-${name}"`));
  assert.ok(html.includes('matches in &lt;em&gt;'), 'description text escaped');
  assert.doesNotMatch(html, /<script|<style|style=|<em>|https?:\/\//i);
});

test('with the session cookie of a signed-in account', async () => {
  await h.call('POST', '/api/admin/accounts', MASTER, { email: 'reader@example.com' });
  const account = [...h.state.get(accountsPart).accounts.values()].find((a) => a.email === 'reader@example.com')!;
  const deps = { state: h.state, now: () => Date.now(), sessions: h.config.web.session };
  const { token } = await createSession(deps, account, { method: 'password', address: '127.0.0.1', userAgent: 'test' });
  const r = await h.app.request('/api/docs', { headers: { cookie: `es_session=${token}` } });
  assert.equal(r.status, 200);
  assert.match(await r.text(), /<h1>Enterprise Search API v0\.1\.46<\/h1>/);
});
