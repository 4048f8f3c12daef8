/**
 * The mail connector against a real Dovecot on 127.0.0.1: the messages of the named folders
 * become `email` documents (subject, sender, breadcrumb, IMAP URL, the `mailsuite` category,
 * attachments extracted, only the owner allowed, the owner registered on the datasource); a
 * conversation across INBOX and Sent is one thread in `same_thread_docs`; later runs fetch
 * only new messages, delete expunged ones, and resync a folder whose UIDVALIDITY changed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, type ConnectorHarness } from '../../../support/connectors.ts';
import { mailText, startDovecot, type Dovecot } from '../../../support/dovecot.ts';

const ANN = 'ann@example.com';
let h: ConnectorHarness;
let dovecot: Dovecot;
let id: string;
let expungeMe: string;
let annKey: string;
let bobKey: string;

const docsOf = (ds: string) => {
  const searcher = h.index.reader.searcher();
  try {
    return [...searcher.keysWithKeyword('datasource', ds)].map((k) => searcher.get(k)!);
  } finally {
    h.index.reader.release(searcher);
  }
};

before(async () => {
  dovecot = await startDovecot();
  h = await connectorHarness();
  await dovecot.addUser(ANN, 'secret-1');
  const d = (folder: string, spec: Parameters<typeof mailText>[0]) => dovecot.deliver(ANN, folder, mailText(spec));
  await d('INBOX', { subject: 'Quarterly plan', messageId: 'plan@example.com', body: 'Draft of the quarterly plan.' });
  await d('Sent', {
    subject: 'Re: Quarterly plan',
    from: 'Ann Example <ann@example.com>',
    messageId: 'reply1@example.com',
    inReplyTo: 'plan@example.com',
    references: ['plan@example.com'],
    body: 'Looks good, one remark on hiring.',
  });
  await d('INBOX', {
    subject: 'Re: Quarterly plan',
    from: 'Bob <bob@example.com>',
    messageId: 'reply2@example.com',
    inReplyTo: 'reply1@example.com',
    references: ['plan@example.com', 'reply1@example.com'],
    body: 'Agreed, hiring moves to Q3.',
  });
  expungeMe = await d('INBOX', {
    subject: 'Budget =?utf-8?q?f=C3=BCr?= 2026',
    messageId: 'budget@example.com',
    body: 'The budget is attached.',
    attachments: [{ name: 'budget.txt', type: 'text/plain', content: 'zanzibarquota 42' }],
  });
  await d('Archive', { subject: 'Old stuff', messageId: 'old@example.com', body: 'not named by the settings' });
  id = (
    await h.create({
      name: 'Ann mail',
      type: 'mailsuite',
      datasource: 'ann_mail',
      settings: { host: '127.0.0.1', port: dovecot.port, security: 'plain', owner: ANN, folders: ['INBOX', 'Sent'] },
      credentials: { username: ANN, password: 'secret-1' },
    })
  ).id;
  const sa = await h.serviceKey();
  await h.call('POST', '/api/indexing/users', sa, { datasource: 'ann_mail', user: { email: 'bob@example.com' } });
  for (const email of [ANN, 'bob@example.com']) await h.admin('POST', '/accounts', { email });
  annKey = (await h.admin('POST', `/accounts/${ANN}/keys`, {})).body.key;
  bobKey = (await h.admin('POST', '/accounts/bob@example.com/keys', {})).body.key;
});
after(async () => {
  await h?.close();
  await dovecot?.close();
});

describe('mail connector', () => {
  it('indexes the messages of the named folders as e-mails only the owner sees', async () => {
    const run = await h.run(id);
    assert.equal(run.state, 'completed', JSON.stringify(run));
    assert.deepEqual(run.failures, []);
    assert.deepEqual(run.counts, { unchanged: 0, sent: 4, already_indexed: 0, skipped: 0, failed: 0, deleted: 0 });
    const docs = docsOf('ann_mail');
    assert.deepEqual(docs.map((d) => d.stored.title).sort(), [
      'Budget für 2026',
      'Quarterly plan',
      'Re: Quarterly plan',
      'Re: Quarterly plan',
    ]);
    const budget = docs.find((d) => d.stored.title === 'Budget für 2026')!;
    assert.equal(budget.stored.path, `${ANN}/INBOX/Budget für 2026`);
    assert.match(String(budget.stored.path_preview), /^imap:\/\/127\.0\.0\.1:\d+\/INBOX;UIDVALIDITY=\d+\/;UID=\d+$/);
    assert.equal(budget.stored.last_modified, '2026-01-01T10:00:00.000Z');
    assert.deepEqual(budget.keywords.category, ['mailsuite']);
    assert.deepEqual(budget.keywords.document_type, ['email']);
    assert.deepEqual(budget.keywords.acl, [`ann_mail|u|${ANN}`]);
    assert.equal(h.extracted.length, 4, 'every message went through the extractors');
  });

  it('groups a conversation across folders and applies the permissions in search', async () => {
    const found = await h.call('GET', '/api/beta/search?query=hiring', annKey);
    assert.equal(found.status, 200);
    const titles = found.body.results.map((r: any) => r.title);
    assert.deepEqual(titles, ['Re: Quarterly plan', 'Re: Quarterly plan']);
    for (const r of found.body.results) {
      assert.equal(r.data_source, 'ann_mail');
      assert.equal(r.same_thread_docs.length, 2, JSON.stringify(r.same_thread_docs));
      assert.ok(r.same_thread_docs.some((t: any) => t.title === 'Quarterly plan'));
    }
    const attachment = await h.call('GET', '/api/beta/search?query=zanzibarquota&data_source=mailsuite', annKey);
    assert.deepEqual(
      attachment.body.results.map((r: any) => r.title),
      ['Budget für 2026'],
      'the attachment is extracted',
    );
    const bob = await h.call('GET', '/api/beta/search?query=hiring', bobKey);
    assert.deepEqual(bob.body.results, [], 'another user of the datasource sees none of the mailbox');
  });

  it('fetches nothing again on a second run', async () => {
    h.extracted.length = 0;
    const run = await h.run(id);
    assert.deepEqual(run.counts, { unchanged: 4, sent: 0, already_indexed: 0, skipped: 0, failed: 0, deleted: 0 });
    assert.deepEqual(h.extracted, []);
  });

  it('adds a new message and deletes an expunged one', async () => {
    await dovecot.deliver(
      ANN,
      'INBOX',
      mailText({ subject: 'Offsite venue', messageId: 'venue@example.com', body: 'The offsite is in Lisbon.' }),
    );
    await dovecot.expunge(expungeMe);
    h.extracted.length = 0;
    const run = await h.run(id);
    assert.deepEqual(run.counts, { unchanged: 3, sent: 1, already_indexed: 0, skipped: 0, failed: 0, deleted: 1 });
    assert.equal(h.extracted.length, 1);
    const titles = docsOf('ann_mail').map((d) => d.stored.title);
    assert.ok(titles.includes('Offsite venue'));
    assert.ok(!titles.includes('Budget für 2026'));
  });

  it('adds the thread property to a datasource created beforehand without it', async () => {
    const sa = await h.serviceKey();
    const made = await h.call('POST', '/api/indexing/datasources', sa, { name: 'pre_made', display_name: 'Made' });
    assert.equal(made.status, 200, made.text);
    const c = await h.create({
      name: 'Into an existing datasource',
      type: 'mailsuite',
      datasource: 'pre_made',
      settings: { host: '127.0.0.1', port: dovecot.port, security: 'plain', owner: ANN, folders: ['Sent'] },
      credentials: { username: ANN, password: 'secret-1' },
    });
    const run = await h.run(c.id);
    assert.equal(run.state, 'completed', JSON.stringify(run));
    assert.equal(run.counts.sent, 1, JSON.stringify(run.failures));
    const ds = await h.call('GET', '/api/indexing/datasources/pre_made', sa);
    assert.deepEqual(
      ds.body.object_definitions.flatMap((d: any) => d.property_definitions.map((p: any) => p.name)),
      ['thread_id'],
    );
  });

  it('resyncs a folder whose UIDVALIDITY changed', async () => {
    const previewOf = () =>
      docsOf('ann_mail').find((d) => d.stored.title === 'Offsite venue')!.stored.path_preview as string;
    const before = previewOf();
    await dovecot.resetUidValidity(ANN, 'INBOX');
    const run = await h.run(id);
    assert.equal(run.state, 'completed');
    assert.deepEqual(run.counts, { unchanged: 1, sent: 3, already_indexed: 0, skipped: 0, failed: 0, deleted: 3 });
    assert.notEqual(previewOf(), before, 'the message is now known under the new UIDVALIDITY');
    assert.equal(docsOf('ann_mail').length, 4, 'every message once');
  });
});
