/**
 * What a run does with each item (runner.ts drives it): reading a changed item (`load`), recording
 * an unchanged, failed or gone one (`settle`), handing a read one to the pusher (`take`), and the
 * deletions, queued durably before the keys are forgotten, and waited for (bounded) at the end so
 * that a completed run's effect is searchable.
 */
import type { Logger } from '../log.ts';
import { documentIdOf } from './ids.ts';
import type { ItemState } from './item-state.ts';
import { CONFIRM_TIMEOUT_MS, errorMessage, PagePusher, reportFailure, type LoadedItem } from './pusher.ts';
import type { RunView } from './run-log.ts';
import type { RunnerDeps } from './runner.ts';
import type { ConnectorRecord } from './state.ts';
import { SkippedItem, type CandidateItem, type ConnectorModule, type SourceItem } from './types.ts';
import { indexingState } from '../controlplane/datasources.ts';

/** Keys deleted per queued batch. */
export const DELETE_CHUNK = 1000;

export interface RunScope {
  record: ConnectorRecord;
  module: ConnectorModule;
  view: RunView;
  signal: AbortSignal;
  log: Logger;
  items: ItemState;
  credentials: Record<string, unknown> | undefined;
}

export type Loaded =
  | { item: CandidateItem; doc: LoadedItem['doc'] | null }
  | { item: CandidateItem; error: string }
  | { item: CandidateItem; skipped: string };

export const isCandidate = (item: SourceItem): item is CandidateItem => 'load' in item;

export async function load(item: CandidateItem): Promise<Loaded> {
  try {
    return { item, doc: await item.load() };
  } catch (err) {
    if (err instanceof SkippedItem) return { item, skipped: errorMessage(err) };
    return { item, error: errorMessage(err) };
  }
}

/** What a run does with each item, and its deletions. */
export class ItemRun {
  private readonly pusher: PagePusher;
  /** Sequence number of the last deletion queued. */
  private lastDelete = 0;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly s: RunScope,
  ) {
    this.pusher = new PagePusher(
      { ...deps, maxBinaryBytes: deps.config.maxBinaryBytes },
      { datasource: s.record.datasource, category: s.module.category },
      s.items,
      s.view,
      s.view.run,
    );
  }

  /** An item that needs no reading: unchanged (by version or by the source's word), failed or gone. */
  async settle(item: SourceItem): Promise<void> {
    const { view, items } = this.s;
    const prev = items.get(item.key);
    view.progress.done++;
    if ('gone' in item) {
      if (prev) await this.forget([item.key]);
      return;
    }
    if ('failed' in item) {
      view.counts.failed++;
      reportFailure(view, item.key, item.failed);
      const memo = item.memo ?? prev?.m;
      await items.set([{ key: item.key, version: prev?.v ?? '', memo, failed: true, seen: view.run }]);
      return;
    }
    view.counts.unchanged++;
    const memo = 'unchanged' in item || isCandidate(item) ? item.memo : undefined;
    if (prev && memo !== undefined && JSON.stringify(memo) !== JSON.stringify(prev.m ?? null))
      await items.set([{ key: item.key, version: prev.v, memo, failed: prev.f, seen: view.run }]);
  }

  /** A read item: pushed, recorded without a document (also when skipped, with its reason), or a failure. */
  async take(loaded: Loaded): Promise<void> {
    const { view, items } = this.s;
    const { item } = loaded;
    const entry = { key: item.key, version: item.version, memo: item.memo, seen: view.run };
    if ('error' in loaded) {
      view.progress.done++;
      view.counts.failed++;
      reportFailure(view, item.key, loaded.error);
      await items.set([{ ...entry, failed: true }]);
    } else if ('skipped' in loaded || loaded.doc === null) {
      view.progress.done++;
      if ('skipped' in loaded) {
        view.counts.skipped++;
        reportFailure(view, item.key, `skipped: ${loaded.skipped}`);
      }
      if (items.get(item.key)) await this.deleteDocuments([item.key]);
      await items.set([{ ...entry, failed: false }]);
    } else await this.pusher.add({ ...entry, doc: loaded.doc });
  }

  finish(): Promise<void> {
    return this.pusher.finish();
  }

  /** Delete the documents of `keys` and forget the keys. */
  async forget(keys: string[]): Promise<void> {
    await this.deleteDocuments(keys);
    await this.s.items.delete(keys);
    this.s.view.counts.deleted += keys.length;
  }

  /** Queue (durably) the deletion of the documents of `keys`. */
  private async deleteDocuments(keys: string[]): Promise<void> {
    const datasource = this.s.record.datasource;
    if (keys.length === 0 || !indexingState(this.deps).datasources.has(datasource)) return;
    const ops = keys.map((k) => ({ op: 'delete' as const, datasource, id: documentIdOf(k) }));
    const { seqs, durable } = this.deps.documents.enqueueMany(ops);
    await durable;
    this.lastDelete = seqs[seqs.length - 1];
  }

  /** Wait (bounded) until the deletions are committed, so a completed run's effect is searchable. */
  async deletionsCommitted(): Promise<void> {
    if (this.lastDelete > 0) await this.deps.documents.waitCommitted(this.lastDelete, CONFIRM_TIMEOUT_MS);
  }
}
