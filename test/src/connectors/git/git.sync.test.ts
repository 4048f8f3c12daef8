/**
 * The git connector against real git servers on 127.0.0.1: a repository served by `git daemon`
 * becomes documents (READMEs and Markdown as `markdown`, other text as `file`, the repository
 * name in the path, the last commit's date and author); binary, oversized and Git LFS files are
 * skipped with their reasons; later runs read only changed blobs, delete removed files, and push
 * an edit even when its commit has the same second as the previous one; a local path works too.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, tempDir, type ConnectorHarness } from '../../../support/connectors.ts';
import { makeRepo, startGitDaemon } from '../../../support/git.ts';

let h: ConnectorHarness;
let base: string;
let repo: Awaited<ReturnType<typeof makeRepo>>;
let daemon: Awaited<ReturnType<typeof startGitDaemon>>;
let id: string;

const stored = (key: string) => h.doc('handbook', key)?.stored;

before(async () => {
  h = await connectorHarness();
  base = await tempDir('git-base-');
  repo = await makeRepo(join(base, 'handbook'));
  await repo.commit(
    {
      'README.md': '# Handbook\n\nHow we work.',
      'docs/guide.md': 'The travel guide: book trains.',
      'src/app.ts': 'export const greeting = "hello";',
      'notes.txt': 'first notes',
    },
    '2026-01-01T00:00:00Z',
  );
  await repo.commit(
    {
      'docs/guide.md': 'The travel guide: book trains for trips under 500 km.',
      'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]),
      'big.txt': 'x'.repeat(5000),
      'assets/video.mp4': 'version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 123456\n',
    },
    '2026-01-02T00:00:00Z',
    'Bob Builder',
  );
  daemon = await startGitDaemon(base);
  id = (
    await h.create({
      name: 'Handbook repo',
      type: 'codehost',
      datasource: 'handbook',
      settings: {
        repository: daemon.url('handbook'),
        max_file_bytes: 2000,
        url_template: 'https://git.example.com/{name}/blob/{commit}/{path}',
      },
    })
  ).id;
});
after(async () => {
  await h?.close();
  await daemon?.stop();
});

describe('git connector', () => {
  it('indexes the text files with their last commit, and skips the others with reasons', async () => {
    const run = await h.run(id);
    assert.equal(run.state, 'completed', JSON.stringify(run));
    assert.deepEqual(run.counts, { unchanged: 0, sent: 4, already_indexed: 0, skipped: 3, failed: 0, deleted: 0 });
    assert.deepEqual(run.failures.map((f) => `${f.item}: ${f.reason}`).sort(), [
      'assets/video.mp4: skipped: a Git LFS pointer (the file is not in the repository)',
      'big.txt: skipped: the file has 5000 bytes, more than the limit of 2000',
      'logo.png: skipped: a binary file',
    ]);
    const guide = stored('docs/guide.md')!;
    assert.equal(guide.title, 'guide.md');
    assert.equal(guide.path, 'handbook/docs/guide.md');
    assert.equal(guide.document_type, 'markdown');
    assert.equal(guide.last_modified, '2026-01-02T00:00:00.000Z');
    assert.equal(guide.author, 'Bob Builder');
    assert.match(
      String(guide.path_preview),
      /^https:\/\/git\.example\.com\/handbook\/blob\/[0-9a-f]{40}\/docs\/guide\.md$/,
    );
    assert.equal(stored('README.md')?.document_type, 'markdown');
    assert.equal(stored('src/app.ts')?.document_type, 'file');
    assert.equal(stored('src/app.ts')?.last_modified, '2026-01-01T00:00:00.000Z');
    assert.deepEqual(h.doc('handbook', 'README.md')?.keywords.category, ['codehost']);
    assert.equal(h.doc('handbook', 'logo.png'), undefined);
    assert.ok(existsSync(join(h.dir, 'connectors', id, 'work', 'repository.git', 'HEAD')), 'the clone is in DATA_DIR');
  });

  it('reads nothing on a second run', async () => {
    const run = await h.run(id);
    assert.deepEqual(run.counts, { unchanged: 7, sent: 0, already_indexed: 0, skipped: 0, failed: 0, deleted: 0 });
  });

  it('sends changed and new files, and deletes removed ones', async () => {
    await repo.commit(
      { 'src/app.ts': 'export const greeting = "bonjour";', 'docs/guide.md': null, 'docs/faq.md': 'Questions.' },
      '2026-02-01T00:00:00Z',
    );
    const run = await h.run(id);
    assert.deepEqual(run.counts, { unchanged: 5, sent: 2, already_indexed: 0, skipped: 0, failed: 0, deleted: 1 });
    assert.equal(stored('docs/guide.md'), undefined);
    assert.equal(stored('src/app.ts')?.last_modified, '2026-02-01T00:00:00.000Z');
    assert.equal(stored('docs/faq.md')?.title, 'faq.md');
  });

  it('pushes an edit whose commit has the same second as the one before', async () => {
    await repo.commit({ 'src/app.ts': 'export const greeting = "hallo zusammen";' }, '2026-02-01T00:00:00Z');
    const run = await h.run(id);
    assert.equal(run.counts.sent, 1, JSON.stringify(run.counts));
    const searcher = h.index.reader.searcher();
    try {
      const hits = searcher.search({ query: 'zusammen', limit: 5, language: 'de' }).hits;
      assert.deepEqual(
        hits.map((x) => x.stored.title),
        ['app.ts'],
      );
    } finally {
      h.index.reader.release(searcher);
    }
    assert.equal(stored('src/app.ts')?.last_modified, '2026-02-01T00:00:01.000Z');
  });

  it('reads a repository from a local path and a branch', async () => {
    const c = await h.create({
      name: 'Local',
      type: 'codehost',
      datasource: 'local_repo',
      settings: { repository: repo.dir, branch: 'main', name: 'hb', include: ['*.md'] },
    });
    const run = await h.run(c.id);
    assert.equal(run.state, 'completed', run.error ?? '');
    assert.deepEqual(run.counts.sent, 2);
    assert.equal(h.doc('local_repo', 'README.md')?.stored.path, 'hb/README.md');
  });
});
