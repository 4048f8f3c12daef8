/**
 * Faults of the files connector: a file that fails extraction is reported failed with the
 * extractor's reason, the run goes on, and every next run tries it again until it succeeds; a
 * missing root fails the run and deletes nothing; an empty root (an unmounted share) and a
 * folder that cannot be listed make the listing incomplete, so nothing is deleted; a file whose
 * metadata cannot be read and a file over the size limit are reported failed, the latter without
 * being read. Unreadable means unreadable for root too (CI runs as root): paths past PATH_MAX.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, rm, rename, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, tempDir, writeTree, type ConnectorHarness } from '../../support/connectors.ts';

const SAMPLE_PDF = new URL('../../extractors/fixtures/sample.pdf', import.meta.url).pathname;
const T0 = 1_767_225_600;

let h: ConnectorHarness;
let root: string;
let id: string;
before(async () => {
  h = await connectorHarness();
  root = await tempDir('files-faults-');
  await writeTree(
    root,
    { 'good.txt': 'fine text', 'bad.pdf': '%PDF-1.4 not really a pdf', 'big.txt': 'x'.repeat(2000) },
    T0,
  );
  id = (
    await h.create({
      name: 'Faulty',
      type: 'fileshares',
      datasource: 'faulty',
      settings: { root, max_file_bytes: 1500 },
    })
  ).id;
});
after(async () => {
  await h.close();
  await rm(root, { recursive: true, force: true });
});

describe('files connector faults', () => {
  it('reports a file that fails extraction and one over the size limit, and indexes the rest', async () => {
    const run = await h.run(id);
    assert.equal(run.state, 'completed');
    assert.equal(run.counts.sent, 1);
    assert.equal(run.counts.failed, 2);
    const reasons = Object.fromEntries(run.failures.map((f) => [f.item, f.reason]));
    assert.match(reasons['bad.pdf'], /pdf: cannot parse document/);
    assert.match(reasons['big.txt'], /2000 bytes, more than the limit of 1500/);
    assert.ok(h.doc('faulty', 'good.txt'));
    assert.equal(h.doc('faulty', 'bad.pdf'), undefined);
    assert.ok(!h.extracted.includes('big.txt'), 'the oversized file is not read');
  });

  it('tries the failed file again on the next run, and indexes it once it is fixed', async () => {
    h.extracted.length = 0;
    const again = await h.run(id);
    assert.deepEqual(h.extracted, ['bad.pdf'], 'only the failed file is read again');
    assert.equal(again.counts.failed, 2);
    await copyFile(SAMPLE_PDF, join(root, 'bad.pdf'));
    await utimes(join(root, 'bad.pdf'), T0 + 5, T0 + 5);
    const fixed = await h.run(id);
    assert.equal(fixed.counts.sent, 1);
    assert.equal(fixed.counts.failed, 1, 'only the oversized file is left');
    assert.ok(h.doc('faulty', 'bad.pdf'));
  });

  it('an empty root deletes nothing (an unmounted share)', async () => {
    const away = `${root}-away`;
    await rename(root, away);
    await mkdir(root);
    try {
      const run = await h.run(id);
      assert.equal(run.state, 'completed');
      assert.match(run.incomplete ?? '', /is empty/);
      assert.equal(run.counts.deleted, 0);
      assert.equal(h.ids('faulty').length, 2);
    } finally {
      await rm(root, { recursive: true });
      await rename(away, root);
    }
  });

  it('a missing root fails the run and deletes nothing', async () => {
    const away = `${root}-away`;
    await rename(root, away);
    try {
      const run = await h.run(id);
      assert.equal(run.state, 'failed');
      assert.match(run.error ?? '', /root folder .* cannot be read/);
      assert.equal(h.ids('faulty').length, 2);
      const status = (await h.admin('GET', `/connectors/${id}/status`)).body;
      assert.equal(status.last_run.state, 'failed');
    } finally {
      await rename(away, root);
    }
  });

  it("never crawls the service's data directory", async () => {
    const top = await tempDir('files-around-data-');
    const inner = await connectorHarness({ dir: join(top, 'data'), onDisk: false });
    try {
      await writeTree(top, { 'note.txt': 'a file beside the service data' });
      const inside = await inner.create({
        name: 'Inside',
        type: 'fileshares',
        datasource: 'inside',
        settings: { root: join(top, 'data', 'documents') },
      });
      const refused = await inner.run(inside.id);
      assert.equal(refused.state, 'failed');
      assert.match(refused.error ?? '', /inside the service's data directory/);
      const around = await inner.create({
        name: 'Around',
        type: 'fileshares',
        datasource: 'around',
        settings: { root: top },
      });
      const run = await inner.run(around.id);
      assert.equal(run.state, 'completed');
      assert.equal(run.counts.sent, 1, 'only the note; the data directory is skipped');
      assert.ok(inner.doc('around', 'note.txt'));
    } finally {
      await inner.close(false);
      await rm(top, { recursive: true, force: true });
    }
  });

  it('a folder that cannot be listed makes the listing incomplete; a file that cannot be read fails', async () => {
    // Nobody can open a path longer than PATH_MAX (4,096 bytes on Linux), root included, so a
    // tree that grows past it (deep shares do) fails here whatever the privileges. Renaming
    // the top folders to longer names pushes the deepest folder and a file beside it past the
    // limit, while every folder above stays listable; renaming them back repairs the tree.
    const short = 'd'.repeat(100);
    const long = 'L'.repeat(255);
    // The innermost folder ends 3,390 bytes in: five renames add 775, which puts it past the
    // limit and its parent (with the file's long name) as well, while the parent stays listable.
    const base = root.length + '/deep'.length;
    const depth = Math.floor((3_390 - base) / (short.length + 1));
    const last = 'd'.repeat(short.length + (3_390 - base - depth * (short.length + 1)));
    const chain = [...Array(depth - 1).fill(short), last];
    const lastName = 'x'.repeat(150) + '.txt';
    const inner = ['deep', ...chain].join('/');
    const outer = ['deep', ...chain.slice(0, -1)].join('/');
    await writeTree(root, { [`${inner}/far.txt`]: 'far away', [`${outer}/${lastName}`]: 'beside' }, T0);
    const oldKeys = [`${inner}/far.txt`, `${outer}/${lastName}`];
    const first = await h.run(id);
    assert.equal(first.counts.sent, 2);
    const renamed = 5;
    const renameTop = async (from: string, to: string) => {
      for (let i = 1; i <= renamed; i++) {
        const parent = join(root, 'deep', ...Array(i - 1).fill(to));
        await rename(join(parent, from), join(parent, to));
      }
    };
    await renameTop(short, long);
    try {
      const run = await h.run(id);
      assert.equal(run.state, 'completed');
      assert.match(run.incomplete ?? '', /^folder deep\/L+\/.* could not be listed: ENAMETOOLONG/);
      assert.equal(run.counts.failed, 2, 'the failed PDF stays failed, and the file beside the folder fails');
      const failed = run.failures.find((f) => f.item.endsWith(lastName));
      assert.match(failed?.reason ?? '', /cannot read the file's metadata: ENAMETOOLONG/);
      assert.equal(run.counts.deleted, 0);
      for (const key of oldKeys) assert.ok(h.doc('faulty', key), 'its files stay');
    } finally {
      await renameTop(long, short);
    }
    const repaired = await h.run(id);
    assert.equal(repaired.incomplete, null);
    assert.equal(repaired.counts.deleted, 1, 'only the key that failed under its longer name, gone now');
    assert.equal(repaired.counts.failed, 1, 'only the oversized file is left');
    for (const key of oldKeys) assert.ok(h.doc('faulty', key));
  });
});
