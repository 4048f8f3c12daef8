/**
 * IndexWriter.pinCommit (online backups): the pinned commit's files survive later commits and
 * merges until released, and its files plus its one-record commit log open elsewhere as
 * exactly that commit.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryDirectory, openIndex } from '../../../engine/index.ts';
import { liveDocs, makeDoc, SCHEMA } from '../helpers/storage-fixtures.ts';

test('a pinned commit keeps its files until released and opens as that commit elsewhere', async () => {
  const directory = new MemoryDirectory();
  const index = await openIndex({ directory, schema: SCHEMA, merge: false });
  for (let i = 0; i < 30; i++) index.writer.add(makeDoc(i));
  await index.writer.commit();
  index.writer.delete('k3');
  await index.writer.commit();
  const pinned = index.writer.pinCommit();
  const expected = liveDocs(index);
  assert.equal(pinned.docCount, 29);
  assert.ok(
    pinned.files.some((f) => f.endsWith('.del')),
    'the deletions file is part of the snapshot',
  );

  // Later changes drop every document of the pinned segment: without the pin its files would go.
  for (let i = 0; i < 30; i++) index.writer.delete(`k${i}`);
  index.writer.add(makeDoc(100));
  await index.writer.commit();
  const present = new Set(await directory.listAll());
  for (const f of pinned.files) assert.ok(present.has(f), `${f} kept while pinned`);

  const copy = new MemoryDirectory();
  for (const f of pinned.files) await copy.writeFile(f, [await directory.readFile(f)]);
  await copy.appendFile(pinned.commitLog.name, pinned.commitLog.bytes);
  const restored = await openIndex({ directory: copy, schema: SCHEMA, merge: false });
  assert.deepEqual(liveDocs(restored), expected);
  await restored.close();

  pinned.release();
  index.writer.add(makeDoc(101));
  await index.writer.commit();
  const after = new Set(await directory.listAll());
  assert.ok(
    pinned.files.some((f) => !after.has(f)),
    'released: the files no commit needs are removed',
  );
  await index.close();
});
