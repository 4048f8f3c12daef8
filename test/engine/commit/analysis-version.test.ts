/** Segments record their analysis version; an index tells how many live docs predate the current one. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ANALYSIS_VERSION, MemoryDirectory, openIndex, type EngineEvent } from '../../../engine/index.ts';
import { decodeRecords, encodeRecord } from '../../../engine/commit/commit-log.ts';

const schema = { textFields: { body: {} }, keywordFields: [], numericFields: [] };

async function open(directory: MemoryDirectory) {
  const events: EngineEvent[] = [];
  const index = await openIndex({ directory, schema, log: (e) => events.push(e) });
  const opened = events.find((e) => e.type === 'open');
  return { index, stale: opened && opened.type === 'open' ? opened.staleAnalysisDocs : -1 };
}

/** Appends a copy of the last commit record without segment analysis versions (as the first release wrote it). */
async function downgradeLastCommit(directory: MemoryDirectory): Promise<void> {
  const log = (await directory.listAll())
    .filter((n) => n.startsWith('commits_'))
    .sort()
    .at(-1)!;
  const last = decodeRecords(await directory.readFile(log)).at(-1)!;
  const old = {
    ...last,
    generation: last.generation + 1,
    segments: last.segments.map(({ analysis: _a, ...rest }) => rest),
  };
  await directory.appendFile(log, encodeRecord(old));
}

test('new segments carry the current analysis version; older ones are counted until their docs are gone', async () => {
  assert.ok(ANALYSIS_VERSION >= 2);
  const directory = new MemoryDirectory();
  let { index, stale } = await open(directory);
  assert.equal(stale, 0);
  for (let i = 0; i < 3; i++) index.writer.add({ key: `old${i}`, language: 'en', text: { body: `old text ${i}` } });
  await index.writer.commit();
  await index.close();

  ({ index, stale } = await open(directory));
  assert.equal(stale, 0, 'segments written by this version are current');
  await index.close();

  await downgradeLastCommit(directory);
  ({ index, stale } = await open(directory));
  assert.equal(stale, 3);
  index.writer.add({ key: 'new0', language: 'en', text: { body: 'new text' } });
  index.writer.add({ key: 'old0', language: 'en', text: { body: 'old text 0, pushed again' } });
  await index.writer.commit();
  await index.forceMerge(1); // a merged segment keeps the oldest version of its sources
  await index.close();

  ({ index, stale } = await open(directory));
  assert.equal(stale, 4, 'the merged segment holds old1, old2, old0 (again) and new0, all counted as old');
  index.writer.delete('old1');
  index.writer.delete('old2');
  index.writer.delete('old0');
  index.writer.delete('new0');
  await index.writer.commit();
  await index.close();
  ({ index, stale } = await open(directory));
  assert.equal(stale, 0);
  await index.close();
});
