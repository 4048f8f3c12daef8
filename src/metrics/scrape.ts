/**
 * Families read when /metrics is scraped, from the documents service and the
 * index it writes: the indexing queue (depth, lag, backlog), documents indexed
 * and failed (counters, so `rate()` gives documents per second), the index
 * (documents, segments, size) and, per datasource, committed, pending and
 * failed documents. Reading them is cheap: counters and sizes in memory, and
 * documents per datasource counted once per commit (src/admin/stats.ts).
 *
 * Datasource labels are bounded: the first MAX_DATASOURCE_SERIES names in
 * order get a series, the rest are summed under `_other`.
 */
import { Counter, Gauge } from 'prom-client';
import { documentsPerDatasource } from '../admin/stats.ts';
import type { DocumentService } from '../documents/service.ts';
import { PREFIX, type Metrics } from './metrics.ts';

export const MAX_DATASOURCE_SERIES = 200;
export const OTHER_DATASOURCES = '_other';

/** A counter that follows a monotonic figure read at scrape time. */
function followingCounter(metrics: Metrics, name: string, help: string, read: () => number): void {
  let seen = 0;
  new Counter({
    name,
    help,
    registers: [metrics.registry],
    collect() {
      const now = read();
      if (now > seen) this.inc(now - seen);
      seen = Math.max(seen, now);
    },
  });
}

function gauge(metrics: Metrics, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [metrics.registry],
    collect() {
      this.set(read());
    },
  });
}

/** Registers the indexing and index families over `documents` (call once per Metrics). */
export function watchDocuments(metrics: Metrics, documents: DocumentService, now: () => number): void {
  const { queue, pipeline, index } = documents;
  gauge(
    metrics,
    `${PREFIX}indexing_queue_depth`,
    'Indexing operations acknowledged and not yet committed to the index.',
    () => Math.max(0, queue.next - 1 - documents.lastCommittedSeq),
  );
  gauge(
    metrics,
    `${PREFIX}indexing_backlog_operations`,
    'Indexing operations acknowledged and not yet applied to the index writer.',
    () => pipeline.backlog,
  );
  gauge(
    metrics,
    `${PREFIX}indexing_lag_seconds`,
    'Age of the oldest acknowledged indexing operation not yet committed (0 when none is pending).',
    () => {
      const at = documents.oldestUncommittedAt;
      return at === undefined ? 0 : Math.max(0, (now() - at) / 1000);
    },
  );
  followingCounter(
    metrics,
    `${PREFIX}documents_indexed_total`,
    'Documents written to the index (rate() gives documents indexed per second).',
    () => pipeline.indexedCount,
  );
  followingCounter(
    metrics,
    `${PREFIX}extraction_failures_total`,
    'Documents not indexed because their extraction (or indexing) failed.',
    () => pipeline.failedCount,
  );
  const stat = (pick: (s: ReturnType<typeof index.reader.stats>) => number) => () => pick(index.reader.stats());
  gauge(
    metrics,
    `${PREFIX}index_documents`,
    'Live documents in the committed index.',
    stat((s) => s.docs),
  );
  gauge(
    metrics,
    `${PREFIX}index_deleted_documents`,
    'Deleted documents not yet merged away.',
    stat((s) => s.deletedDocs),
  );
  gauge(
    metrics,
    `${PREFIX}index_segments`,
    'Segments of the committed index.',
    stat((s) => s.segments),
  );
  gauge(
    metrics,
    `${PREFIX}index_size_bytes`,
    'Bytes of the committed index files.',
    stat((s) => s.bytes),
  );
  watchDatasources(metrics, documents);
}

function watchDatasources(metrics: Metrics, documents: DocumentService): void {
  new Gauge({
    name: `${PREFIX}datasource_documents`,
    help: `Documents per datasource by state: committed, pending (queued) or failed (the first ${MAX_DATASOURCE_SERIES} datasources by name; the rest as ${OTHER_DATASOURCES}).`,
    labelNames: ['datasource', 'state'],
    registers: [metrics.registry],
    collect() {
      this.reset();
      const tally = new Map<string, { committed: number; pending: number; failed: number }>();
      const entry = (name: string) =>
        tally.get(name) ?? tally.set(name, { committed: 0, pending: 0, failed: 0 }).get(name)!;
      for (const [name, n] of documentsPerDatasource(documents.index))
        if (!documents.dropPending(name)) entry(name).committed += n;
      for (const st of documents.statuses.values()) if (st.state === 'queued') entry(st.datasource).pending++;
      for (const r of documents.statusLog.values()) if (r.state === 'failed') entry(r.datasource).failed++;
      const names = [...tally.keys()].sort();
      for (let i = 0; i < names.length; i++) {
        const label = i < MAX_DATASOURCE_SERIES ? names[i] : OTHER_DATASOURCES;
        for (const [state, n] of Object.entries(tally.get(names[i])!)) this.inc({ datasource: label, state }, n);
      }
    },
  });
}
