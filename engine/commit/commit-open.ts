/**
 * Opening an index directory: finds the last complete commit record (newest log first,
 * torn tails ignored), loads the segments and deletion files it references, and removes
 * every engine file it does not reference (leftovers of a crash or of superseded commits).
 */
import type { Directory } from '../directory/types.ts';
import { EngineError } from '../errors.ts';
import { SegmentCore } from '../segment/segment-reader.ts';
import { segmentFileName } from '../segment/segment-writer.ts';
import { decodeRecords, encodeRecord, logFileName, logNumber, type CommitPoint } from './commit-log.ts';
import { decodeDeletions, deletionFileName } from './deletions.ts';

export interface LoadedSegment {
  core: SegmentCore;
  bits: Uint8Array;
  delCount: number;
  delGen: number;
}

export interface OpenedCommit {
  point: CommitPoint;
  segments: LoadedSegment[];
  /** Log file to append the next record to, its valid size, and whether it must be rotated (torn tail). */
  log: { number: number; size: number; mustRotate: boolean };
  removedFiles: number;
}

const ENGINE_FILE = /(\.seg|\.del|\.log|\.tmp)$/;

export const EMPTY_POINT: CommitPoint = { generation: 0, committedAt: 0, nextSegment: 0, segments: [], docCount: 0 };

/** Files referenced by a commit point (segments, deletions). */
export function referencedFiles(point: CommitPoint): Set<string> {
  const out = new Set<string>();
  for (const s of point.segments) {
    out.add(segmentFileName(s.id));
    if (s.delGen > 0) out.add(deletionFileName(s.id, s.delGen));
  }
  return out;
}

export async function openCommit(dir: Directory): Promise<OpenedCommit> {
  const files = await dir.listAll();
  const logs = files.filter((f) => logNumber(f) >= 0).sort((a, b) => logNumber(b) - logNumber(a));
  let point: CommitPoint = EMPTY_POINT;
  let log = { number: 0, size: 0, mustRotate: true };
  for (const name of logs) {
    const data = await dir.readFile(name);
    const records = decodeRecords(data);
    if (records.length === 0) continue;
    point = records[records.length - 1];
    let valid = 0;
    for (const r of records) valid += encodeRecord(r).length;
    log = { number: logNumber(name), size: valid, mustRotate: valid !== data.length };
    break;
  }
  if (logs.length > 0 && log.mustRotate && point === EMPTY_POINT) log.number = logNumber(logs[0]);

  const segments = await Promise.all(
    point.segments.map(async (s): Promise<LoadedSegment> => {
      const name = segmentFileName(s.id);
      let bytes: Uint8Array;
      try {
        bytes = await dir.readFile(name);
      } catch (err) {
        throw new EngineError('CORRUPT_INDEX', `commit ${point.generation} references missing segment ${name}`, {
          cause: err,
        });
      }
      const core = new SegmentCore(bytes, name);
      if (core.maxDoc !== s.maxDoc) throw new EngineError('CORRUPT_INDEX', `segment ${name}: maxDoc mismatch`);
      let bits: Uint8Array = new Uint8Array((s.maxDoc + 7) >>> 3);
      let delCount = 0;
      if (s.delGen > 0) {
        const dname = deletionFileName(s.id, s.delGen);
        let data: Uint8Array;
        try {
          data = await dir.readFile(dname);
        } catch (err) {
          throw new EngineError('CORRUPT_INDEX', `commit ${point.generation} references missing deletions ${dname}`, {
            cause: err,
          });
        }
        ({ bits, delCount } = decodeDeletions(data, s.maxDoc, dname));
      }
      return { core, bits, delCount, delGen: s.delGen };
    }),
  );

  const keep = referencedFiles(point);
  if (!log.mustRotate || point !== EMPTY_POINT) keep.add(logFileName(log.number));
  let removedFiles = 0;
  for (const f of files) {
    if (keep.has(f) || !ENGINE_FILE.test(f)) continue;
    await dir.deleteFile(f);
    removedFiles++;
  }
  if (removedFiles > 0) await dir.syncDirectory();
  if (!keep.has(logFileName(log.number))) log = { number: log.number + 1, size: 0, mustRotate: false };
  return { point, segments, log, removedFiles };
}
