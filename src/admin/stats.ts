/**
 * The server's state at a glance, for the dashboard's overview and
 * `GET /api/admin/stats` (domain, no HTTP): version and uptime; per
 * datasource its committed documents, operations queued and not yet
 * committed, skipped and failed documents; the queue; the last commit; the
 * index (documents, segments, deletions, bytes); the data directory's disk use
 * and the file system's free space; and the latest skipped and failed
 * documents with their messages.
 *
 * Bounded cost: documents per datasource are counted once per index commit
 * (one pass over the datasource column, kept until the next commit), the
 * statuses in memory are bounded by the status registry, and the disk walk
 * stops after MAX_FILES entries (then `complete` is false).
 */
import { readdir, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { Index } from '../../engine/index.ts';
import { VERSION } from '../cli.ts';
import { indexingState } from '../controlplane/datasources.ts';
import type { DocumentService } from '../documents/service.ts';
import type { StateStore } from '../state/store.ts';

/** Files and folders the disk walk looks at before it stops counting. */
const MAX_FILES = 100_000;
/** Skipped and failed documents listed (newest first). */
export const REJECTED_LISTED = 100;

export interface StatsDeps {
  state: StateStore;
  dataDir: string;
  documents?: DocumentService;
  now: () => number;
}

export interface DatasourceStats {
  name: string;
  display_name: string;
  documents: number;
  pending: number;
  skipped: number;
  failed: number;
}

export interface RejectedDocument {
  datasource: string;
  document_id: string;
  state: 'skipped' | 'failed';
  message: string;
  last_modified: string | null;
  received_at: string;
}

export interface ServerStats {
  version: string;
  started_at: string;
  uptime_seconds: number;
  datasources: DatasourceStats[];
  operations: { queued: number; last_sequence: number; committed_sequence: number };
  last_commit_at: string | null;
  index: { documents: number; segments: number; deleted_documents: number; size_bytes: number } | null;
  disk: {
    data_dir: string;
    used_bytes: number;
    files: number;
    complete: boolean;
    free_bytes: number | null;
    total_bytes: number | null;
  };
  rejected: RejectedDocument[];
  rejected_total: number;
}

const counted = new WeakMap<Index, { generation: number; counts: Map<string, number> }>();

/** Committed documents per datasource name, computed once per commit generation. */
export function documentsPerDatasource(index: Index): Map<string, number> {
  const generation = index.reader.generation;
  const kept = counted.get(index);
  if (kept?.generation === generation) return kept.counts;
  const searcher = index.reader.searcher();
  try {
    const counts = searcher.keywordCounts('datasource');
    counted.set(index, { generation, counts });
    return counts;
  } finally {
    index.reader.release(searcher);
  }
}

async function diskUse(dir: string): Promise<ServerStats['disk']> {
  let used = 0;
  let files = 0;
  let complete = true;
  const pending = [dir];
  while (pending.length > 0 && complete) {
    const at = pending.pop()!;
    const entries = await readdir(at, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (++files > MAX_FILES) {
        complete = false;
        break;
      }
      const path = join(at, e.name);
      if (e.isDirectory()) pending.push(path);
      else if (e.isFile()) used += (await stat(path).catch(() => ({ size: 0 }))).size;
    }
  }
  const fs = await statfs(dir).catch(() => undefined);
  return {
    data_dir: dir,
    used_bytes: used,
    files: Math.min(files, MAX_FILES),
    complete,
    free_bytes: fs ? fs.bavail * fs.bsize : null,
    total_bytes: fs ? fs.blocks * fs.bsize : null,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function serverStats(deps: StatsDeps): Promise<ServerStats> {
  const docs = deps.documents;
  const perDatasource = docs ? documentsPerDatasource(docs.index) : new Map<string, number>();
  const tally = new Map<string, { pending: number; skipped: number; failed: number }>();
  const entry = (name: string) => tally.get(name) ?? tally.set(name, { pending: 0, skipped: 0, failed: 0 }).get(name)!;
  for (const st of docs?.statuses.values() ?? []) if (st.state === 'queued') entry(st.datasource).pending++;
  const rejected: RejectedDocument[] = [];
  for (const r of docs?.statusLog.values() ?? []) {
    entry(r.datasource)[r.state]++;
    rejected.push({
      datasource: r.datasource,
      document_id: r.document_id,
      state: r.state,
      message: r.message,
      last_modified: r.last_modified,
      received_at: iso(r.received_at),
    });
  }
  rejected.sort((a, b) => (a.received_at < b.received_at ? 1 : a.received_at > b.received_at ? -1 : 0));
  const datasources = [...indexingState(deps).datasources.values()]
    .map((ds) => {
      const name = ds.record.name;
      const t = tally.get(name) ?? { pending: 0, skipped: 0, failed: 0 };
      const documents = docs?.dropPending(name) ? 0 : (perDatasource.get(name) ?? 0);
      return { name, display_name: ds.record.display_name, documents, ...t };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const committed = docs?.lastCommittedSeq ?? 0;
  const last = docs ? docs.queue.next - 1 : 0;
  const info = docs?.index.reader.info;
  const index = docs?.index.reader.stats();
  const uptime = process.uptime();
  return {
    version: VERSION,
    started_at: iso(deps.now() - uptime * 1000),
    uptime_seconds: Math.floor(uptime),
    datasources,
    operations: { queued: Math.max(0, last - committed), last_sequence: last, committed_sequence: committed },
    last_commit_at: info && info.generation > 0 ? iso(info.committedAt) : null,
    index: index
      ? {
          documents: index.docs,
          segments: index.segments,
          deleted_documents: index.deletedDocs,
          size_bytes: index.bytes,
        }
      : null,
    disk: await diskUse(deps.dataDir),
    rejected: rejected.slice(0, REJECTED_LISTED),
    rejected_total: rejected.length,
  };
}
