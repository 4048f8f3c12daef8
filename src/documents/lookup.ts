/**
 * Per-document operations besides pushing: delete (idempotent, durable before
 * the answer), status (queued / indexed / skipped / failed / deleted, with the
 * last outcome and commit time), and check-access with an explanation.
 */
import { notFound } from '../errors.ts';
import { requireDatasource } from '../controlplane/datasources.ts';
import { membershipPath, resolveGroups } from '../controlplane/resolve.ts';
import { documentKey } from './index-schema.ts';
import type { StateStore } from '../state/store.ts';
import type { StoredDoc } from '../../engine/index.ts';
import type { CheckAccessInput } from './schemas.ts';
import type { DocumentService } from './service.ts';
import { parseToken, userTokens } from './tokens.ts';

export interface LookupDeps {
  state: StateStore;
  documents: DocumentService;
}

/**
 * The committed version of a document, or undefined (also while a deleted predecessor's drop is
 * pending: the committed documents of this name are then the old ones). The searcher is released
 * at once: an unreleased one pins its snapshot's segments until garbage collection.
 */
function committedDocument(deps: LookupDeps, datasource: string, id: string): StoredDoc | undefined {
  if (deps.documents.dropPending(datasource)) return undefined;
  const reader = deps.documents.index.reader;
  const searcher = reader.searcher();
  try {
    return searcher.get(documentKey(datasource, id)) ?? undefined;
  } finally {
    reader.release(searcher);
  }
}

export async function deleteDocument(deps: LookupDeps, datasource: string, id: string) {
  requireDatasource(deps, datasource);
  await deps.documents.enqueue({ op: 'delete', datasource, id });
  return {
    status: 'ok' as const,
    datasource,
    document_id: id,
    message: 'delete issued; the document disappears from search at the next commit',
  };
}

export interface DocumentStatusView {
  datasource: string;
  document_id: string;
  state: string;
  outcome: string;
  message: string;
  last_modified: string | null;
  received_at: string | null;
  committed_at: string | null;
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

export function documentStatus(deps: LookupDeps, datasource: string, id: string): DocumentStatusView {
  requireDatasource(deps, datasource);
  const key = documentKey(datasource, id);
  const st = deps.documents.statuses.get(key);
  if (st) {
    return {
      datasource,
      document_id: id,
      state: st.state,
      outcome: st.outcome,
      message: st.message,
      last_modified: st.last_modified,
      received_at: iso(st.received_at),
      committed_at: iso(
        st.committed_at ?? (st.state === 'indexed' ? deps.documents.commitTimes.committedAt(st.seq) : null),
      ),
    };
  }
  const doc = committedDocument(deps, datasource, id);
  if (!doc) throw notFound(`Document '${id}' not found in datasource '${datasource}'`);
  const seq = Number(doc.stored.seq ?? 0);
  return {
    datasource,
    document_id: id,
    state: 'indexed',
    outcome: 'sent',
    message: 'indexed and searchable',
    last_modified: (doc.stored.last_modified as string | null) ?? null,
    received_at: iso(doc.stored.indexed_at as number | undefined),
    committed_at: iso(deps.documents.commitTimes.committedAt(seq)),
  };
}

/** Whether `user_email` may see the committed document, with the reason (the granting token and group path, or why not). */
export function checkAccess(deps: LookupDeps, input: CheckAccessInput) {
  const ds = requireDatasource(deps, input.datasource);
  const doc = committedDocument(deps, input.datasource, input.document_id);
  if (!doc)
    throw notFound(
      `Document '${input.document_id}' is not in the search index of datasource '${input.datasource}' (it may still be queued)`,
    );
  const email = input.user_email.trim().toLowerCase();
  const base = { datasource: input.datasource, document_id: input.document_id, user_email: email };
  const docTokens = new Set(doc.keywords.acl ?? []);
  const held = userTokens(ds, email);
  if (held.length === 0) {
    return {
      has_access: false,
      ...base,
      reason: `${email} is not registered on datasource '${input.datasource}', so none of its documents are visible`,
    };
  }
  const granting = held.filter((t) => docTokens.has(t)).map((t) => parseToken(t)!);
  const order = ['anonymous', 'user', 'group'] as const;
  for (const kind of order) {
    const t = granting.find((g) => g.kind === kind);
    if (!t) continue;
    if (kind === 'anonymous')
      return {
        has_access: true,
        ...base,
        reason:
          'the document allows everyone registered on the datasource (anonymous access), and the user is registered',
      };
    if (kind === 'user') return { has_access: true, ...base, reason: `the user is listed in allowed_users` };
    const path = membershipPath(ds, email, t.value) ?? [t.value];
    return {
      has_access: true,
      ...base,
      reason: `the document allows group '${t.value}'; membership: ${[email, ...path].join(' -> ')}`,
    };
  }
  const allowedGroups = [...docTokens]
    .map(parseToken)
    .filter((t) => t?.kind === 'group')
    .map((t) => t!.value);
  const allowedUsers = [...docTokens].map(parseToken).filter((t) => t?.kind === 'user').length;
  const groups = [...resolveGroups(ds, email)];
  return {
    has_access: false,
    ...base,
    reason:
      `no permission matches: the document allows ${allowedUsers} listed user(s) (not this one)` +
      (allowedGroups.length ? ` and the groups ${allowedGroups.map((g) => `'${g}'`).join(', ')}` : ' and no groups') +
      `; the user belongs to ${groups.length ? groups.map((g) => `'${g}'`).join(', ') : 'no groups'}`,
  };
}
