/**
 * Index.rebuild: every live document is re-added from what the index stores; keys, text,
 * keyword and numeric columns and stored fields come out as they went in, deleted documents
 * stay deleted, and every segment is newly written (the old ones are gone).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryDirectory, openIndex } from '../../../engine/index.ts';
import { liveDocs, makeDoc, SCHEMA } from '../helpers/storage-fixtures.ts';

function columns(index: Awaited<ReturnType<typeof openIndex>>) {
  const out = new Map<string, unknown>();
  for (const seg of index.reader.segments())
    for (let d = 0; d < seg.maxDoc; d++)
      if (!seg.isDeleted(d))
        out.set(seg.key(d), {
          ds: seg.keywords('ds', d),
          acl: [...seg.keywords('acl', d)].sort(),
          modified: seg.numeric('modified', d),
          language: seg.language(d),
        });
  return out;
}

test('rebuild re-adds every live document with the same fields into new segments', async () => {
  const index = await openIndex({ directory: new MemoryDirectory(), schema: SCHEMA, merge: false });
  for (let batch = 0; batch < 3; batch++) {
    for (let i = batch * 40; i < batch * 40 + 40; i++) index.writer.add(makeDoc(i, i === 5 ? { language: 'de' } : {}));
    await index.writer.commit();
  }
  index.writer.delete('k7');
  index.writer.add(makeDoc(8, { stored: { n: 'replaced' } }));
  await index.writer.commit();
  const docsBefore = liveDocs(index);
  const columnsBefore = columns(index);
  const idsBefore = new Set(index.reader.segments().map((s) => s.id));
  const progress: number[] = [];
  const result = await index.rebuild((p) => progress.push(p.done));
  assert.deepEqual(result, { done: 119, total: 119 });
  assert.equal(progress.at(-1), 119);
  assert.deepEqual(liveDocs(index), docsBefore);
  assert.deepEqual(columns(index), columnsBefore);
  assert.equal(liveDocs(index).has('k7'), false);
  assert.deepEqual(liveDocs(index).get('k8')?.stored, { n: 'replaced' });
  for (const s of index.reader.segments()) assert.ok(!idsBefore.has(s.id), `segment ${s.id} was rewritten`);
  assert.equal(index.reader.searcher().search({ query: '"w3"', limit: 100, language: 'en' }).total, 12);
  await index.close();
});
