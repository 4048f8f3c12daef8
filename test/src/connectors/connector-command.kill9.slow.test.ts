/**
 * `connector run <id>` killed with SIGKILL in the middle of a run, several times, then run to
 * the end: every file is indexed exactly once with its content, nothing is lost, and a run
 * after that finds everything unchanged (the item state holds every file, nothing twice).
 * Also: the command refuses a data directory that a server holds.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { FsDirectory } from '../../../engine/index.ts';
import {
  connectorHarness,
  killThreeTimesThenFinish,
  runConnectorCommand,
  tempDir,
  writeTree,
} from '../../support/connectors.ts';

test(
  'a connector run killed with SIGKILL resumes without losing or duplicating anything',
  { timeout: 600_000 },
  async () => {
    const n = 8000;
    const root = await tempDir('kill9-root-');
    const dataDir = await tempDir('kill9-data-');
    try {
      const files: Record<string, string> = {};
      for (let i = 0; i < n; i++) files[`d${i % 40}/f${i}.txt`] = `contents of file ${i} token${i}`;
      await writeTree(root, files);
      const setup = await connectorHarness({ dir: dataDir });
      const c = await setup.create({ name: 'Kill', type: 'fileshares', datasource: 'kill', settings: { root } });
      await setup.close(false);

      const final = await killThreeTimesThenFinish(dataDir, c.id, 1000);
      assert.ok(
        final.counts.unchanged + final.counts.already_indexed >= 1000,
        `the last run resumed: what the killed runs pushed is recorded or answered already_indexed (${JSON.stringify(final.counts)})`,
      );
      assert.equal(final.counts.unchanged + final.counts.sent + final.counts.already_indexed, n);

      const h = await connectorHarness({ dir: dataDir });
      try {
        assert.equal(h.ids('kill').length, n, 'every file once');
        for (const i of [0, 1, 777, n - 1]) {
          const doc = h.doc('kill', `d${i % 40}/f${i}.txt`);
          assert.equal(doc?.stored.title, `f${i}.txt`);
        }
        const searcher = h.index.reader.searcher();
        const hits = searcher.search({ query: '"contents of file 4242"', limit: 10, language: 'en' }).hits;
        assert.deepEqual(
          hits.map((x) => x.stored.title),
          ['f4242.txt'],
          'the content is indexed',
        );
        h.index.reader.release(searcher);
        const again = await h.run(c.id);
        assert.deepEqual(again.counts, {
          unchanged: n,
          sent: 0,
          already_indexed: 0,
          skipped: 0,
          failed: 0,
          deleted: 0,
        });
      } finally {
        await h.close(false);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
    }
  },
);

test('the command refuses a data directory a server holds', { timeout: 60_000 }, async () => {
  const dataDir = await tempDir('cli-locked-');
  try {
    const lock = await (await FsDirectory.open(join(dataDir, 'index'))).lock();
    try {
      const end = await runConnectorCommand(dataDir, 'conn_000000000000000000000000');
      assert.equal(end.code, 1);
      assert.match(end.stderr, /is in use .*POST \/api\/admin\/connectors\/conn_0+\/run/s);
    } finally {
      await lock.release();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
