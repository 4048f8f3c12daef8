/**
 * Cache of the per-document related lists (near-duplicates, similar documents,
 * same-thread documents) of search results. The lists depend only on the
 * document, the index snapshot and the viewer's access-token set, so entries
 * are keyed by (snapshot generation, token-set id, document key): a commit or
 * any change of the viewer's tokens (registration, group membership) makes a
 * new key, so a cached list can never show what the viewer may no longer see.
 * Least recently used entries are evicted past `maxEntries`. A second map keeps
 * the small related-document entries (id, title, path preview, datasource) by
 * segment doc, so a document listed again is not read from the stored fields again.
 */
import type { RelatedDoc } from './result.ts';

export interface RelatedLists {
  duplicates: RelatedDoc[];
  similar: RelatedDoc[];
  sameThread: RelatedDoc[];
}

export class RelatedCache {
  private readonly entries = new Map<string, RelatedLists>();
  /** Related-document entries by immutable engine identity (segment id, doc id): viewer-independent. */
  private readonly docs = new Map<string, RelatedDoc>();
  private readonly scopes = new Map<string, number>();
  private nextScope = 0;

  constructor(private readonly maxEntries = 50_000, private readonly maxScopes = 10_000) {}

  /** The key prefix of one viewer (sorted tokens) on one snapshot. */
  scope(generation: number, tokens: readonly string[]): string {
    const text = tokens.join('\n');
    let id = this.scopes.get(text);
    if (id === undefined) {
      if (this.scopes.size >= this.maxScopes) {
        this.scopes.clear();
        this.entries.clear();
      }
      id = this.nextScope++;
      this.scopes.set(text, id);
    }
    return `${generation}|${id}|`;
  }

  get(scope: string, key: string): RelatedLists | undefined {
    const k = scope + key;
    const hit = this.entries.get(k);
    if (hit) {
      this.entries.delete(k);
      this.entries.set(k, hit);
    }
    return hit;
  }

  set(scope: string, key: string, lists: RelatedLists): void {
    const k = scope + key;
    this.entries.delete(k);
    this.entries.set(k, lists);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /**
   * The related-document entry of a document version, read once: `id` names a
   * segment's doc (segments are immutable, so the entry never changes). Entries
   * say nothing about visibility; lists are filtered before entries are made.
   */
  relatedDoc(id: string, make: () => RelatedDoc): RelatedDoc {
    let d = this.docs.get(id);
    if (d === undefined) {
      d = make();
      if (this.docs.size >= this.maxEntries) {
        const oldest = this.docs.keys().next().value;
        if (oldest !== undefined) this.docs.delete(oldest);
      }
      this.docs.set(id, d);
    }
    return d;
  }

  get size(): number {
    return this.entries.size;
  }
}
