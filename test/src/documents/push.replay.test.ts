/**
 * Bulk pushes over HTTP are queued as the items' JSON as received (one record per request); after
 * a restart whose engine holds none of them, the replayed documents are indexed exactly as the
 * pushed ones: same stored fields, access tokens, sub binding and properties.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanFile } from '../../../src/storage/record-log.ts';
import { docsHarness } from '../../support/documents.ts';

test('documents pushed in bulk replay from their raw items to the same indexed documents', async () => {
  const h1 = await docsHarness();
  const ds = await h1.api('POST', '/datasources', {
    name: 'wiki',
    display_name: 'Wiki',
    subs: [{ name: 'HR' }, { name: 'Policies', parent_key: 'hr' }],
    object_definitions: [
      {
        name: 'page',
        property_definitions: [
          { name: 'pages', display_label: 'Pages', is_searchable: true, property_type: 'INTEGER' },
        ],
      },
    ],
  });
  assert.equal(ds.status, 200);
  const documents = [
    {
      datasource: 'wiki',
      id: 'a',
      title: 'Travel "policy" \\ Größe',
      file_type: 'wiki',
      last_modified: '2026-01-01T00:00:00Z',
      body: { mime_type: 'text/plain', text_content: 'Trains for trips 😀 under 500 km.\n' },
    },
    {
      datasource: 'wiki',
      id: 'b',
      title: 'Expenses',
      file_type: 'content',
      path: 'Wiki > HR > Expenses',
      data_source_sub_sub: 'policies',
      body: { mime_type: 'text/plain', text_content: 'Receipts within 30 days.' },
      permissions: { allowed_users: [{ email: '  Ann@Example.com ' }], allowed_groups: ['staff'] },
      custom_properties: [{ name: 'pages', value: 3 }],
    },
    { datasource: 'wiki', id: 'bad/id', file_type: 'wiki' },
    {
      datasource: 'wiki',
      id: 'c',
      file_type: 'wiki',
      title: 'archive.verylongsuffix',
      body: { mime_type: 'text/plain', text_content: 'skipped' },
    },
  ];
  const r = await h1.api('POST', '/documents', JSON.stringify({ documents }, null, 2));
  assert.equal(r.status, 200);
  assert.deepEqual(
    r.body.results.map((x: { outcome: string }) => x.outcome),
    ['sent', 'sent', 'failed', 'skipped'],
  );
  // The queue as a crash before the first commit would leave it: one record for the request.
  await h1.documents.pipeline.drained();
  const copy = await mkdtemp(join(tmpdir(), 'docs-replay-'));
  await cp(join(h1.dir, 'documents', 'queue'), join(copy, 'documents', 'queue'), { recursive: true });
  const files = (await readdir(join(copy, 'documents', 'queue'))).filter((n) => n.endsWith('.bin'));
  const records = (
    await Promise.all(files.map(async (f) => (await scanFile(join(copy, 'documents', 'queue', f)))!.records.length))
  ).reduce((a, b) => a + b, 0);
  assert.equal(records, 1);
  await h1.commit();
  const expected = ['wiki:a', 'wiki:b'].map((k) => h1.index.reader.searcher().get(k));
  assert.ok(expected[0] && expected[1]);
  await h1.close();

  // A restart with an empty engine replays the queue.
  const h2 = await docsHarness({ dir: copy, state: h1.services.state });
  try {
    await h2.commit();
    const s = h2.index.reader.searcher();
    for (const [i, key] of ['wiki:a', 'wiki:b'].entries()) {
      const got = s.get(key)!;
      assert.ok(got, `${key} replayed`);
      const { indexed_at: _a, ...stored } = got.stored;
      const { indexed_at: _b, ...want } = expected[i]!.stored;
      assert.deepEqual(stored, want);
      assert.deepEqual(got.keywords, expected[i]!.keywords);
      assert.deepEqual(got.numbers, expected[i]!.numbers);
    }
    assert.equal(s.get('wiki:c'), null);
    assert.equal(s.numDocs, 2);
  } finally {
    await h2.close(true);
  }
});
