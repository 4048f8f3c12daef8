/**
 * Upload sessions (an extension of the Indexing API): a datasource-wide replace for push
 * clients, as Glean's bulk indexing does. A client starts a session for a datasource, pushes
 * pages of documents under its id (the push path of POST /documents: same validation, outcomes
 * and queue), and finishes it: then every document of the datasource that no page of the
 * session named is deleted. A session abandoned (DELETE, or idle for SESSION_IDLE_MS) deletes
 * nothing.
 *
 * Which documents count as seen: every item of a page with a string `id`, whatever its outcome
 * (a document that failed validation keeps its older version rather than losing it). The ids
 * are recorded as 64-bit hashes (xxh64) before the page is pushed, so a crash in between can
 * only keep a document, never delete one a client was told about; a hash collision likewise
 * keeps a document.
 *
 * Finishing waits until everything queued before it is committed, then reads the datasource's
 * document ids from the committed index (Searcher.keysWithKeyword: the column's doc lists, no
 * stored field read, one id at a time) and queues the deletions in chunks. A datasource deleted
 * and created again since the session started voids the session (409).
 *
 * Sessions are durable (session-files.ts): open ones continue across restarts; an ended one's
 * file is removed, its view answered until restart (the last ENDED_KEPT ended sessions).
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { conflict, notFound, RequestValidationError, ServiceError } from '../errors.ts';
import { pushDocuments, type PushDeps, type PushOptions, type PushResponse } from '../documents/push.ts';
import { requireDatasource } from '../controlplane/datasources.ts';
import type { Logger } from '../log.ts';
import { RecordLogWriter } from '../storage/record-log.ts';
import { containsHash, encodeRecord, idHash, loadSessions, seenHashes, UPLOAD_ID } from './session-files.ts';

export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
export const MAX_OPEN_SESSIONS = 100;
const DELETE_CHUNK = 10_000;
const ENDED_KEPT = 1000;
const FINISH_COMMIT_TIMEOUT_MS = 120_000;

export type SessionState = 'open' | 'finishing' | 'finished' | 'abandoned';

export interface SessionView {
  upload_id: string;
  datasource: string;
  state: SessionState;
  started_at: string;
  updated_at: string;
  pages: number;
  documents_seen: number;
  /** Once finished: the documents deleted because no page named them. */
  documents_deleted?: number;
}

interface Session {
  view: SessionView;
  /** The datasource's created_at when the session started (its incarnation). */
  inc: string;
  writer: RecordLogWriter | null;
  path: string;
}

export interface UploadDeps extends PushDeps {
  log: Logger;
}

export class UploadSessions {
  private readonly sessions = new Map<string, Session>();

  private constructor(
    private readonly dir: string,
    private readonly deps: UploadDeps,
  ) {}

  /** Open the sessions directory; open sessions continue, ended ones' files are removed. */
  static async open(dir: string, deps: UploadDeps): Promise<UploadSessions> {
    await mkdir(dir, { recursive: true });
    const out = new UploadSessions(dir, deps);
    for (const f of await loadSessions(dir, deps.log)) {
      const view: SessionView = {
        upload_id: f.id,
        datasource: f.start.ds,
        state: 'open',
        started_at: f.start.at,
        updated_at: f.start.at,
        pages: f.pages,
        documents_seen: f.seen,
      };
      out.sessions.set(f.id, {
        view,
        inc: f.start.inc,
        writer: new RecordLogWriter(f.path, { size: f.size }),
        path: f.path,
      });
    }
    return out;
  }

  async start(datasource: string): Promise<SessionView> {
    const ds = requireDatasource(this.deps, datasource);
    await this.expireIdle();
    const open = [...this.sessions.values()].filter((s) => s.writer !== null).length;
    if (open >= MAX_OPEN_SESSIONS)
      throw conflict(`At most ${MAX_OPEN_SESSIONS} upload sessions can be open at once; finish or abandon one`);
    const id = `up_${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('hex')}`;
    const at = new Date(this.deps.now()).toISOString();
    const path = join(this.dir, `${id}.bin`);
    const writer = new RecordLogWriter(path);
    await writer.append(encodeRecord({ k: 'start', ds: datasource, inc: ds.record.created_at, at }));
    const view: SessionView = {
      upload_id: id,
      datasource,
      state: 'open',
      started_at: at,
      updated_at: at,
      pages: 0,
      documents_seen: 0,
    };
    this.sessions.set(id, { view, inc: ds.record.created_at, writer, path });
    return { ...view };
  }

  async get(id: string): Promise<SessionView> {
    await this.expireIdle();
    return { ...this.require(id).view };
  }

  /** Push one page under the session (the documents must be of its datasource). */
  async push(
    id: string,
    body: unknown,
    options: PushOptions,
    bodyBytes?: Uint8Array,
  ): Promise<PushResponse & { upload_id: string; documents_seen: number }> {
    await this.expireIdle();
    const s = this.requireOpen(id);
    const items = pageItems(body);
    items.forEach((item, i) => {
      const ds = (item as { datasource?: unknown } | null)?.datasource;
      if (typeof ds === 'string' && ds !== s.view.datasource)
        throw new RequestValidationError([
          {
            type: 'value_error',
            loc: [
              'body',
              'documents',
              ...(Array.isArray((body as { documents: unknown }).documents) ? [i] : []),
              'datasource',
            ],
            msg: `Value error, the upload session ${id} is for datasource '${s.view.datasource}'`,
            input: ds,
          },
        ]);
    });
    const ids = items
      .map((item) => (item as { id?: unknown } | null)?.id)
      .filter((x): x is string => typeof x === 'string');
    if (ids.length === 0)
      return {
        ...(await pushDocuments(this.deps, body, options, bodyBytes)),
        upload_id: id,
        documents_seen: s.view.documents_seen,
      };
    await s.writer!.append(encodeRecord({ k: 'seen', h: ids.map((x) => idHash(x).toString(16)) }));
    s.view.pages++;
    s.view.documents_seen += ids.length;
    s.view.updated_at = new Date(this.deps.now()).toISOString();
    const res = await pushDocuments(this.deps, body, options, bodyBytes);
    return { ...res, upload_id: id, documents_seen: s.view.documents_seen };
  }

  /** Delete the datasource's documents no page named, and end the session. */
  async finish(id: string): Promise<SessionView> {
    await this.expireIdle();
    const s = this.requireOpen(id);
    const ds = requireDatasource(this.deps, s.view.datasource);
    if (ds.record.created_at !== s.inc) {
      await this.end(s, 'abandoned');
      throw conflict(`Datasource '${s.view.datasource}' was deleted and created again since the session started`);
    }
    s.view.state = 'finishing';
    try {
      const documents = this.deps.documents;
      const committed = await documents.waitCommitted(documents.queue.next - 1, FINISH_COMMIT_TIMEOUT_MS);
      if (!committed)
        throw new ServiceError('UNAVAILABLE', 'The documents pushed so far are not committed yet; finish again later');
      await s.writer!.drained();
      const seen = await seenHashes(s.path, this.deps.log);
      s.view.documents_deleted = await this.deleteUnseen(s.view.datasource, seen);
    } catch (err) {
      s.view.state = 'open';
      throw err;
    }
    await this.end(s, 'finished');
    return { ...s.view };
  }

  /** End the session without deleting anything. */
  async abandon(id: string): Promise<SessionView> {
    await this.expireIdle();
    const s = this.requireOpen(id);
    await this.end(s, 'abandoned');
    return { ...s.view };
  }

  async close(): Promise<void> {
    for (const s of this.sessions.values()) await s.writer?.close();
  }

  private async deleteUnseen(datasource: string, seen: BigUint64Array): Promise<number> {
    const documents = this.deps.documents;
    if (documents.dropPending(datasource)) return 0;
    const reader = documents.index.reader;
    const searcher = reader.searcher();
    const prefix = datasource.length + 1;
    let deleted = 0;
    try {
      let ops: { op: 'delete'; datasource: string; id: string }[] = [];
      for (const key of searcher.keysWithKeyword('datasource', datasource)) {
        const id = key.slice(prefix);
        if (containsHash(seen, idHash(id))) continue;
        ops.push({ op: 'delete', datasource, id });
        if (ops.length >= DELETE_CHUNK) {
          await documents.enqueueMany(ops).durable;
          deleted += ops.length;
          ops = [];
        }
      }
      if (ops.length > 0) await documents.enqueueMany(ops).durable;
      deleted += ops.length;
    } finally {
      reader.release(searcher);
    }
    return deleted;
  }

  private async end(s: Session, state: 'finished' | 'abandoned'): Promise<void> {
    const at = new Date(this.deps.now()).toISOString();
    await s.writer!.append(encodeRecord({ k: 'end', state, at }));
    await s.writer!.close();
    s.writer = null;
    s.view.state = state;
    s.view.updated_at = at;
    await rm(s.path, { force: true });
    // Ended sessions stay answerable until ENDED_KEPT newer ones ended (or a restart).
    const ended = [...this.sessions.values()].filter((x) => x.writer === null);
    for (const old of ended.slice(0, Math.max(0, ended.length - ENDED_KEPT))) this.sessions.delete(old.view.upload_id);
  }

  private require(id: string): Session {
    const s = UPLOAD_ID.test(id) ? this.sessions.get(id) : undefined;
    if (!s) throw notFound(`Upload session ${id} does not exist`);
    return s;
  }

  private requireOpen(id: string): Session {
    const s = this.require(id);
    if (s.view.state !== 'open') throw conflict(`Upload session ${id} is ${s.view.state}`);
    return s;
  }

  /** Abandon sessions idle for longer than SESSION_IDLE_MS. */
  private async expireIdle(): Promise<void> {
    const now = this.deps.now();
    for (const s of this.sessions.values())
      if (s.view.state === 'open' && now - Date.parse(s.view.updated_at) > SESSION_IDLE_MS)
        await this.end(s, 'abandoned');
  }
}

/** The items of a push body (single or bulk form); [] when it has none. */
function pageItems(body: unknown): unknown[] {
  const docs = (body as { documents?: unknown } | null)?.documents;
  if (docs === undefined || docs === null) return [];
  return Array.isArray(docs) ? docs : [docs];
}
