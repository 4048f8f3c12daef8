/**
 * Child process of the kill -9 test: opens the index in argv[2] and, starting at key number
 * argv[3], adds documents in batches and commits in a loop (with deletes, updates, tiny RAM
 * buffers and an eager merge policy so flushes and merges are in flight when it dies).
 * After each commit resolves it prints "C <last key number>" on stdout. Key i is deleted in
 * its own batch when i % 10 === 3; key i - 1 is re-added (updated) with stored.v = 2.
 */
import { openIndex, FsDirectory } from '../../../engine/index.ts';

const [dirPath, startArg] = process.argv.slice(2);
const dir = await FsDirectory.open(dirPath);
const index = await openIndex({
  directory: dir,
  schema: { textFields: { body: {} }, keywordFields: ['batch'], numericFields: [] },
  ramBufferBytes: 16 * 1024,
  merge: { floorSegmentBytes: 1024, segmentsPerTier: 3, maxMergeAtOnce: 3 },
});
process.stdout.write('READY\n');
let next = Number(startArg);
for (let batch = 0; ; batch++) {
  const size = 1 + ((batch * 37) % 60);
  for (let k = 0; k < size; k++, next++) {
    index.writer.add({
      key: `c${next}`,
      language: 'en',
      text: { body: `crash test document ${next} words alpha beta ${next % 17}` },
      keywords: { batch: [`b${next % 5}`] },
      stored: { i: next, v: 1 },
    });
    if (next % 10 === 3) index.writer.delete(`c${next}`);
    if (next % 10 === 6) {
      index.writer.add({
        key: `c${next - 1}`,
        language: 'en',
        text: { body: `updated ${next - 1}` },
        stored: { i: next - 1, v: 2 },
      });
    }
  }
  await index.writer.commit();
  process.stdout.write(`C ${next - 1}\n`);
}
