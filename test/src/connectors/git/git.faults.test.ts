/**
 * Faults and safety of the git connector: an unreachable server and a missing branch fail the
 * run and delete nothing, and the next run works once the server is back; repository and branch
 * values git could read as options or remote helpers are refused at create (422), and git itself
 * runs with only the file, git, http, https and ssh transports; a repository over HTTP behind
 * Basic auth (git's own http-backend) is read with the stored credentials, and refused without
 * the password ever showing.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runGit } from '../../../../src/connectors/git/git.ts';
import { connectorHarness, tempDir, type ConnectorHarness } from '../../../support/connectors.ts';
import { makeRepo, startGitDaemon, startGitHttp } from '../../../support/git.ts';

let h: ConnectorHarness;
let base: string;
let daemon: Awaited<ReturnType<typeof startGitDaemon>>;

before(async () => {
  h = await connectorHarness();
  base = await tempDir('git-faults-');
  const repo = await makeRepo(join(base, 'wiki'));
  await repo.commit({ 'README.md': 'The wiki.', 'pages/a.md': 'Page A.' }, '2026-03-01T00:00:00Z');
  daemon = await startGitDaemon(base);
});
after(async () => {
  await h?.close();
  await daemon?.stop();
});

describe('git connector faults', () => {
  it('fails the run while the server is unreachable, deletes nothing, and recovers', async () => {
    const c = await h.create({
      name: 'Wiki',
      type: 'codehost',
      datasource: 'wiki',
      settings: { repository: daemon.url('wiki'), timeout_ms: 20_000 },
    });
    assert.equal((await h.run(c.id)).counts.sent, 2);
    await daemon.stop();
    try {
      const run = await h.run(c.id);
      assert.equal(run.state, 'failed');
      assert.match(run.error ?? '', /^git fetch exited with 128: .*(unable to connect|Connection refused)/);
      assert.equal(h.ids('wiki').length, 2, 'nothing deleted');
    } finally {
      await daemon.start();
    }
    const again = await h.run(c.id);
    assert.equal(again.state, 'completed');
    assert.equal(again.counts.unchanged, 2);
  });

  it('fails the run for a branch the repository does not have', async () => {
    const c = await h.create({
      name: 'Wiki branch',
      type: 'codehost',
      datasource: 'wiki_branch',
      settings: { repository: daemon.url('wiki'), branch: 'release/9' },
    });
    const run = await h.run(c.id);
    assert.equal(run.state, 'failed');
    assert.match(run.error ?? '', /couldn't find remote ref refs\/heads\/release\/9/);
  });

  it('refuses repositories and branches git could read as options or helpers', async () => {
    const refused = [
      { repository: '--upload-pack=touch /tmp/pwned' },
      { repository: '-u/tmp/x' },
      { repository: 'ext::sh -c touch% /tmp/pwned' },
      { repository: 'git@-oProxyCommand=touch:repo' },
      { repository: 'ssh://-oProxyCommand=touch/repo' },
      { repository: 'https://ann:secret@git.example.com/repo.git' },
      { repository: 'relative/path' },
      { repository: daemon.url('wiki'), branch: '--upload-pack=touch' },
      { repository: daemon.url('wiki'), branch: 'a..b' },
    ];
    for (const settings of refused) {
      const res = await h.admin('POST', '/connectors', { name: 'Bad', type: 'codehost', datasource: 'bad', settings });
      assert.equal(res.status, 422, JSON.stringify(settings));
    }
  });

  it('runs git with remote helpers and unknown transports disabled', async () => {
    const dir = await tempDir('git-ext-');
    const marker = join(dir, 'pwned');
    await assert.rejects(
      runGit(
        ['ls-remote', '--', `ext::sh -c touch% ${marker}`],
        { home: dir, signal: AbortSignal.timeout(10_000) },
        10_000,
      ),
      /transport 'ext' not allowed/,
    );
    assert.equal(existsSync(marker), false);
  });

  it('reads over HTTP with Basic credentials, and names no password when they are refused', async () => {
    const http = await startGitHttp(base, 'ann', 'http-pass-123');
    try {
      const c = await h.create({
        name: 'Wiki over HTTP',
        type: 'codehost',
        datasource: 'wiki_http',
        settings: { repository: http.url('wiki') },
        credentials: { username: 'ann', password: 'http-pass-123' },
      });
      const run = await h.run(c.id);
      assert.equal(run.state, 'completed', run.error ?? '');
      assert.equal(run.counts.sent, 2);
      await h.admin('PATCH', `/connectors/${c.id}`, { credentials: { username: 'ann', password: 'wrong-pass-456' } });
      const refused = await h.run(c.id);
      assert.equal(refused.state, 'failed');
      assert.match(refused.error ?? '', /git fetch exited with 128/);
      const status = JSON.stringify((await h.admin('GET', `/connectors/${c.id}/status`)).body);
      for (const secret of ['http-pass-123', 'wrong-pass-456', Buffer.from('ann:wrong-pass-456').toString('base64')])
        assert.ok(!status.includes(secret), `no ${secret} in the status`);
    } finally {
      await http.close();
    }
  });
});
