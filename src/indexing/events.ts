/**
 * Committing indexing events and telling listeners about them. Other parts of
 * the service (the documents pipeline: remove a deleted datasource's
 * documents) subscribe with `onIndexingEvent`; listeners run after the event
 * is durable and before the request is answered.
 *
 * Listener failures do not undo the committed change: every listener runs,
 * then the first failure is rethrown (the request answers 500; the change
 * stands). A listener must therefore be idempotent, and a consumer that must
 * never miss a deletion should also reconcile with the state on start.
 */
import type { StateStore } from '../state/store.ts';
import type { IndexingEvent } from './state.ts';

export type IndexingListener = (event: IndexingEvent) => void | Promise<void>;

const listeners = new WeakMap<StateStore, Set<IndexingListener>>();

/** Subscribe to committed indexing events of `store`; returns the unsubscribe function. */
export function onIndexingEvent(store: StateStore, listener: IndexingListener): () => void {
  let set = listeners.get(store);
  if (!set) listeners.set(store, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Apply `event` now (see StateStore.commit), wait until durable, then notify listeners. */
export async function commitIndexing(store: StateStore, event: IndexingEvent): Promise<void> {
  await store.commit(event);
  const set = listeners.get(store);
  if (!set || set.size === 0) return;
  const results = await Promise.allSettled([...set].map(async (l) => l(event)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
