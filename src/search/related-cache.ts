/**
 * Cache of the per-document related lists (near-duplicates, similar documents,
 * same-thread documents) of search results. The lists depend only on the
 * document, the index snapshot and the viewer's access-token set, so entries
 * are keyed by (snapshot generation, token-set id, document key): a commit or
 * any change of the viewer's tokens (registration, group membership) makes a
 * new key, so a cached list can never show what the viewer may no longer see.
 * Least recently used entries are evicted past `maxEntries` (engine/util/bounded-map.ts: in bulk,
 * by generations), and all of them once a later snapshot is asked for: no key of an
 * earlier snapshot is ever looked up again, so under a stream of commits they would
 * only fill the cache (and the heap) up to its bound. A second map keeps
 * the small related-document entries (id, title, path preview, datasource) by
 * segment doc, so a document listed again is not read from the stored fields again.
 *
 * Entries keyed by a document version (the related-document entries, the similar lists
 * below) are kept per segment (engine SegmentCache): those of segments a later snapshot
 * no longer has are dropped when it is asked for (`viewerScope` with its live segments).
 *
 * Similar-document lists (the costly part) are also kept across snapshots, by
 * (token set, source document version = segment id + local doc), so that they
 * stay warm while commits follow each other. A later snapshot reuses one only
 * when every listed document version is still live there (checked on read:
 * a document version's access tokens never change, so the same token set still
 * sees it) and the list is fresh enough (`StableReuse`: big index, small change
 * of its doc count, young entry); otherwise the caller recomputes it. A reused
 * list may miss a document committed after it was made, never shows one the
 * viewer cannot see or that is deleted.
 */
import { BoundedMap, SegmentCache } from '../../engine/index.ts';
import type { RelatedDoc } from './result.ts';

export interface RelatedLists {
  duplicates: RelatedDoc[];
  similar: RelatedDoc[];
  sameThread: RelatedDoc[];
}

/** A document version: segment id and segment-local doc (immutable). */
export interface DocVersion {
  segmentId: string;
  doc: number;
}

/** When a similar list made on an earlier snapshot may be reused. */
export interface StableReuse {
  /** Only on indexes of at least this many docs (smaller ones always recompute). Default 10,000. */
  minDocs: number;
  /** Largest relative change of the doc count since the list was made. Default 0.02. */
  maxDrift: number;
  /** Largest age of the list in ms. Default 60,000. */
  maxAgeMs: number;
}

/** The snapshot a list is asked for. */
export interface SnapshotInfo {
  generation: number;
  numDocs: number;
  /** Epoch ms. */
  now: number;
}

interface StableSimilar {
  made: SnapshotInfo;
  items: { entry: RelatedDoc; version: DocVersion }[];
}

export class RelatedCache {
  private readonly entries: BoundedMap<string, RelatedLists>;
  /** Similar lists by source version: (segment id, `viewer|doc`). */
  private readonly stable: SegmentCache<string, StableSimilar>;
  private readonly reuse: StableReuse;
  /** Related-document entries by immutable engine identity (segment id, doc id): viewer-independent. */
  private readonly docs: SegmentCache<number, RelatedDoc>;
  private readonly scopes = new Map<string, number>();
  private nextScope = 0;
  /** The latest snapshot generation a scope was asked for (entries hold only its lists, or later ones). */
  private generation = -1;

  constructor(
    maxEntries = 50_000,
    private readonly maxScopes = 10_000,
    reuse: Partial<StableReuse> = {},
  ) {
    this.reuse = { minDocs: 10_000, maxDrift: 0.02, maxAgeMs: 60_000, ...reuse };
    this.entries = new BoundedMap(maxEntries);
    this.stable = new SegmentCache(maxEntries);
    this.docs = new SegmentCache(maxEntries);
  }

  /**
   * The id of one viewer's token set (sorted tokens); ids are never reused. Remembered per
   * array (token-set arrays are never changed once made: visibility.ts, the search workers).
   */
  viewer(tokens: readonly string[]): number {
    const known = this.byArray.get(tokens);
    if (known !== undefined && known.epoch === this.epoch) return known.id;
    const id = this.viewerOf(tokens);
    this.byArray.set(tokens, { id, epoch: this.epoch });
    return id;
  }

  private readonly byArray = new WeakMap<readonly string[], { id: number; epoch: number }>();
  /** Bumped whenever the scopes are forgotten (their ids then name no cached entry). */
  private epoch = 0;

  private viewerOf(tokens: readonly string[]): number {
    const text = tokens.join('\n');
    let id = this.scopes.get(text);
    if (id === undefined) {
      if (this.scopes.size >= this.maxScopes) {
        this.scopes.clear();
        this.entries.clear();
        this.stable.clear();
        this.epoch++;
      }
      id = this.nextScope++;
      this.scopes.set(text, id);
    }
    return id;
  }

  /** The key prefix of one viewer (sorted tokens) on one snapshot. */
  scope(generation: number, tokens: readonly string[]): string {
    return this.viewerScope(generation, this.viewer(tokens));
  }

  /**
   * The key prefix of the viewer with token-set id `viewer` (see viewer()) on one snapshot;
   * `liveSegments`: that snapshot's segment ids (entries of other segments are dropped).
   */
  viewerScope(generation: number, viewer: number, liveSegments?: () => Iterable<string>): string {
    if (generation > this.generation) {
      this.generation = generation;
      this.entries.clear();
      if (liveSegments) {
        this.docs.retain(generation, liveSegments);
        this.stable.retain(generation, liveSegments);
      }
    }
    return `${generation}|${viewer}|`;
  }

  /**
   * The similar list of `source` for `viewer` made on this or an earlier snapshot, when reusable
   * (see the module comment); `isLive` tells whether a document version is live in this snapshot.
   */
  similar(
    viewer: number,
    source: DocVersion,
    at: SnapshotInfo,
    isLive: (v: DocVersion) => boolean,
  ): RelatedDoc[] | undefined {
    const k = `${viewer}|${source.doc}`;
    const e = this.stable.get(source.segmentId, k);
    if (e === undefined) return undefined;
    const r = this.reuse;
    const fresh =
      e.made.generation === at.generation ||
      (at.numDocs >= r.minDocs &&
        Math.abs(at.numDocs - e.made.numDocs) <= r.maxDrift * at.numDocs &&
        at.now - e.made.now <= r.maxAgeMs);
    if (!fresh || !e.items.every((i) => isLive(i.version))) {
      this.stable.delete(source.segmentId, k);
      return undefined;
    }
    return e.items.map((i) => i.entry);
  }

  setSimilar(
    viewer: number,
    source: DocVersion,
    made: SnapshotInfo,
    items: { entry: RelatedDoc; version: DocVersion }[],
  ): void {
    this.stable.set(source.segmentId, `${viewer}|${source.doc}`, { made, items });
  }

  get(scope: string, key: string): RelatedLists | undefined {
    return this.entries.get(scope + key);
  }

  set(scope: string, key: string, lists: RelatedLists): void {
    this.entries.set(scope + key, lists);
  }

  /**
   * The kept related-document entry of a document version (segment id, segment-local doc), if
   * any: segments are immutable, so the entry never changes. Entries say nothing about
   * visibility; lists are filtered before entries are made.
   */
  cachedDoc(segmentId: string, doc: number): RelatedDoc | undefined {
    return this.docs.get(segmentId, doc);
  }

  /** Keeps the entry of a document version (see cachedDoc). */
  keepDoc(segmentId: string, doc: number, d: RelatedDoc): void {
    this.docs.set(segmentId, doc, d);
  }

  get size(): number {
    return this.entries.size;
  }
}
