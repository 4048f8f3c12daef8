/**
 * Write side of the commit point: appends framed records to the commit log (rotating to a
 * fresh log file when the current one is large or may end in a torn record) and removes
 * files that no commit, writer or searcher needs any more.
 */
import type { Directory } from '../directory/types.ts';
import { encodeRecord, logFileName, logNumber, ROTATE_BYTES, type CommitPoint } from './commit-log.ts';
import { referencedFiles, type OpenedCommit } from './commit-open.ts';

export class CommitLogWriter {
  constructor(
    private readonly dir: Directory,
    private log: OpenedCommit['log'],
  ) {}

  /**
   * Appends `point` durably. A new log file is started (and the directory synced) when the log
   * is new, too large, or possibly torn; older logs are deleted once the new one is durable.
   * After a failed append the log may end in a partial record, so the next append rotates.
   */
  async append(point: CommitPoint): Promise<void> {
    const rec = encodeRecord(point);
    const log = this.log;
    try {
      if (log.mustRotate || (log.size > 0 && log.size + rec.length > ROTATE_BYTES)) {
        const number = log.number + 1;
        await this.dir.appendFile(logFileName(number), rec);
        await this.dir.syncDirectory();
        this.log = { number, size: rec.length, mustRotate: false };
        for (const f of await this.dir.listAll()) {
          const n = logNumber(f);
          if (n >= 0 && n < number) await this.dir.deleteFile(f);
        }
        return;
      }
      await this.dir.appendFile(logFileName(log.number), rec);
      if (log.size === 0) await this.dir.syncDirectory();
      log.size += rec.length;
    } catch (err) {
      this.log.mustRotate = true;
      throw err;
    }
  }
}

const SEGMENT_FILE = /^(s[0-9a-z]+)\.seg$/;
const DELETION_FILE = /^(s[0-9a-z]+)_([0-9a-z]+)\.del$/;

/**
 * Deletes segment files whose id is neither referenced by `point` nor in `protectedIds`
 * (segments of the writer, of flushes and merges in progress, of live searchers), and
 * deletion files not referenced by `point` whose generation is not newer than it
 * (newer ones belong to a commit in progress). Names in `keepAlso` (files of pinned
 * commit points, see IndexWriter.pinCommit) are kept too.
 */
export async function removeUnusedFiles(
  dir: Directory,
  point: CommitPoint,
  protectedIds: ReadonlySet<string>,
  keepAlso: ReadonlySet<string> = new Set(),
): Promise<number> {
  const keep = referencedFiles(point);
  for (const f of keepAlso) keep.add(f);
  let removed = 0;
  for (const f of await dir.listAll()) {
    if (keep.has(f)) continue;
    const seg = SEGMENT_FILE.exec(f);
    const del = seg ? null : DELETION_FILE.exec(f);
    if ((seg && !protectedIds.has(seg[1])) || (del && parseInt(del[2], 36) <= point.generation)) {
      await dir.deleteFile(f);
      removed++;
    }
  }
  return removed;
}
