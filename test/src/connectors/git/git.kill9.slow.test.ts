/**
 * The git connector's `connector run <id>` killed with SIGKILL in the middle of reading a
 * repository served by `git daemon`, several times, then run to the end: every text file is
 * indexed exactly once, and a run after that finds every file unchanged.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { connectorHarness, tempDir, killThreeTimesThenFinish } from '../../../support/connectors.ts';
import { makeRepo, startGitDaemon } from '../../../support/git.ts';

test('a git run killed with SIGKILL resumes without losing or duplicating a file', { timeout: 600_000 }, async () => {
  const n = 3000;
  const base = await tempDir('git-kill9-');
  const dataDir = await tempDir('git-kill9-data-');
  const repo = await makeRepo(join(base, 'big'));
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`dir${i % 30}/file${i}.txt`] = `contents of file ${i}`;
  await repo.commit(files, '2026-04-01T00:00:00Z');
  const daemon = await startGitDaemon(base);
  try {
    const setup = await connectorHarness({ dir: dataDir });
    const c = await setup.create({
      name: 'Kill git',
      type: 'codehost',
      datasource: 'kill_git',
      settings: { repository: daemon.url('big') },
    });
    await setup.close(false);

    const final = await killThreeTimesThenFinish(dataDir, c.id, 500);
    assert.ok(final.counts.unchanged + final.counts.already_indexed >= 500, JSON.stringify(final.counts));
    assert.equal(final.counts.unchanged + final.counts.sent + final.counts.already_indexed, n);

    const h = await connectorHarness({ dir: dataDir });
    try {
      assert.equal(h.ids('kill_git').length, n, 'every file once');
      assert.equal(h.doc('kill_git', 'dir7/file1237.txt')?.stored.path, 'big/dir7/file1237.txt');
      const again = await h.run(c.id);
      assert.deepEqual(again.counts, { unchanged: n, sent: 0, already_indexed: 0, skipped: 0, failed: 0, deleted: 0 });
    } finally {
      await h.close(false);
    }
  } finally {
    await daemon.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
