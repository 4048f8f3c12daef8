/**
 * The mail connector's transport security against a real Dovecot: implicit TLS and STARTTLS
 * with the server's self-signed certificate trusted through `ca_certificate`; the same server
 * without it fails the run (certificates are always verified); `plain` is refused for any host
 * but a loopback one; credentials are answered masked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, type ConnectorHarness } from '../../../support/connectors.ts';
import { mailText, startDovecot, type Dovecot } from '../../../support/dovecot.ts';

const ANN = 'ann@example.com';
let h: ConnectorHarness;
let dovecot: Dovecot;
let n = 0;

before(async () => {
  dovecot = await startDovecot();
  h = await connectorHarness();
  await dovecot.addUser(ANN, 'tls-secret');
  await dovecot.deliver(ANN, 'INBOX', mailText({ subject: 'Over TLS', body: 'Encrypted on the way.' }));
});
after(async () => {
  await h?.close();
  await dovecot?.close();
});

async function runWith(settings: Record<string, unknown>) {
  const c = await h.create({
    name: `Mail ${++n}`,
    type: 'mailsuite',
    datasource: `mail_n${n}`,
    settings: { host: '127.0.0.1', owner: ANN, ...settings },
    credentials: { username: ANN, password: 'tls-secret' },
  });
  return { connector: c, run: await h.run(c.id) };
}

describe('mail connector security', () => {
  it('reads over implicit TLS, trusting the given certificate', async () => {
    const { connector, run } = await runWith({
      security: 'tls',
      port: dovecot.tlsPort,
      ca_certificate: dovecot.certificate,
    });
    assert.equal(run.state, 'completed', run.error ?? '');
    assert.equal(run.counts.sent, 1);
    assert.deepEqual(connector.credentials, { username: '********', password: '********' });
  });

  it('reads after STARTTLS on the plain port', async () => {
    const { run } = await runWith({ security: 'starttls', port: dovecot.port, ca_certificate: dovecot.certificate });
    assert.equal(run.state, 'completed', run.error ?? '');
    assert.equal(run.counts.sent, 1);
  });

  it('fails the run when the certificate is not trusted', async () => {
    for (const settings of [
      { security: 'tls', port: dovecot.tlsPort },
      { security: 'starttls', port: dovecot.port },
    ]) {
      const { run } = await runWith(settings);
      assert.equal(run.state, 'failed');
      assert.match(run.error ?? '', /self-signed certificate/);
    }
  });

  it('refuses plain IMAP to a host other than this machine', async () => {
    const res = await h.admin('POST', '/connectors', {
      name: 'Plain',
      type: 'mailsuite',
      datasource: 'plain_mail',
      settings: { host: 'mail.example.com', security: 'plain', owner: ANN },
    });
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.body.detail.map((d: any) => d.loc),
      [['body', 'settings', 'security']],
    );
    assert.match(res.body.detail[0].msg, /only for a loopback host/);
  });
});
