/**
 * POST /api/indexing/documents as a domain function: validate each document,
 * decide its outcome by the spec's state table, append the `sent` ones to the
 * durable queue, and answer once they are fsynced (optionally once committed).
 * Items that certainly pass the schema take a fast validation path (the schema
 * still produces every error); a request's operations are appended as one
 * record, with each item's JSON as received when the body bytes are given.
 * Binaries read into blob files while the body arrived (push-body.ts) are kept
 * by the documents queued with them; the others are removed before answering.
 *
 * Single form: field errors are 422 validation items, a missing datasource is
 * 404, schema rule errors are 422 in the error_code envelope. Bulk form: each
 * of these becomes a `failed` entry and the rest continue, in order.
 */
import { RequestValidationError, SchemaError, ServiceError } from '../errors.ts';
import { validate } from '../validation/pydantic.ts';
import type { Searcher } from '../../engine/index.ts';
import { requireDatasource } from '../controlplane/datasources.ts';
import { checkCustomProperties, propertyDefinitions, resolveSubReference } from '../controlplane/document-rules.ts';
import { pendingDatasourceDrop } from '../controlplane/events.ts';
import type { DatasourceState, PropertyDefinition } from '../controlplane/state.ts';
import type { StateStore } from '../state/store.ts';
import { documentKey } from './index-schema.ts';
import { documentSuffix } from './suffix.ts';
import { queuedDocument, type NewQueueOp, type QueuedDocument, type SkippedVersion } from './queue.ts';
import { documentItemSpans } from './raw-items.ts';
import { documentSchema, PushEnvelopeSchema, type DocumentInput } from './schemas.ts';
import { fastValidDocument } from './schemas-fast-path.ts';
import { spooledFor, type SpooledBinary } from './spooled.ts';
import type { DocumentService } from './service.ts';
import { sameTokens, type Outcome } from './status.ts';
import { documentTokens } from './tokens.ts';

export const MAX_SUFFIX_LENGTH = 10;
export const MAX_BULK_DOCUMENTS = 10_000;

export interface PushDeps {
  state: StateStore;
  documents: DocumentService;
  maxBinaryBytes: number;
  now: () => number;
}

export interface PushResult {
  document_id: string;
  outcome: Outcome;
  message: string;
}

export interface PushResponse {
  status: 'ok';
  datasource?: string;
  documents_received: number | null;
  message: string;
  results: PushResult[];
  /** Only with `wait`: whether every sent document was committed before the timeout. */
  committed?: boolean;
}

export interface PushOptions {
  wait?: boolean;
  waitTimeoutMs?: number;
  /** Called once the documents are durable, before waiting for the commit (the body is no longer needed). */
  onQueued?: () => void;
  /** Source category the documents are filed under (connectors, src/connectors/); default `other`. */
  category?: string;
}

type Decision = {
  result: PushResult;
  doc?: QueuedDocument;
  /** The stored binary `doc` takes over. */
  spooled?: SpooledBinary;
  skipDelete?: { datasource: string; id: string; skipped: SkippedVersion };
};

/** A version the `already_indexed` rule compares with. */
type Accepted = { last_modified: string | null; tokens: readonly string[] };

/**
 * Lookups shared by the items of one request (the request is decided synchronously, so the
 * control plane and the committed index cannot change under it): datasources and their property
 * definitions, one searcher over the committed index, and the versions accepted earlier in the
 * same request (null: skipped, so no accepted version).
 */
class PushContext {
  private readonly datasources = new Map<string, DatasourceState>();
  private readonly definitions = new Map<string, Map<string, PropertyDefinition>>();
  private searcher: Searcher | undefined;
  readonly accepted = new Map<string, Accepted | null>();

  constructor(readonly deps: PushDeps) {}

  datasource(name: string): DatasourceState {
    let ds = this.datasources.get(name);
    if (!ds) this.datasources.set(name, (ds = requireDatasource(this.deps, name)));
    return ds;
  }

  propertyDefinitions(ds: DatasourceState): Map<string, PropertyDefinition> {
    let defs = this.definitions.get(ds.record.name);
    if (!defs) this.definitions.set(ds.record.name, (defs = propertyDefinitions(ds.record)));
    return defs;
  }

  /** The version the `already_indexed` rule compares with: this request's, queued or indexed, from memory or the committed index. */
  latestAccepted(datasource: string, id: string): Accepted | null {
    const key = documentKey(datasource, id);
    const local = this.accepted.get(key);
    if (local !== undefined) return local;
    const st = this.deps.documents.statuses.get(key);
    if (st) return st.state === 'queued' || st.state === 'indexed' ? st : null;
    this.searcher ??= this.deps.documents.index.reader.searcher();
    const committed = this.searcher.get(key);
    // A version that a queued drop of its datasource removes is not the accepted one (the datasource was re-created).
    if (!committed || this.deps.documents.statuses.droppedAfter(datasource, Number(committed.stored.seq ?? 0)))
      return null;
    return {
      last_modified: (committed.stored.last_modified as string | null) ?? null,
      tokens: [...(committed.keywords.acl ?? [])].sort(),
    };
  }

  close(): void {
    if (this.searcher) this.deps.documents.index.reader.release(this.searcher);
    this.searcher = undefined;
  }
}

/** Outcome of one document that passed validation (no queue write yet). */
function decide(ctx: PushContext, input: DocumentInput, receivedAt: number, category?: string): Decision {
  const ds = ctx.datasource(input.datasource);
  const binding = resolveSubReference(ds.record, input.data_source_sub, input.data_source_sub_sub);
  const props = input.custom_properties ?? [];
  checkCustomProperties(ds.record, props);
  const tokens = documentTokens(input.datasource, input.permissions);
  const id = input.id;
  const lastModified = input.last_modified ?? null;
  const previous = ctx.latestAccepted(input.datasource, id);
  if (previous && previous.last_modified === lastModified && sameTokens(previous.tokens, tokens)) {
    return {
      result: {
        document_id: id,
        outcome: 'already_indexed',
        message:
          'same last_modified and access tokens as the accepted version; nothing queued (send a new last_modified to replace it)',
      },
    };
  }
  // After the rule above: nothing reaches the pipeline for an unchanged document, so an ignored edit cannot skip it.
  const mediaType = input.body?.mime_type;
  const suffix = documentSuffix({
    mime_type: mediaType,
    binary: input.body?.binary_base64 !== undefined,
    title: input.title,
    path: input.path,
    path_preview: input.path_preview,
  });
  if (suffix.length > MAX_SUFFIX_LENGTH) {
    const message = `computed file suffix '${suffix}' is longer than ${MAX_SUFFIX_LENGTH} characters; the document is not indexed`;
    return {
      result: { document_id: id, outcome: 'skipped', message },
      skipDelete: {
        datasource: input.datasource,
        id,
        skipped: { message, last_modified: input.last_modified ?? null, received_at: receivedAt },
      },
    };
  }
  const defs = props.length > 0 ? ctx.propertyDefinitions(ds) : undefined;
  const spooled = spooledFor(input.body?.binary_base64);
  const doc = queuedDocument(input, {
    ...(spooled?.blob ? { blob: spooled.blob } : {}),
    tokens,
    sub: binding.data_source_sub ?? null,
    sub_sub: binding.data_source_sub_sub ?? null,
    sub_id: binding.sub_id ?? null,
    sub_sub_id: binding.sub_sub_id ?? null,
    properties: props.map((p) => {
      const def = defs!.get(p.name)!;
      return {
        name: p.name,
        value: p.value as string | number | boolean,
        type: def.property_type,
        searchable: def.is_searchable === true,
      };
    }),
    received_at: receivedAt,
    category,
  });
  return {
    result: { document_id: id, outcome: 'sent', message: 'queued for indexing; searchable after the next commit' },
    doc,
    spooled,
  };
}

function failure(err: unknown): string {
  if (err instanceof RequestValidationError)
    return err.items.map((i) => `${i.loc.slice(1).join('.') || 'document'}: ${i.msg}`).join('; ');
  if (err instanceof SchemaError) return `${err.code}: ${err.message}`;
  if (err instanceof ServiceError) return err.message;
  throw err;
}

/** Deletions still pending (indexing/events.ts) of the datasources the items name, or undefined. */
function pendingDrops(state: StateStore, items: readonly unknown[]): Promise<void> | undefined {
  const waits: Promise<void>[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const name = (item as { datasource?: unknown } | null)?.datasource;
    if (typeof name !== 'string' || seen.has(name)) continue;
    seen.add(name);
    const p = pendingDatasourceDrop(state, name);
    if (p) waits.push(p);
  }
  return waits.length > 0 ? Promise.all(waits).then(() => undefined) : undefined;
}

/**
 * `bodyBytes`, when given, are the request body that `body` was parsed from: the queue then
 * stores each sent item's JSON from it as received instead of serializing the document again.
 * `spooled`: the binaries push-body.ts stored while reading it (removed here unless queued).
 */
export async function pushDocuments(
  deps: PushDeps,
  body: unknown,
  options: PushOptions = {},
  bodyBytes?: Uint8Array,
  spooled: readonly SpooledBinary[] = [],
): Promise<PushResponse> {
  try {
    return await pushParsed(deps, body, options, bodyBytes);
  } finally {
    await Promise.all(spooled.map((s) => s.discard()));
  }
}

async function pushParsed(
  deps: PushDeps,
  body: unknown,
  options: PushOptions,
  bodyBytes: Uint8Array | undefined,
): Promise<PushResponse> {
  const envelope = validate(PushEnvelopeSchema, body, 'body');
  const single = !Array.isArray(envelope.documents);
  const items = single ? [envelope.documents] : (envelope.documents as unknown[]);
  if (items.length > MAX_BULK_DOCUMENTS) {
    throw new RequestValidationError([
      {
        type: 'too_long',
        loc: ['body', 'documents'],
        msg: `List should have at most ${MAX_BULK_DOCUMENTS} items after validation, not ${items.length}`,
        input: null,
        ctx: { field_type: 'List', max_length: MAX_BULK_DOCUMENTS, actual_length: items.length },
      },
    ]);
  }
  // A datasource deleted and created again: the old one's drop is queued before these documents.
  // Waited for before taking capacity (a push let in submits at once), and checked again after it,
  // with nothing awaited between that last check and the queueing below.
  for (let p = pendingDrops(deps.state, items); p !== undefined; p = pendingDrops(deps.state, items)) await p;
  await deps.documents.pipeline.capacity(items.length);
  for (let p = pendingDrops(deps.state, items); p !== undefined; p = pendingDrops(deps.state, items)) await p;
  const decisions: Decision[] = [];
  const ops: NewQueueOp[] = [];
  const spans = bodyBytes && !single ? documentItemSpans(bodyBytes) : null;
  const raw: (Uint8Array | undefined)[] | undefined = spans && spans.starts.length === items.length ? [] : undefined;
  const ctx = new PushContext(deps);
  const receivedAt = deps.now();
  try {
    for (let i = 0; i < items.length; i++) {
      try {
        const input =
          fastValidDocument(items[i], deps.maxBinaryBytes) ??
          validate(documentSchema(deps.maxBinaryBytes), items[i], 'body');
        const d = decide(ctx, input, receivedAt, options.category);
        decisions.push(d);
        // Later items with the same id compare with this one.
        if (d.doc) {
          ops.push({ op: 'upsert', doc: d.doc });
          raw?.push(bodyBytes!.subarray(spans!.starts[i], spans!.ends[i]));
          ctx.accepted.set(documentKey(d.doc.datasource, d.doc.id), d.doc);
        } else if (d.skipDelete) {
          ops.push({ op: 'delete', ...d.skipDelete });
          raw?.push(undefined);
          ctx.accepted.set(documentKey(d.skipDelete.datasource, d.skipDelete.id), null);
        }
      } catch (err) {
        if (single) {
          if (err instanceof RequestValidationError)
            throw new RequestValidationError(
              err.items.map((it) => ({ ...it, loc: ['body', 'documents', ...it.loc.slice(1)] })),
            );
          throw err;
        }
        const raw = items[i] as { id?: unknown } | null;
        decisions.push({
          result: {
            document_id: typeof raw?.id === 'string' ? raw.id : `#${i}`,
            outcome: 'failed',
            message: failure(err),
          },
        });
      }
    }
  } finally {
    ctx.close();
  }
  // One record, one fsync (shared with concurrent requests); statuses are tracked before any other request runs.
  const { seqs, durable } = deps.documents.enqueueMany(ops, raw);
  for (const d of decisions) if (d.doc?.binary_blob) d.spooled!.keep();
  await durable;
  options.onQueued?.();
  for (const d of decisions) {
    if (d.result.outcome !== 'skipped') continue;
    const st = deps.documents.statuses.get(documentKey(d.skipDelete!.datasource, d.skipDelete!.id));
    if (st) Object.assign(st, { state: 'skipped', outcome: 'skipped', message: d.result.message });
  }
  const results = decisions.map((d) => d.result);
  const counts = { sent: 0, already_indexed: 0, skipped: 0, failed: 0 };
  for (const r of results) counts[r.outcome]++;
  const summary = `${results.length} document${results.length === 1 ? '' : 's'} received: ${counts.sent} sent, ${counts.already_indexed} already indexed, ${counts.skipped} skipped, ${counts.failed} failed`;
  const response: PushResponse = single
    ? {
        status: 'ok',
        datasource: (items[0] as { datasource: string }).datasource,
        documents_received: null,
        message: results[0].message,
        results,
      }
    : { status: 'ok', documents_received: results.length, message: summary, results };
  if (options.wait) {
    const maxSeq = seqs.length > 0 ? seqs[seqs.length - 1] : 0;
    response.committed = await deps.documents.waitCommitted(maxSeq, options.waitTimeoutMs ?? 30_000);
  }
  return response;
}
