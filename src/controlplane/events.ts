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
 *
 * A datasource deletion is pending from the moment it is applied until its
 * listeners have run (the documents pipeline has queued the drop of its
 * documents): `pendingDatasourceDrop` lets the re-creation of the same name
 * (and a push to it) wait, so that its documents are queued after the drop
 * instead of being removed by it, and no crash leaves the old documents under
 * the new datasource.
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

/** Datasource deletions applied whose listeners have not finished, per store and name. */
const pendingDrops = new WeakMap<StateStore, Map<string, Set<Promise<void>>>>();

/** Resolves once every deletion of datasource `name` applied so far has been handled; undefined when none is pending. */
export function pendingDatasourceDrop(store: StateStore, name: string): Promise<void> | undefined {
  const set = pendingDrops.get(store)?.get(name);
  return set && set.size > 0 ? Promise.all(set).then(() => undefined) : undefined;
}

/** Marks a deletion of datasource `name` pending; returns the function that ends it. */
function markDropPending(store: StateStore, name: string): () => void {
  let byName = pendingDrops.get(store);
  if (!byName) pendingDrops.set(store, (byName = new Map()));
  let set = byName.get(name);
  if (!set) byName.set(name, (set = new Set()));
  let resolve!: () => void;
  const pending = new Promise<void>((r) => (resolve = r));
  set.add(pending);
  const own = set;
  return () => {
    own.delete(pending);
    if (own.size === 0 && byName.get(name) === own) byName.delete(name);
    resolve();
  };
}

/** Apply `event` now (see StateStore.commit), wait until durable, then notify listeners. */
export async function commitIndexing(store: StateStore, event: IndexingEvent): Promise<void> {
  const durable = store.commit(event);
  // Marked in the same synchronous step that applied the deletion (see the module header).
  const endDrop = event.type === 'indexing.datasource_deleted' ? markDropPending(store, event.name) : null;
  try {
    await durable;
    const set = listeners.get(store);
    if (!set || set.size === 0) return;
    const results = await Promise.allSettled([...set].map(async (l) => l(event)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    endDrop?.();
  }
}
