/**
 * Connector credentials never show: after a mail connector (a real Dovecot) and a git connector
 * (git's http-backend behind Basic auth) were created, updated and run with right and wrong
 * passwords, no password (nor its Basic-auth encoding) is in any answer of the admin API, any
 * log line (debug level included), the audit log, or any file of the data directory (the
 * state, the run log, the item state, the git clone), while the audit log does record the
 * changes themselves.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../../src/log.ts';
import { connectorHarness, MASTER, tempDir, type ConnectorHarness } from '../../support/connectors.ts';
import { mailText, startDovecot, type Dovecot } from '../../support/dovecot.ts';
import { makeRepo, startGitHttp } from '../../support/git.ts';

const ANN = 'ann@example.com';
const MAIL_PASSWORD = 'mail-pass-Quokka-7731';
const WRONG_MAIL_PASSWORD = 'mail-wrong-Wombat-4410';
const GIT_PASSWORD = 'git-pass-Numbat-2297';
const WRONG_GIT_PASSWORD = 'git-wrong-Bilby-8852';
const SECRETS = [
  MAIL_PASSWORD,
  WRONG_MAIL_PASSWORD,
  GIT_PASSWORD,
  WRONG_GIT_PASSWORD,
  Buffer.from(`ann:${GIT_PASSWORD}`).toString('base64'),
  Buffer.from(`ann:${WRONG_GIT_PASSWORD}`).toString('base64'),
  // AUTHENTICATE PLAIN sends "\0user\0password" in Base64.
  Buffer.from(`\0${ANN}\0${MAIL_PASSWORD}`).toString('base64'),
  Buffer.from(`\0${ANN}\0${WRONG_MAIL_PASSWORD}`).toString('base64'),
];

const logLines: string[] = [];
const answers: string[] = [];
let h: ConnectorHarness;
let dovecot: Dovecot;
let git: Awaited<ReturnType<typeof startGitHttp>>;

before(async () => {
  dovecot = await startDovecot();
  await dovecot.addUser(ANN, MAIL_PASSWORD);
  await dovecot.deliver(ANN, 'INBOX', mailText({ subject: 'Quarterly numbers', body: 'Figures inside.' }));
  const base = await tempDir('secrecy-git-');
  const repo = await makeRepo(join(base, 'wiki'));
  await repo.commit({ 'README.md': 'The wiki.' }, '2026-03-01T00:00:00Z');
  git = await startGitHttp(base, 'ann', GIT_PASSWORD);
  h = await connectorHarness({
    log: createLogger('debug', (line) => void logLines.push(line)),
    audit: true,
    onDisk: true,
  });
});
after(async () => {
  await h?.close();
  await dovecot?.close();
  await git?.close();
});

async function admin(method: string, path: string, body?: unknown) {
  const res = await h.admin(method, path, body);
  answers.push(res.text);
  return res;
}

async function runAndLook(id: string) {
  assert.equal((await admin('POST', `/connectors/${id}/run`)).status, 202);
  const run = await h.scheduler.whenIdle(id);
  await admin('GET', `/connectors/${id}/status`);
  await admin('GET', `/connectors/${id}`);
  return run!;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.push(join(e.parentPath, e.name));
  return out;
}

describe('connector credentials', () => {
  it('are used for runs, but never answered, logged, audited or stored in clear', async () => {
    const mail = await admin('POST', '/connectors', {
      name: 'Ann mail',
      type: 'mailsuite',
      datasource: 'ann_mail',
      interval_minutes: null,
      settings: { host: '127.0.0.1', port: dovecot.port, security: 'plain', owner: ANN },
      credentials: { username: ANN, password: MAIL_PASSWORD },
    });
    assert.equal(mail.status, 201, mail.text);
    const mailOk = await runAndLook(mail.body.id);
    assert.equal(mailOk.state, 'completed', mailOk.error ?? '');
    assert.equal(mailOk.counts.sent, 1, 'the right password was used');
    await admin('PATCH', `/connectors/${mail.body.id}`, {
      credentials: { username: ANN, password: WRONG_MAIL_PASSWORD },
    });
    const mailRefused = await runAndLook(mail.body.id);
    assert.match(mailRefused.error ?? '', /refused the login/);

    const repo = await admin('POST', '/connectors', {
      name: 'Wiki',
      type: 'codehost',
      datasource: 'wiki',
      interval_minutes: null,
      settings: { repository: git.url('wiki') },
      credentials: { username: 'ann', password: GIT_PASSWORD },
    });
    assert.equal(repo.status, 201, repo.text);
    const gitOk = await runAndLook(repo.body.id);
    assert.equal(gitOk.state, 'completed', gitOk.error ?? '');
    assert.equal(gitOk.counts.sent, 1);
    await admin('PUT', `/connectors/${repo.body.id}`, {
      credentials: { username: 'ann', password: WRONG_GIT_PASSWORD },
    });
    const gitRefused = await runAndLook(repo.body.id);
    assert.equal(gitRefused.state, 'failed');
    await admin('GET', '/connectors');

    const audit = await h.call('GET', '/api/admin/audit?limit=100', MASTER);
    assert.equal(audit.status, 200);
    const actions = audit.body.records.map((r: { action: string }) => r.action).sort();
    assert.deepEqual(actions, [
      'connector.create',
      'connector.create',
      'connector.run',
      'connector.run',
      'connector.run',
      'connector.run',
      'connector.update',
      'connector.update',
    ]);
    assert.ok(logLines.length > 0, 'the runs logged');
    const places: [string, string][] = [
      ...answers.map((text, i): [string, string] => [`answer ${i}`, text]),
      ['the log', logLines.join('\n')],
      ['the audit log (API)', audit.text],
    ];
    for (const file of await filesUnder(h.dir)) places.push([file, await readFile(file, 'latin1')]);
    assert.ok(
      places.some(([where]) => where.includes('/work/')),
      'the git clone is among the files looked at',
    );
    for (const [where, text] of places)
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `${where} holds a secret (${secret})`);
  });
});
