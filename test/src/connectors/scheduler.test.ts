/**
 * Runs in time: a new connector runs at once in the background and then every interval;
 * a run paused midway records what it pushed, and resuming sends exactly the rest; a stop
 * (shutdown) ends a run `stopped`, and the next start resumes it at once.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { connectorHarness, tempDir, writeTree } from '../../support/connectors.ts';
import { waitFor } from '../../support/wait.ts';

async function tree(n: number): Promise<string> {
  const root = await tempDir('sched-root-');
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`d${i % 10}/f${i}.txt`] = `file number ${i}`;
  await writeTree(root, files);
  return root;
}

describe('connector scheduling', () => {
  it('runs a new connector at once in the background, then every interval', async () => {
    const root = await tree(3);
    const h = await connectorHarness({ background: true });
    try {
      const c = await h.create({
        name: 'Every hour',
        type: 'fileshares',
        datasource: 'hourly',
        interval_minutes: 60,
        settings: { root },
      });
      const run = await h.scheduler.whenIdle(c.id);
      assert.equal(run?.trigger, 'schedule');
      assert.equal(run?.counts.sent, 3);
      const status = (await h.admin('GET', `/connectors/${c.id}/status`)).body;
      assert.equal(Date.parse(status.next_run_at) - Date.parse(status.last_run.started_at), 60 * 60_000);
    } finally {
      await h.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('a paused run keeps what it pushed; resuming sends exactly the rest', async () => {
    const n = 1500;
    const root = await tree(n);
    const h = await connectorHarness();
    try {
      const c = await h.create({ name: 'Big', type: 'fileshares', datasource: 'big', settings: { root } });
      const started = await h.admin('POST', `/connectors/${c.id}/run`);
      assert.equal(started.status, 202);
      const live = h.scheduler.status(h.records().get(c.id)!).current_run!;
      await waitFor(() => live.progress.done >= 200, 'the run is under way', 60_000);
      await h.admin('POST', `/connectors/${c.id}/pause`);
      const paused = await h.scheduler.whenIdle(c.id);
      assert.equal(paused?.state, 'paused');
      assert.ok(paused!.counts.sent > 0 && paused!.counts.sent < n, `sent ${paused!.counts.sent}`);
      assert.equal(paused!.counts.deleted, 0);
      assert.equal(h.ids('big').length, paused!.counts.sent, 'every pushed file is committed');
      const resumed = await h.admin('POST', `/connectors/${c.id}/resume`);
      assert.equal(resumed.status, 200);
      const rest = await h.scheduler.whenIdle(c.id);
      assert.equal(rest?.state, 'completed');
      assert.equal(rest!.counts.unchanged, paused!.counts.sent);
      assert.equal(rest!.counts.sent, n - paused!.counts.sent);
      assert.equal(rest!.counts.already_indexed, 0);
      assert.equal(h.ids('big').length, n);
    } finally {
      await h.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('a run stopped by a shutdown is resumed at the next start', async () => {
    const n = 1500;
    const root = await tree(n);
    const dir = await tempDir('sched-restart-');
    try {
      const h = await connectorHarness({ dir });
      const c = await h.create({ name: 'Restart', type: 'fileshares', datasource: 'restart', settings: { root } });
      await h.admin('POST', `/connectors/${c.id}/run`);
      const live = h.scheduler.status(h.records().get(c.id)!).current_run!;
      await waitFor(() => live.progress.done >= 200, 'the run is under way', 60_000);
      await h.close(false);
      const h2 = await connectorHarness({ dir, background: true });
      try {
        const status = (await h2.admin('GET', `/connectors/${c.id}/status`)).body;
        assert.equal(status.state, 'running', 'resumed at once');
        const run = await h2.scheduler.whenIdle(c.id);
        assert.equal(run?.trigger, 'restart');
        assert.equal(run?.state, 'completed');
        assert.equal(h2.ids('restart').length, n);
        const runs = (await h2.admin('GET', `/connectors/${c.id}`)).body.status;
        assert.equal(runs.last_run.run, 2);
      } finally {
        await h2.close(false);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(root, { recursive: true, force: true });
    }
  });
});
