/**
 * Faults of the mail connector against a real Dovecot: an unreachable server and a refused login
 * fail the run and delete nothing (the password never shows); a folder that disappears fails its
 * messages with the reason, keeps their documents, and they are retried once it is back; a
 * message that fails extraction is reported and retried every run; a message over the size
 * limit is skipped with its reason, without being fetched, and not fetched again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, type ConnectorHarness } from '../../../support/connectors.ts';
import { mailText, startDovecot, type Dovecot } from '../../../support/dovecot.ts';

const ANN = 'ann@example.com';
const PASSWORD = 'hunter2-secret-password';
let h: ConnectorHarness;
let dovecot: Dovecot;
let id: string;

const settings = (over: Record<string, unknown> = {}) => ({
  host: '127.0.0.1',
  port: dovecot.port,
  security: 'plain',
  owner: ANN,
  folders: ['*'],
  max_message_bytes: 20_000,
  timeout_ms: 5000,
  ...over,
});
const failureOf = (run: { failures: { item: string; reason: string }[] }, pattern: RegExp) =>
  run.failures.filter((f) => pattern.test(f.reason));

before(async () => {
  dovecot = await startDovecot();
  h = await connectorHarness();
  await dovecot.addUser(ANN, PASSWORD);
  await dovecot.deliver(ANN, 'INBOX', mailText({ subject: 'Welcome', body: 'Hello there.' }));
  await dovecot.deliver(ANN, 'INBOX', '\r\n\r\nthis message has no header at all');
  await dovecot.deliver(ANN, 'INBOX', mailText({ subject: 'Huge', body: 'x'.repeat(30_000) }));
  await dovecot.deliver(ANN, 'Projects', mailText({ subject: 'Roadmap', body: 'The roadmap for next year.' }));
  await dovecot.deliver(ANN, 'Projects', mailText({ subject: 'Milestones', body: 'Three milestones.' }));
  id = (
    await h.create({
      name: 'Ann',
      type: 'mailsuite',
      datasource: 'ann_mail',
      settings: settings(),
      credentials: { username: ANN, password: PASSWORD },
    })
  ).id;
});
after(async () => {
  await h?.close();
  await dovecot?.close();
});

describe('mail connector faults', () => {
  it('reports a message that fails extraction and skips one over the size limit', async () => {
    const run = await h.run(id);
    assert.equal(run.state, 'completed', JSON.stringify(run));
    assert.deepEqual(run.counts, { unchanged: 0, sent: 3, already_indexed: 0, skipped: 1, failed: 1, deleted: 0 });
    assert.equal(failureOf(run, /email: no message headers found/).length, 1, JSON.stringify(run.failures));
    assert.equal(failureOf(run, /^skipped: the message has \d+ bytes, more than the limit of 20000$/).length, 1);
    assert.equal(h.extracted.length, 4, 'the huge message is not fetched');
  });

  it('retries the failed message on the next run, but not the skipped one', async () => {
    h.extracted.length = 0;
    const run = await h.run(id);
    assert.deepEqual(run.counts, { unchanged: 4, sent: 0, already_indexed: 0, skipped: 0, failed: 1, deleted: 0 });
    assert.equal(h.extracted.length, 1);
  });

  it('keeps the messages of a folder that disappeared, reports them, and retries them', async () => {
    await dovecot.hideFolder(ANN, 'Projects');
    const run = await h.run(id);
    assert.equal(run.state, 'completed');
    assert.equal(run.counts.deleted, 0, 'nothing is deleted');
    // Dovecot may still list the folder for a while (its list index) and refuse to select it.
    const gone =
      /the folder Projects (is not on the server any more|cannot be read: EXAMINE refused: Mailbox doesn't exist)/;
    assert.match(run.incomplete ?? '', gone);
    assert.equal(failureOf(run, gone).length, 2, JSON.stringify(run.failures));
    assert.equal(h.ids('ann_mail').length, 3, 'the folder’s documents are kept');

    await dovecot.restoreFolder(ANN, 'Projects');
    const back = await h.run(id);
    assert.equal(back.incomplete, null);
    assert.equal(back.counts.already_indexed, 2, 'the two messages were read again and found indexed');
    assert.equal(back.counts.deleted, 0);
  });

  it('fails the run on a refused login, without the password anywhere, and deletes nothing', async () => {
    await h.admin('PATCH', `/connectors/${id}`, { credentials: { username: ANN, password: 'wrong-password' } });
    const run = await h.run(id);
    assert.equal(run.state, 'failed');
    assert.match(run.error ?? '', /the server refused the login: .*AUTHENTICATIONFAILED/);
    const status = await h.admin('GET', `/connectors/${id}/status`);
    const connector = await h.admin('GET', `/connectors/${id}`);
    for (const text of [JSON.stringify(status.body), JSON.stringify(connector.body)])
      assert.ok(!text.includes('wrong-password') && !text.includes(PASSWORD), 'no password in answers');
    assert.equal(h.ids('ann_mail').length, 3);
    await h.admin('PATCH', `/connectors/${id}`, { credentials: { username: ANN, password: PASSWORD } });
  });

  it('fails the run while the server is unreachable, and works again once it is back', async () => {
    await dovecot.stop();
    try {
      const run = await h.run(id);
      assert.equal(run.state, 'failed');
      assert.match(run.error ?? '', /ECONNREFUSED/);
      assert.equal(h.ids('ann_mail').length, 3, 'nothing deleted');
    } finally {
      await dovecot.start();
    }
    const again = await h.run(id);
    assert.equal(again.state, 'completed');
    assert.equal(again.counts.unchanged + again.counts.failed, 5);
  });

  it('stops waiting for a server that does not answer', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      await h.admin('PATCH', `/connectors/${id}`, { settings: settings({ port, timeout_ms: 1000 }) });
      const run = await h.run(id);
      assert.equal(run.state, 'failed');
      assert.match(run.error ?? '', /no greeting from 127\.0\.0\.1:\d+ within 1000 ms/);
    } finally {
      silent.close();
    }
  });
});
