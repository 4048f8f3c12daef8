/**
 * Faults and guards of the website connector: an unreachable server and a page that times out
 * are reported failed with their reasons while the run goes on, and tried again next run; a
 * robots.txt answering 5xx disallows the site without deleting what was indexed; loopback
 * addresses are refused unless the host is on the intranet allow-list; credentials are sent
 * (HTTP Basic) to hosts in scope, stored only encrypted and answered masked.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, type ConnectorHarness } from '../../../support/connectors.ts';
import { html, startSite, type Site } from '../../../support/site.ts';

let h: ConnectorHarness;
let site: Site;
before(async () => {
  h = await connectorHarness({ onDisk: true });
  site = await startSite();
});
after(async () => {
  await h.close(true);
  await site.close();
});

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const settings = (over: Record<string, unknown> = {}) => ({
  start_urls: [`${site.base}/`],
  intranet_hosts: ['127.0.0.1'],
  requests_per_second: 1000,
  page_timeout_ms: 1000,
  ...over,
});

describe('website connector faults', () => {
  it('reports a page that times out and one on an unreachable server, goes on, and retries them', async () => {
    const dead = await closedPort();
    site.pages.set('/', { body: html('Home', 'start page', ['/slow', '/fine']) });
    site.pages.set('/slow', { body: html('Slow', 'eventually'), delayMs: 5000 });
    site.pages.set('/fine', { body: html('Fine', 'quick page') });
    const c = await h.create({
      name: 'Faults',
      type: 'intranet_online',
      datasource: 'faults',
      settings: settings({ start_urls: [`${site.base}/`, `http://127.0.0.1:${dead}/`], allowed_hosts: [] }),
    });
    const run = await h.run(c.id);
    assert.equal(run.state, 'completed');
    assert.equal(run.counts.sent, 2, JSON.stringify(run));
    const reasons = Object.fromEntries(run.failures.map((f) => [f.item, f.reason]));
    assert.match(reasons[`${site.base}/slow`], /aborted|timeout/i);
    assert.match(reasons[`http://127.0.0.1:${dead}/`], /robots.txt .* unreachable|ECONNREFUSED/);
    site.pages.set('/slow', { body: html('Slow', 'eventually') });
    const again = await h.run(c.id);
    assert.equal(again.counts.sent, 1, 'the slow page is tried again and indexed');
    assert.ok(h.doc('faults', `${site.base}/slow`));
    assert.equal(again.counts.failed, 1, 'the dead server is still reported');
  });

  it('a robots.txt answering 5xx disallows the site and deletes nothing', async () => {
    const before = h.ids('faults').length;
    site.pages.set('/robots.txt', { status: 503, type: 'text/plain', body: 'busy' });
    try {
      const c = h.records();
      const id = [...c.values()].find((r) => r.datasource === 'faults')!.id;
      const run = await h.run(id);
      assert.equal(run.state, 'completed');
      assert.equal(run.counts.deleted, 0);
      assert.ok(run.failures.some((f) => /robots.txt .* unreachable: HTTP 503/.test(f.reason)));
      assert.equal(h.ids('faults').length, before);
    } finally {
      site.pages.delete('/robots.txt');
    }
  });

  it('refuses loopback addresses unless the host is on the intranet allow-list', async () => {
    const c = await h.create({
      name: 'Guarded',
      type: 'intranet_online',
      datasource: 'guarded',
      settings: settings({ intranet_hosts: [] }),
    });
    const run = await h.run(c.id);
    assert.equal(run.counts.sent, 0);
    assert.match(run.failures[0]?.reason ?? '', /loopback/);
  });

  it('sends credentials to hosts in scope, stores them encrypted and answers them masked', async () => {
    const password = 'open-sesame-4711';
    site.authorization = `Basic ${Buffer.from(`crawler:${password}`).toString('base64')}`;
    try {
      const created = await h.admin('POST', '/connectors', {
        name: 'Protected',
        type: 'intranet_online',
        datasource: 'protected',
        interval_minutes: null,
        settings: settings(),
        credentials: { username: 'crawler', password },
      });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body.credentials, { username: '********', password: '********' });
      assert.doesNotMatch(created.text, new RegExp(password));
      const run = await h.run(created.body.id);
      assert.equal(run.counts.sent, 3, JSON.stringify(run.failures));
      const listed = await h.admin('GET', '/connectors');
      assert.doesNotMatch(listed.text, new RegExp(password));
      const names = await readdir(join(h.dir, 'state'));
      for (const n of names) {
        const bytes = await readFile(join(h.dir, 'state', n), 'latin1');
        assert.ok(!bytes.includes(password) && !bytes.includes('crawler'), `${n} holds no plaintext credential`);
      }
      const wrong = await h.admin('PATCH', `/connectors/${created.body.id}`, { credentials: { username: 'x' } });
      assert.equal(wrong.status, 422);
      assert.doesNotMatch(wrong.text, /"x"/);
    } finally {
      site.authorization = undefined;
    }
  });

  it('refuses to store credentials without CONNECTOR_SECRET (503)', async () => {
    const plain = await connectorHarness({ env: { CONNECTOR_SECRET: '' } });
    try {
      const res = await plain.admin('POST', '/connectors', {
        name: 'No secret',
        type: 'intranet_online',
        datasource: 'nosecret',
        settings: settings(),
        credentials: { bearer_token: 'abc' },
      });
      assert.equal(res.status, 503);
      assert.match(res.body.detail, /CONNECTOR_SECRET is not set/);
      assert.equal(plain.records().size, 0);
    } finally {
      await plain.close();
    }
  });
});
