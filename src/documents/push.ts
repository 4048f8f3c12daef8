/**
 * POST /api/indexing/documents as a domain function: validate each document,
 * decide its outcome by the spec's state table, append the `sent` ones to the
 * durable queue, and answer once they are fsynced (optionally once committed).
 *
 * Single form: field errors are 422 validation items, a missing datasource is
 * 404, schema rule errors are 422 in the error_code envelope. Bulk form: each
 * of these becomes a `failed` entry and the rest continue, in order.
 */
import * as v from 'valibot';
import { RequestValidationError, SchemaError, ServiceError } from '../errors.ts';
import { validate } from '../http/validation.ts';
import { requireDatasource } from '../indexing/datasources.ts';
import { checkCustomProperties, propertyDefinitions, resolveSubReference } from '../indexing/document-rules.ts';
import type { StateStore } from '../state/store.ts';
import { documentKey } from '../search/index-schema.ts';
import { documentSuffix } from './body.ts';
import type { QueuedDocument } from './queue.ts';
import { documentSchema, PushEnvelopeSchema, type DocumentInput } from './schema.ts';
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
}

type Decision = { result: PushResult; doc?: QueuedDocument; skipDelete?: { datasource: string; id: string } };

/** Outcome of one document that passed validation (no queue write yet). */
function decide(deps: PushDeps, input: DocumentInput): Decision {
  const ds = requireDatasource(deps, input.datasource);
  const binding = resolveSubReference(ds.record, input.data_source_sub, input.data_source_sub_sub);
  const props = input.custom_properties ?? [];
  checkCustomProperties(ds.record, props);
  const defs = propertyDefinitions(ds.record);
  const tokens = documentTokens(input.datasource, input.permissions);
  const id = input.id;
  const mediaType = input.body?.mime_type;
  const suffix = documentSuffix({ mime_type: mediaType, binary: input.body?.binary_base64 !== undefined, title: input.title, path: input.path, path_preview: input.path_preview });
  if (suffix.length > MAX_SUFFIX_LENGTH) {
    return {
      result: { document_id: id, outcome: 'skipped', message: `computed file suffix '${suffix}' is longer than ${MAX_SUFFIX_LENGTH} characters; the document is not indexed` },
      skipDelete: { datasource: input.datasource, id },
    };
  }
  const lastModified = input.last_modified ?? null;
  const previous = latestAccepted(deps, input.datasource, id);
  if (previous && previous.last_modified === lastModified && sameTokens(previous.tokens, tokens)) {
    return {
      result: { document_id: id, outcome: 'already_indexed', message: 'same last_modified and access tokens as the accepted version; nothing queued (send a new last_modified to replace it)' },
    };
  }
  const doc: QueuedDocument = {
    datasource: input.datasource,
    id,
    title: input.title ?? '',
    mime_type: mediaType ?? null,
    text_content: input.body?.text_content ?? null,
    binary_base64: input.body?.binary_base64 ?? null,
    file_type: input.file_type,
    path_preview: input.path_preview ?? null,
    path: input.path ?? null,
    author: input.author ?? null,
    last_modified: lastModified,
    sub: binding.data_source_sub ?? null,
    sub_sub: binding.data_source_sub_sub ?? null,
    tokens,
    properties: props.map((p) => {
      const def = defs.get(p.name)!;
      return { name: p.name, value: p.value as string | number | boolean, type: def.property_type, searchable: def.is_searchable === true };
    }),
    received_at: deps.now(),
  };
  return { result: { document_id: id, outcome: 'sent', message: 'queued for indexing; searchable after the next commit' }, doc };
}

/** The version the `already_indexed` rule compares with: queued or indexed, from memory or the committed index. */
function latestAccepted(deps: PushDeps, datasource: string, id: string): { last_modified: string | null; tokens: string[] } | null {
  const st = deps.documents.statuses.get(documentKey(datasource, id));
  if (st) return st.state === 'queued' || st.state === 'indexed' ? st : null;
  const committed = deps.documents.index.reader.searcher().get(documentKey(datasource, id));
  if (!committed) return null;
  return { last_modified: (committed.stored.last_modified as string | null) ?? null, tokens: [...(committed.keywords.acl ?? [])].sort() };
}

function failure(err: unknown): string {
  if (err instanceof RequestValidationError) return err.items.map((i) => `${i.loc.slice(1).join('.') || 'document'}: ${i.msg}`).join('; ');
  if (err instanceof SchemaError) return `${err.code}: ${err.message}`;
  if (err instanceof ServiceError) return err.message;
  throw err;
}

export async function pushDocuments(deps: PushDeps, body: unknown, options: PushOptions = {}): Promise<PushResponse> {
  const envelope = validate(PushEnvelopeSchema, body, 'body');
  const schema = documentSchema(deps.maxBinaryBytes);
  const single = !Array.isArray(envelope.documents);
  const items = single ? [envelope.documents] : (envelope.documents as unknown[]);
  if (items.length > MAX_BULK_DOCUMENTS) {
    throw new RequestValidationError([{ type: 'too_long', loc: ['body', 'documents'], msg: `List should have at most ${MAX_BULK_DOCUMENTS} items after validation, not ${items.length}`, input: null, ctx: { field_type: 'List', max_length: MAX_BULK_DOCUMENTS, actual_length: items.length } }]);
  }
  await deps.documents.pipeline.capacity();
  const decisions: Decision[] = [];
  const durable: Promise<number>[] = [];
  for (let i = 0; i < items.length; i++) {
    try {
      const input = validate(schema, items[i], 'body');
      const d = decide(deps, input);
      decisions.push(d);
      // Enqueued at once, so a later item with the same id sees this one as the accepted version.
      if (d.doc) durable.push(deps.documents.enqueue({ op: 'upsert', doc: d.doc }));
      else if (d.skipDelete) durable.push(deps.documents.enqueue({ op: 'delete', ...d.skipDelete }));
    } catch (err) {
      if (single) {
        if (err instanceof RequestValidationError) throw new RequestValidationError(err.items.map((it) => ({ ...it, loc: ['body', 'documents', ...it.loc.slice(1)] })));
        throw err;
      }
      const raw = items[i] as { id?: unknown } | null;
      decisions.push({ result: { document_id: typeof raw?.id === 'string' ? raw.id : `#${i}`, outcome: 'failed', message: failure(err) } });
    }
  }
  const seqs = await Promise.all(durable);
  for (const d of decisions) {
    if (d.result.outcome !== 'skipped') continue;
    const st = deps.documents.statuses.get(documentKey(d.skipDelete!.datasource, d.skipDelete!.id));
    if (st) Object.assign(st, { state: 'skipped', outcome: 'skipped', message: d.result.message });
  }
  const results = decisions.map((d) => d.result);
  const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  const summary = `${results.length} document${results.length === 1 ? '' : 's'} received: ${count('sent')} sent, ${count('already_indexed')} already indexed, ${count('skipped')} skipped, ${count('failed')} failed`;
  const response: PushResponse = single
    ? { status: 'ok', datasource: (items[0] as { datasource: string }).datasource, documents_received: null, message: results[0].message, results }
    : { status: 'ok', documents_received: results.length, message: summary, results };
  if (options.wait) {
    const maxSeq = Math.max(0, ...seqs);
    response.committed = await deps.documents.waitCommitted(maxSeq, options.waitTimeoutMs ?? 30_000);
  }
  return response;
}

export const PushQuerySchema = v.strictObject({
  wait: v.optional(v.picklist(['true', 'false', '1', '0'])),
  wait_timeout_ms: v.optional(v.pipe(v.string(), v.regex(/^\d{1,6}$/), v.transform(Number), v.minValue(1), v.maxValue(120_000))),
});
