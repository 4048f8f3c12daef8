/**
 * Issue 26's "done when", over HTTP against the real server (src/main.ts): a newcomer points the
 * files connector at a folder and the mail connector at a mailbox (a real Dovecot) through the
 * admin API, and within a minute finds those files and messages in search, with the mail
 * conversation grouped in `same_thread_docs` and the permissions applied (the mailbox and the
 * HR folder are the owner's only); a file deleted at the source is gone after the next run.
 * The mail and the file passwords never reach the server's output.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MASTER, SECRET, tempDir, writeTree } from '../../support/connectors.ts';
import { mailText, startDovecot, type Dovecot } from '../../support/dovecot.ts';

const MAIN = new URL('../../../src/main.ts', import.meta.url).pathname;
const ANN = 'ann@example.com';
const BOB = 'bob@example.com';
const MAIL_PASSWORD = 'ann-mail-password-0451';

let dovecot: Dovecot;
let server: ChildProcess;
let output = '';
let base = '';
let folder: string;

async function call(method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Polls `probe` every 200 ms until it returns a value; fails after `ms`. */
async function eventually<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

before(async () => {
  dovecot = await startDovecot();
  await dovecot.addUser(ANN, MAIL_PASSWORD);
  const deliver = (f: string, spec: Parameters<typeof mailText>[0]) => dovecot.deliver(ANN, f, mailText(spec));
  await deliver('INBOX', {
    subject: 'Offsite planning',
    messageId: 'o1@example.com',
    body: 'Where shall we meet, Lisbon or Porto?',
  });
  await deliver('Sent', {
    subject: 'Re: Offsite planning',
    messageId: 'o2@example.com',
    inReplyTo: 'o1@example.com',
    references: ['o1@example.com'],
    body: 'Lisbon in May, near the harbour.',
  });
  await deliver('INBOX', {
    subject: 'Re: Offsite planning',
    from: 'Bob <bob@example.com>',
    messageId: 'o3@example.com',
    inReplyTo: 'o2@example.com',
    references: ['o1@example.com', 'o2@example.com'],
    body: 'Lisbon works, I will book the harbour venue.',
  });
  await deliver('INBOX', { subject: 'Lunch', messageId: 'l1@example.com', body: 'Lunch in Lisbon style?' });

  folder = await tempDir('e2e-share-');
  await writeTree(folder, {
    'handbook.md': '# Handbook\n\nTravel to Lisbon by train when you can.',
    'hr/salaries.txt': 'Salary bands for Lisbon office.',
    'obsolete.txt': 'The Lisbon office closes on Fridays.',
  });

  const dataDir = await tempDir('e2e-data-');
  server = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', ADMIN_KEY: MASTER, CONNECTOR_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));
  const port = await eventually('the server listens', 30_000, async () => {
    const m = /"msg":"listening".*"port":(\d+)/.exec(output);
    return m ? Number(m[1]) : undefined;
  });
  base = `http://127.0.0.1:${port}`;
});

after(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await dovecot?.close();
  await rm(folder, { recursive: true, force: true });
});

test(
  'files and mail are searchable within a minute, threads grouped, permissions applied',
  { timeout: 180_000 },
  async () => {
    // Accounts of the two people, and their personal keys.
    for (const email of [ANN, BOB])
      assert.equal((await call('POST', '/api/admin/accounts', MASTER, { email })).status, 200);
    const ann = (await call('POST', `/api/admin/accounts/${ANN}/keys`, MASTER, {})).body.key;
    const bob = (await call('POST', `/api/admin/accounts/${BOB}/keys`, MASTER, {})).body.key;

    // The two connectors; each runs at once.
    const files = await call('POST', '/api/admin/connectors', MASTER, {
      name: 'Shared drive',
      type: 'fileshares',
      datasource: 'shared_drive',
      settings: {
        root: folder,
        permissions: { mode: 'folders', folders: [{ path: 'hr', users: [ANN] }], default: { everyone: true } },
      },
    });
    assert.equal(files.status, 201, JSON.stringify(files.body));
    const mail = await call('POST', '/api/admin/connectors', MASTER, {
      name: 'Ann mail',
      type: 'mailsuite',
      datasource: 'ann_mail',
      settings: { host: '127.0.0.1', port: dovecot.port, security: 'plain', owner: ANN, folders: ['INBOX', 'Sent'] },
      credentials: { username: ANN, password: MAIL_PASSWORD },
    });
    assert.equal(mail.status, 201, JSON.stringify(mail.body));

    // People are registered on the files datasource (the mail owner is registered by the connector).
    const sa = (await call('POST', '/api/admin/service-accounts', MASTER, { name: 'setup' })).body.key;
    await eventually('the files datasource exists', 60_000, async () =>
      (await call('GET', '/api/indexing/datasources/shared_drive', sa)).status === 200 ? true : undefined,
    );
    for (const email of [ANN, BOB])
      for (const datasource of ['shared_drive', 'ann_mail'])
        await call('POST', '/api/indexing/users', sa, { datasource, user: { email } });

    const search = async (key: string, query: string) =>
      (await call('GET', `/api/beta/search?query=${encodeURIComponent(query)}&limit=20`, key)).body.results as any[];
    const found = await eventually('files and messages in search', 60_000, async () => {
      const results = await search(ann, 'lisbon');
      return results.length === 7 ? results : undefined;
    });
    assert.deepEqual(found.map((r) => r.title).sort(), [
      'Lunch',
      'Offsite planning',
      'Re: Offsite planning',
      'Re: Offsite planning',
      'handbook.md',
      'obsolete.txt',
      'salaries.txt',
    ]);
    for (const r of found.filter((x) => x.title.includes('Offsite'))) {
      assert.deepEqual(
        r.same_thread_docs.map((t: any) => t.title).sort(),
        r.title.startsWith('Re:')
          ? ['Offsite planning', 'Re: Offsite planning'].sort()
          : ['Re: Offsite planning', 'Re: Offsite planning'],
      );
    }
    assert.deepEqual(found.find((r) => r.title === 'Lunch').same_thread_docs, []);
    const bobSees = await search(bob, 'lisbon');
    assert.deepEqual(bobSees.map((r) => r.title).sort(), ['handbook.md', 'obsolete.txt'], 'no mail, no HR file');

    // A file deleted at the source disappears after the next run.
    await rm(join(folder, 'obsolete.txt'));
    const run = await call('POST', `/api/admin/connectors/${files.body.id}/run`, MASTER);
    assert.equal(run.status, 202, JSON.stringify(run.body));
    const done = await eventually('the second run ends', 60_000, async () => {
      const s = (await call('GET', `/api/admin/connectors/${files.body.id}/status`, MASTER)).body;
      return s.state === 'idle' && s.last_run?.run === run.body.run.run ? s.last_run : undefined;
    });
    assert.equal(done.state, 'completed');
    assert.equal(done.counts.deleted, 1);
    assert.deepEqual(
      (await search(bob, 'lisbon')).map((r) => r.title),
      ['handbook.md'],
    );
    assert.ok(!output.includes(MAIL_PASSWORD), 'the mail password is never logged');
  },
);
