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

/**
 * Why a person may or may not see a document, in parts (the dashboard shows them; the API answers
 * them with `?explain=true`): whether the person is registered on the datasource, which permission
 * grants access (`anonymous`: everyone registered; `user`: listed in allowed_users; `group`: through
 * `group_path`, the person's email followed by the chain of groups, each a member of the next, ending
 * at an allowed group), the document's permissions and the person's groups (transitively).
 */
export interface AccessExplanation {
  registered: boolean;
  granted_by: 'anonymous' | 'user' | 'group' | null;
  group_path: string[] | null;
  document: { anonymous: boolean; allowed_users: number; allowed_groups: string[] };
  user_groups: string[];
}

export interface AccessAnswer {
  has_access: boolean;
  datasource: string;
  document_id: string;
  user_email: string;
  reason: string;
  explanation: AccessExplanation;
}

const REASONS = {
  anonymous: 'the document allows everyone registered on the datasource (anonymous access), and the user is registered',
  user: 'the user is listed in allowed_users',
} as const;

/** Whether `user_email` may see the committed document, with the reason (the granting token and group path, or why not). */
export function checkAccess(deps: LookupDeps, input: CheckAccessInput): AccessAnswer {
  const ds = requireDatasource(deps, input.datasource);
  const doc = committedDocument(deps, input.datasource, input.document_id);
  if (!doc)
    throw notFound(
      `Document '${input.document_id}' is not in the search index of datasource '${input.datasource}' (it may still be queued)`,
    );
  const email = input.user_email.trim().toLowerCase();
  const base = { datasource: input.datasource, document_id: input.document_id, user_email: email };
  const raw = [...new Set(doc.keywords.acl ?? [])];
  const docTokens = raw.map(parseToken).filter((t) => t !== null);
  const document = {
    anonymous: docTokens.some((t) => t.kind === 'anonymous'),
    allowed_users: docTokens.filter((t) => t.kind === 'user').length,
    allowed_groups: docTokens.filter((t) => t.kind === 'group').map((t) => t.value),
  };
  const held = new Set(userTokens(ds, email));
  const user_groups = [...resolveGroups(ds, email)].sort();
  const explain = (granted_by: AccessExplanation['granted_by'], group_path: string[] | null = null) => ({
    registered: held.size > 0,
    granted_by,
    group_path,
    document,
    user_groups,
  });
  if (held.size === 0) {
    const reason = `${email} is not registered on datasource '${input.datasource}', so none of its documents are visible`;
    return { has_access: false, ...base, reason, explanation: explain(null) };
  }
  const granting = raw
    .filter((t) => held.has(t))
    .map(parseToken)
    .filter((t) => t !== null);
  for (const kind of ['anonymous', 'user', 'group'] as const) {
    const t = granting.find((g) => g.kind === kind);
    if (!t) continue;
    if (kind !== 'group') return { has_access: true, ...base, reason: REASONS[kind], explanation: explain(kind) };
    const path = [email, ...(membershipPath(ds, email, t.value) ?? [t.value])];
    const reason = `the document allows group '${t.value}'; membership: ${path.join(' -> ')}`;
    return { has_access: true, ...base, reason, explanation: explain('group', path) };
  }
  const groups = document.allowed_groups;
  const reason =
    `no permission matches: the document allows ${document.allowed_users} listed user(s) (not this one)` +
    (groups.length ? ` and the groups ${groups.map((g) => `'${g}'`).join(', ')}` : ' and no groups') +
    `; the user belongs to ${user_groups.length ? user_groups.map((g) => `'${g}'`).join(', ') : 'no groups'}`;
  return { has_access: false, ...base, reason, explanation: explain(null) };
}
