/**
 * Readiness of the service for `GET /readyz`: ready once the control-plane
 * state is loaded, the search index is open and the indexing operations
 * acknowledged before the last stop are replayed into the index writer.
 * main.ts marks each step as it completes; until then `blocker()` names the
 * first step still missing.
 */

export type ReadinessStep = 'state' | 'index';

/** What readiness asks of the documents service. */
export interface ReplayProgress {
  /** Whether the operations replayed at start are applied to the index writer. */
  readonly replayed: boolean;
}

export class Readiness {
  private readonly done = new Set<ReadinessStep>();
  private documents: ReplayProgress | undefined;

  /** A step has completed. */
  mark(step: ReadinessStep): void {
    this.done.add(step);
  }

  /** The documents service is open; ready once its replay is applied. */
  replaying(documents: ReplayProgress): void {
    this.documents = documents;
  }

  /** Why the service is not ready yet, or undefined when it is. */
  blocker(): string | undefined {
    if (!this.done.has('state')) return 'starting: the control-plane state is not loaded yet';
    if (!this.done.has('index')) return 'starting: the search index is not open yet';
    if (!this.documents) return 'starting: the indexing queue is not open yet';
    if (!this.documents.replayed) return 'starting: replaying acknowledged indexing operations';
    return undefined;
  }
}
