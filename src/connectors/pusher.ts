/**
 * Pushes a run's changed documents through the Indexing API's own push path
 * (`pushDocuments`: the same validation, state table, outcomes, queue and
 * pipeline as POST /api/indexing/documents), in pages of at most PAGE_DOCUMENTS
 * documents or PAGE_BYTES of body, and records each item's outcome once it is
 * final:
 * - `already_indexed` and `skipped` at once (the pipeline has nothing to add);
 * - `failed` (validation, schema rules) at once, as a failure to retry;
 * - `sent` after the engine commit that holds it: `failed` then (extraction)
 *   is a failure with the pipeline's message, anything else a success.
 * Until then an item is not recorded: a process killed in between pushes it
 * again next run, which the state table answers `already_indexed`.
 *
 * Binary bodies travel as `binary_base64`, as a client's would: the durable
 * queue stores JSON records, so the bytes are Base64-encoded once here (one
 * native call) and decoded once before extraction.
 */
import type { DocumentService } from '../documents/service.ts';
import { pushDocuments, type PushResult } from '../documents/push.ts';
import { documentKey } from '../documents/index-schema.ts';
import type { StateStore } from '../state/store.ts';
import { documentIdOf } from './ids.ts';
import type { ItemState, ItemUpdate } from './item-state.ts';
import { MAX_FAILURES, type RunView } from './run-log.ts';
import type { Json, SourceDocument } from './types.ts';

export const PAGE_DOCUMENTS = 200;
export const PAGE_BYTES = 32 * 1024 * 1024;
/** Longest wait at the end of a run for the commit holding its last documents. */
export const CONFIRM_TIMEOUT_MS = 120_000;

export interface PusherDeps {
  state: StateStore;
  documents: DocumentService;
  maxBinaryBytes: number;
  now: () => number;
}

export interface LoadedItem {
  key: string;
  version: string;
  memo?: Json;
  doc: SourceDocument;
}

interface Pending {
  key: string;
  version: string;
  memo?: Json;
  docKey: string;
  seq: number;
}

/** The message of an error, bounded, for a run's view. */
export function errorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.slice(0, 1000);
}

/** Count a failed or skipped item in the run's view (reasons of the first MAX_FAILURES kept). */
export function reportFailure(view: RunView, item: string, reason: string): void {
  if (view.failures.length < MAX_FAILURES) view.failures.push({ item, reason: reason.slice(0, 1000) });
  else view.failures_omitted++;
}

export class PagePusher {
  private page: { item: LoadedItem; body: Record<string, unknown> }[] = [];
  private pageBytes = 0;
  private pending: Pending[] = [];

  constructor(
    private readonly deps: PusherDeps,
    private readonly target: { datasource: string; category: string },
    private readonly items: ItemState,
    private readonly view: RunView,
    /** Run number (item-state `seen` marker). */
    private readonly run: number,
  ) {}

  async add(item: LoadedItem): Promise<void> {
    const body = pushBody(this.target.datasource, item.key, item.doc);
    const bytes = approximateBytes(item.doc);
    if (this.page.length > 0 && this.pageBytes + bytes > PAGE_BYTES) await this.flush();
    this.page.push({ item, body });
    this.pageBytes += bytes;
    if (this.page.length >= PAGE_DOCUMENTS) await this.flush();
  }

  async flush(): Promise<void> {
    const page = this.page;
    this.page = [];
    this.pageBytes = 0;
    if (page.length > 0) {
      const res = await pushDocuments(
        this.deps,
        { documents: page.map((p) => p.body) },
        { category: this.target.category },
      );
      await this.record(page, res.results);
    }
    await this.confirm();
  }

  /** Push what is left, wait (bounded) for the commit holding it, and record the outcomes. */
  async finish(): Promise<void> {
    await this.flush();
    const last = this.pending.reduce((max, p) => Math.max(max, p.seq), 0);
    if (last > 0) await this.deps.documents.waitCommitted(last, CONFIRM_TIMEOUT_MS);
    await this.confirm();
  }

  private async record(page: { item: LoadedItem }[], results: PushResult[]): Promise<void> {
    const done: ItemUpdate[] = [];
    const counts = this.view.counts;
    for (let i = 0; i < page.length; i++) {
      const { item } = page[i];
      const r = results[i];
      this.view.progress.done++;
      const entry = { key: item.key, version: item.version, memo: item.memo, seen: this.run };
      if (r.outcome === 'sent') {
        counts.sent++;
        const docKey = documentKey(this.target.datasource, r.document_id);
        const seq = this.deps.documents.statuses.get(docKey)?.seq ?? 0;
        this.pending.push({ ...entry, docKey, seq });
      } else if (r.outcome === 'already_indexed') {
        counts.already_indexed++;
        done.push({ ...entry, failed: false });
      } else if (r.outcome === 'skipped') {
        counts.skipped++;
        reportFailure(this.view, item.key, `skipped: ${r.message}`);
        done.push({ ...entry, failed: false });
      } else {
        counts.failed++;
        reportFailure(this.view, item.key, r.message);
        done.push({ ...entry, failed: true });
      }
    }
    await this.items.set(done);
  }

  /** Record the sent items whose commit has happened. */
  private async confirm(): Promise<void> {
    const committed = this.deps.documents.lastCommittedSeq;
    const ready = this.pending.filter((p) => p.seq <= committed);
    if (ready.length === 0) return;
    this.pending = this.pending.filter((p) => p.seq > committed);
    const done: ItemUpdate[] = [];
    for (const p of ready) {
      const st = this.deps.documents.statuses.get(p.docKey);
      const entry = { key: p.key, version: p.version, memo: p.memo, seen: this.run };
      if (st && st.seq === p.seq && st.state === 'failed') {
        this.view.counts.sent--;
        this.view.counts.failed++;
        reportFailure(this.view, p.key, st.message);
        done.push({ ...entry, failed: true });
      } else if (!st || st.state === 'indexed' || st.seq !== p.seq) done.push({ ...entry, failed: false });
      // Deleted or skipped in between by someone else: left unrecorded, pushed again next run.
    }
    await this.items.set(done);
  }
}

/** The Indexing API document of an item. */
export function pushBody(datasource: string, key: string, doc: SourceDocument): Record<string, unknown> {
  const out: Record<string, unknown> = {
    datasource,
    id: documentIdOf(key),
    title: doc.title.slice(0, 2000),
    file_type: doc.file_type,
  };
  if (doc.path) out.path = doc.path;
  if (doc.path_preview) out.path_preview = doc.path_preview;
  if (doc.author) out.author = doc.author.slice(0, 1000);
  if (doc.last_modified) out.last_modified = doc.last_modified;
  if (doc.body) {
    out.body =
      'bytes' in doc.body
        ? {
            mime_type: doc.body.mime_type,
            binary_base64: Buffer.from(
              doc.body.bytes.buffer,
              doc.body.bytes.byteOffset,
              doc.body.bytes.byteLength,
            ).toString('base64'),
          }
        : { mime_type: doc.body.mime_type, text_content: doc.body.text };
  }
  if (doc.permissions) {
    const p = doc.permissions;
    out.permissions = {
      allow_anonymous_access: p.allow_anonymous_access === true,
      allowed_users: (p.allowed_users ?? []).map((email) => ({ email })),
      allowed_groups: p.allowed_groups ?? [],
    };
  }
  if (doc.custom_properties?.length) out.custom_properties = doc.custom_properties;
  return out;
}

function approximateBytes(doc: SourceDocument): number {
  if (!doc.body) return 1024;
  return 1024 + ('bytes' in doc.body ? Math.ceil(doc.body.bytes.byteLength / 3) * 4 : doc.body.text.length * 2);
}
