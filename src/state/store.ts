/**
 * The control-plane state: an in-memory model made of named parts (accounts,
 * indexing, agents, ...), changed only by events, each event appended to a
 * durable journal.
 *
 * Contract of `commit(event)`: the caller validates against the current state
 * and calls `commit` without awaiting anything in between; the event is
 * applied to memory synchronously (so a second request validates against the
 * new state) and the returned promise resolves once the event is durable
 * (written and fsynced). A request is answered only after that. On start the
 * journal replays its snapshot and events through the same `apply` functions.
 */

export interface StateEvent {
  /** `<part>.<verb>`, e.g. `indexing.datasource_created`; the prefix selects the part. */
  type: string;
}

/** One slice of the state with its own events, snapshot form and replay. */
export interface StatePart<S = unknown, E extends StateEvent = StateEvent> {
  /** Part name, also the event type prefix before the first dot. */
  readonly name: string;
  create(): S;
  apply(state: S, event: E): void;
  toJSON(state: S): unknown;
  fromJSON(json: unknown): S;
}

/** The durable side: an append-only log of events plus snapshots (see src/storage/). */
export interface Journal {
  /** Replay: the latest snapshot (or undefined) and every event appended after it, in order. */
  load(): Promise<{ snapshot: unknown | undefined; events: StateEvent[] }>;
  /** Append one event; resolves when it is durable. Appends are ordered. */
  append(event: StateEvent): Promise<void>;
  /** Whether the log has grown enough that a snapshot should be written. */
  wantsCompaction(): boolean;
  /** Write `snapshot` (the state after every appended event) and start a fresh log, crash-safely. */
  compact(snapshot: unknown): Promise<void>;
  close(): Promise<void>;
}

export class StateStore {
  private readonly states = new Map<string, unknown>();
  private readonly parts = new Map<string, StatePart<any, any>>();
  private compacting: Promise<void> | null = null;

  private constructor(private readonly journal: Journal) {}

  /** Open the store: create every part, then replay snapshot and events from the journal. */
  static async open(journal: Journal, parts: StatePart<any, any>[]): Promise<StateStore> {
    const store = new StateStore(journal);
    for (const part of parts) {
      store.parts.set(part.name, part);
      store.states.set(part.name, part.create());
    }
    const { snapshot, events } = await journal.load();
    if (snapshot && typeof snapshot === 'object') {
      for (const [name, json] of Object.entries(snapshot as Record<string, unknown>)) {
        const part = store.parts.get(name);
        if (part) store.states.set(name, part.fromJSON(json));
      }
    }
    for (const event of events) store.applyOne(event);
    return store;
  }

  /** The current state of a part (read-only by convention: change it only through commit). */
  get<S>(part: StatePart<S, any>): S {
    const s = this.states.get(part.name);
    if (s === undefined) throw new Error(`state part ${part.name} is not registered`);
    return s as S;
  }

  /** Apply now, resolve when durable (see the module contract). */
  commit(event: StateEvent): Promise<void> {
    this.applyOne(event);
    const durable = this.journal.append(event);
    return durable.then(() => this.maybeCompact());
  }

  /** Serialise every part (the snapshot form). */
  snapshot(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, part] of this.parts) out[name] = part.toJSON(this.states.get(name));
    return out;
  }

  async close(): Promise<void> {
    await this.compacting;
    await this.journal.close();
  }

  private applyOne(event: StateEvent): void {
    const name = event.type.slice(0, event.type.indexOf('.'));
    const part = this.parts.get(name);
    if (!part) throw new Error(`no state part for event ${event.type}`);
    part.apply(this.states.get(name), event);
  }

  private maybeCompact(): Promise<void> {
    if (this.compacting || !this.journal.wantsCompaction()) return Promise.resolve();
    // The snapshot is taken synchronously, so it covers exactly the events appended so far.
    const snap = this.snapshot();
    this.compacting = this.journal.compact(snap).finally(() => {
      this.compacting = null;
    });
    return Promise.resolve();
  }
}

/** A journal that keeps nothing across restarts (tests, and `DATA_DIR=:memory:` style embedding). */
export class MemoryJournal implements Journal {
  private events: StateEvent[] = [];
  private snap: unknown;
  async load() {
    return { snapshot: this.snap, events: [...this.events] };
  }
  async append(event: StateEvent) {
    this.events.push(structuredClone(event));
  }
  wantsCompaction() {
    return false;
  }
  async compact(snapshot: unknown) {
    this.snap = structuredClone(snapshot);
    this.events = [];
  }
  async close() {}
}
