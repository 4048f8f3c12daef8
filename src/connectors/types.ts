/**
 * The connector interface. A connector type is one module (`src/connectors/<type>/index.ts`)
 * exporting a `ConnectorModule`, listed once in `registry.ts`; the framework does the rest:
 * configuration and encrypted credentials (admin API), scheduling, pushing through the Indexing
 * API's pipeline, incremental state, deletions, run status, pause and resume.
 *
 * A run calls `items(run)` and consumes what it yields, in order:
 * - a candidate `{key, version, memo?, load}`: the framework compares `version` with what the
 *   last successful push of `key` recorded; only when it differs (or the item failed before) does
 *   it call `load()` and push the document (or, for `null`, keep the key without a document);
 * - `{key, unchanged: true, memo?}`: the source itself said the item did not change (HTTP 304);
 * - `{key, failed: reason, memo?}`: the item could not be read; reported with its reason, its
 *   previous document stays, and the next run tries it again;
 * - `{key, gone: true}`: the source says the item no longer exists; its document is deleted now.
 * Keys of earlier runs that a complete run did not yield are deleted at its end (the rule of
 * upload sessions: whatever the source no longer has goes). A connector whose listing did not
 * cover the whole source (a page limit, an unreachable part) calls `run.incomplete(reason)`:
 * nothing unseen is deleted then. A fatal problem (root folder missing, server unreachable)
 * is thrown: the run fails with that message and deletes nothing.
 *
 * Keys are the connector's natural item names (a relative path, a URL, `folder/uid`), at most
 * 4,096 characters; the document id is derived from the key (ids.ts), so it is stable across runs.
 * `version` is a cheap change marker read without the content (mtime and size, an ETag, a blob
 * id, a UID). `memo` is small JSON the connector gets back next run through `run.previous(key)`.
 * A connector honours `run.signal` (pause, shutdown) by ending its iteration soon after.
 *
 * `load()` throws `SkippedItem` for an item that is deliberately not indexed (a binary or huge
 * file): it is counted `skipped` with its reason, its document (if any) is deleted, and it is not
 * read again until its version changes. Any other throw is a failure, retried next run.
 */
import type * as v from 'valibot';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';

/** The spec's data source categories (search `data_source`) a connector files its documents under. */
export type SourceCategory = 'wikitool' | 'issuetool' | 'codehost' | 'intranet_online' | 'mailsuite' | 'fileshares';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A document as a connector produces it; the framework adds `datasource` and `id`. */
export interface SourceDocument {
  title: string;
  /** One of the 18 document file types (`file`, `webpage`, `email`, `markdown`, ...). */
  file_type: string;
  /** Breadcrumb, e.g. `share/hr/handbook.pdf` (search `parent_path`, thread rule). */
  path?: string;
  /** Where a person opens the item (a URL). */
  path_preview?: string;
  author?: string;
  /** ISO 8601; also the state table's change marker, so a changed item must carry a new one. */
  last_modified?: string;
  /** Text as is, or bytes that go through the extractors (like a `binary_base64` push). */
  body?: { mime_type: string; text: string } | { mime_type: string; bytes: Uint8Array };
  /** As in the Indexing API; absent: everyone registered on the datasource. */
  permissions?: { allow_anonymous_access?: boolean; allowed_users?: string[]; allowed_groups?: string[] };
  /** Checked against the datasource's property definitions (see ConnectorModule.datasource). */
  custom_properties?: { name: string; value: string | number | boolean }[];
}

/** A property definition as the Indexing API takes it. */
export interface PropertyDefinitionInput {
  name: string;
  display_label: string;
  is_searchable: boolean;
  property_type: 'TEXT' | 'INTEGER' | 'DATE' | 'BOOLEAN';
}
export interface ObjectDefinitionInput {
  name: string;
  property_definitions: PropertyDefinitionInput[];
}

/** Thrown by `load()`: the item is deliberately not indexed (binary, too large), with the reason. */
export class SkippedItem extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SkippedItem';
  }
}

export interface CandidateItem {
  key: string;
  version: string;
  memo?: Json;
  /** Reads the item (only when changed); null: the key has no document (an alias, a `noindex` page). */
  load(): Promise<SourceDocument | null>;
}
export interface UnchangedItem {
  key: string;
  unchanged: true;
  memo?: Json;
}
export interface FailedItem {
  key: string;
  failed: string;
  memo?: Json;
}
export interface GoneItem {
  key: string;
  gone: true;
}
export type SourceItem = CandidateItem | UnchangedItem | FailedItem | GoneItem;

/** What earlier runs recorded for a key. */
export interface PreviousItem {
  version: string;
  memo?: Json;
  /** The last attempt failed, or the settings changed since: the item is read again whatever its version. */
  failed: boolean;
}

/** What a run gives the connector. */
export interface RunContext<S = unknown, C = unknown> {
  readonly connectorId: string;
  readonly datasource: string;
  /** The validated settings (the module's `settings` schema output). */
  readonly settings: S;
  /** The decrypted credentials, or undefined when none are stored. Never log them. */
  readonly credentials: C | undefined;
  /** Aborted when the run is paused or the process stops. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** The service configuration (crawler settings, binary size limit, ...). */
  readonly config: Config;
  /**
   * A folder of the connector's own (`DATA_DIR/connectors/<id>/work`), kept across runs and
   * removed with the connector: caches such as a git clone. Created before the run starts.
   */
  readonly workDir: string;
  previous(key: string): PreviousItem | undefined;
  /** Every key earlier runs recorded (to revisit what a listing cannot enumerate, e.g. crawled pages). */
  knownKeys(): Iterable<string>;
  /** The number of items of this run as far as known (progress "n of N"); may grow. */
  setTotal(total: number): void;
  /** The listing did not cover the whole source: keys not yielded are kept, not deleted. */
  incomplete(reason: string): void;
}

export interface ConnectorModule<S = any, C = any> {
  /** The `type` of the admin API, e.g. `fileshares`. */
  readonly type: string;
  readonly category: SourceCategory;
  /** One line for the type listing. */
  readonly description: string;
  /** Type-specific settings (validated at create and update; 422 at `["body", "settings", ...]`). */
  readonly settings: v.GenericSchema<unknown, S>;
  /** Credentials, when the type takes any (encrypted at rest, never shown). */
  readonly credentials?: v.GenericSchema<unknown, C>;
  /**
   * Fields of the datasource the framework creates when the target does not exist; on an existing
   * datasource, property definitions it lacks are added (a connector's `custom_properties` must
   * be defined there).
   */
  readonly datasource?: { object_definitions?: ObjectDefinitionInput[] };
  /**
   * People registered on the target datasource at the start of each run when missing (the owner
   * of a mailbox sees its messages without an Indexing API call); emails.
   */
  datasourceUsers?(settings: S): string[];
  items(run: RunContext<S, C>): AsyncIterable<SourceItem>;
}
