/**
 * The search `file_type` of a `file` / `asset` document follows the same chain as its computed
 * suffix (README, File suffix and search file type): the media type when the table knows it,
 * else the extension of the title, then of the path (then of path_preview). A suffix taken from
 * the path gives the search file type of that suffix, so the `file_type` filter finds it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

let h: SearchHarness;
const ann = { email: 'ann@example.com' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

before(async () => {
  h = await searchHarness();
  assert.equal((await h.api('POST', '/datasources', { name: 'drive', display_name: 'Drive' })).status, 200);
  await h.register('drive', ann.email);
  await h.push([
    // Connectors often send a display title without extension and the file name in the path.
    {
      datasource: 'drive',
      id: 'f1',
      title: 'Walrus figures',
      file_type: 'file',
      path: 'Drive > Reports > q3.pdf',
      body: { mime_type: 'application/octet-stream', binary_base64: b64('walrus figures') },
    },
    {
      datasource: 'drive',
      id: 'f2',
      title: 'Walrus deck',
      file_type: 'asset',
      path_preview: 'https://drive.example.com/files/deck.pptx',
      body: { mime_type: 'application/octet-stream', binary_base64: b64('walrus deck') },
    },
    {
      datasource: 'drive',
      id: 'f3',
      title: 'walrus.txt',
      file_type: 'file',
      path: 'Drive > notes.pdf',
      body: { mime_type: 'application/octet-stream', binary_base64: b64('walrus budget') },
    },
    {
      datasource: 'drive',
      id: 'f4',
      title: 'Walrus scan',
      file_type: 'file',
      path: 'Drive > scan.pdf',
      body: { mime_type: 'image/png', binary_base64: b64('walrus scan') },
    },
  ]);
  await h.commit();
});
after(() => h.close());

const byId = async (params: Record<string, string | number>) => {
  const r = await h.search(ann, { query: 'walrus', count: 10, ...params });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return new Map((r.body.results as { id: string; suffix: string; file_type: string }[]).map((x) => [x.id, x]));
};

describe('search file_type of file and asset documents', () => {
  test('a suffix from the path gives the file type of that suffix', async () => {
    const all = await byId({});
    assert.deepEqual(
      { suffix: all.get('drive:f1')!.suffix, file_type: all.get('drive:f1')!.file_type },
      { suffix: 'pdf', file_type: 'pdf' },
    );
    assert.deepEqual(
      { suffix: all.get('drive:f2')!.suffix, file_type: all.get('drive:f2')!.file_type },
      { suffix: 'pptx', file_type: 'powerpoint' },
    );
  });

  test('the title still comes before the path, and a known media type before both', async () => {
    const all = await byId({});
    assert.deepEqual(
      { suffix: all.get('drive:f3')!.suffix, file_type: all.get('drive:f3')!.file_type },
      { suffix: 'txt', file_type: 'txt' },
    );
    assert.deepEqual(
      { suffix: all.get('drive:f4')!.suffix, file_type: all.get('drive:f4')!.file_type },
      { suffix: 'png', file_type: 'image' },
    );
  });

  test('the file_type filter finds them', async () => {
    assert.deepEqual([...(await byId({ file_type: 'pdf' })).keys()], ['drive:f1']);
    assert.deepEqual([...(await byId({ file_type: 'powerpoint' })).keys()], ['drive:f2']);
  });
});
