/**
 * The mail connector's `connector run <id>` killed with SIGKILL in the middle of reading a real
 * Dovecot mailbox, several times, then run to the end: every message is indexed exactly once
 * with its content, and a run after that finds every message unchanged.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { test } from 'node:test';
import { connectorHarness, tempDir, killThreeTimesThenFinish } from '../../../support/connectors.ts';
import { mailText, startDovecot } from '../../../support/dovecot.ts';

test(
  'a mail run killed with SIGKILL resumes without losing or duplicating a message',
  { timeout: 600_000 },
  async () => {
    const n = 3000;
    const dovecot = await startDovecot();
    const dataDir = await tempDir('mail-kill9-');
    try {
      await dovecot.addUser('ann@example.com', 'kill-secret');
      for (let i = 0; i < n; i++) {
        const spec = { subject: `Message ${i}`, messageId: `m${i}@example.com`, body: `body of message ${i} tok${i}` };
        await dovecot.deliver('ann@example.com', i % 3 === 0 ? 'Sent' : 'INBOX', mailText(spec));
      }
      const setup = await connectorHarness({ dir: dataDir });
      const c = await setup.create({
        name: 'Kill mail',
        type: 'mailsuite',
        datasource: 'kill_mail',
        settings: {
          host: '127.0.0.1',
          port: dovecot.port,
          security: 'plain',
          owner: 'ann@example.com',
          folders: ['*'],
        },
        credentials: { username: 'ann@example.com', password: 'kill-secret' },
      });
      await setup.close(false);

      const final = await killThreeTimesThenFinish(dataDir, c.id, 500);
      assert.equal(final.counts.deleted, 0);
      assert.ok(final.counts.unchanged + final.counts.already_indexed >= 500, JSON.stringify(final.counts));
      assert.equal(final.counts.unchanged + final.counts.sent + final.counts.already_indexed, n);

      const h = await connectorHarness({ dir: dataDir });
      try {
        assert.equal(h.ids('kill_mail').length, n, 'every message once');
        const searcher = h.index.reader.searcher();
        try {
          const hits = searcher.search({ query: '"body of message 2345"', limit: 10, language: 'en' }).hits;
          assert.deepEqual(
            hits.map((x) => x.stored.title),
            ['Message 2345'],
            'the content is indexed',
          );
        } finally {
          h.index.reader.release(searcher);
        }
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
      await dovecot.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
);
