/**
 * Per-document status (`GET /api/indexing/documents/{datasource}/{id}`) and the
 * "latest accepted version" that the `already_indexed` rule compares against.
 *
 * Documents touched since the start are tracked here; older ones are read from
 * the committed index (their stored `last_modified`, access tokens and queue
 * sequence number). Commit times come from `CommitTimes`, an in-memory list of
 * (highest sequence number, commit time) pairs persisted alongside the queue,
 * so "when was it committed" survives restarts.
 */
export type DocumentState = 'queued' | 'indexed' | 'skipped' | 'failed' | 'deleted';
export type Outcome = 'sent' | 'already_indexed' | 'skipped' | 'failed';

export interface DocumentStatus {
  datasource: string;
  document_id: string;
  state: DocumentState;
  outcome: Outcome;
  message: string;
  last_modified: string | null;
  /** Sorted access tokens of the accepted version (identity for `already_indexed`). */
  tokens: string[];
  /** Queue sequence number of the operation that produced this state. */
  seq: number;
  received_at: number;
  committed_at: number | null;
}

export const sameTokens = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((t, i) => t === b[i]);

/** Commit times by queue sequence number: the first commit whose sequence number covers `seq`. */
export class CommitTimes {
  private seqs: number[] = [];
  private times: number[] = [];

  add(seq: number, at: number): void {
    if (this.seqs.length > 0 && seq <= this.seqs[this.seqs.length - 1]) return;
    this.seqs.push(seq);
    this.times.push(at);
  }

  committedAt(seq: number): number | null {
    let lo = 0;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.seqs[mid] < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.seqs.length ? this.times[lo] : null;
  }

  get size(): number {
    return this.seqs.length;
  }
}

/** Statuses of documents touched since the start, with the queue of those awaiting a commit. */
export class StatusRegistry {
  private readonly byKey = new Map<string, DocumentStatus>();
  /** Keys in sequence order whose state waits for a commit (queued, or deleted and not yet committed). */
  private awaiting: { key: string; seq: number }[] = [];
  private head = 0;

  /** Above this many entries, committed documents are forgotten (the index answers for them). */
  constructor(private readonly maxEntries = 100_000) {}

  get(key: string): DocumentStatus | undefined {
    return this.byKey.get(key);
  }

  /** Every tracked status (do not mutate them). */
  values(): IterableIterator<DocumentStatus> {
    return this.byKey.values();
  }

  set(key: string, status: DocumentStatus): void {
    this.byKey.set(key, status);
    if (status.state === 'queued' || (status.state === 'deleted' && status.committed_at === null)) {
      this.awaiting.push({ key, seq: status.seq });
    }
  }

  /** A commit covered every operation up to `seq`: queued documents become indexed. */
  committed(seq: number, at: number): void {
    while (this.head < this.awaiting.length && this.awaiting[this.head].seq <= seq) {
      const { key, seq: s } = this.awaiting[this.head++];
      const st = this.byKey.get(key);
      if (!st || st.seq !== s) continue;
      if (st.state === 'queued') {
        st.state = 'indexed';
        st.committed_at = at;
        st.message = 'indexed and searchable';
      } else if (st.state === 'deleted') {
        st.committed_at = at;
      }
    }
    this.evict();
    if (this.head > 4096 && this.head * 2 > this.awaiting.length) {
      this.awaiting = this.awaiting.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * Above `maxEntries`, forget the oldest settled entries (indexed, or deleted and committed) until the
   * registry fits again; queued, skipped and failed entries stay. A forgotten indexed document is answered
   * from the index, a forgotten deleted one as unknown (404), as after a restart.
   */
  private evict(): void {
    if (this.byKey.size <= this.maxEntries) return;
    for (const [key, st] of this.byKey) {
      if (this.byKey.size <= this.maxEntries) break;
      if (st.state === 'indexed' || (st.state === 'deleted' && st.committed_at !== null)) this.byKey.delete(key);
    }
  }

  /** Sequence number of the latest drop of each datasource since the start (queued or replayed). */
  private readonly drops = new Map<string, number>();

  /** Forget every status of a datasource (it was deleted by the drop with sequence number `seq`). */
  dropDatasource(datasource: string, seq: number): void {
    for (const [key, st] of this.byKey) if (st.datasource === datasource) this.byKey.delete(key);
    this.drops.set(datasource, Math.max(seq, this.drops.get(datasource) ?? 0));
  }

  /** Whether a version of a document of `datasource` with sequence number `seq` is removed by a drop since the start. */
  droppedAfter(datasource: string, seq: number): boolean {
    return seq < (this.drops.get(datasource) ?? 0);
  }

  get size(): number {
    return this.byKey.size;
  }
}
