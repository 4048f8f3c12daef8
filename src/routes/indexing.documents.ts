/**
 * Indexing API: documents, under `/api/indexing` (service-account key; check-access
 * and the status also take an administrator's browser session: the dashboard).
 *
 *   POST   /documents[?wait=true&wait_timeout_ms=N]  {documents: doc | [doc]} -> {status, datasource?, documents_received, message, results, committed?}
 *   POST   /documents/check-access[?explain=true]    {datasource, document_id, user_email} -> {has_access, datasource, document_id, user_email, reason[, explanation]}
 *   GET    /documents/{datasource}/{document_id}     -> the document's status
 *   DELETE /documents/{datasource}/{document_id}     -> {status, datasource, document_id, message}
 */
import { Hono, type Context } from 'hono';
import { requireServiceAccount } from '../auth/middleware.ts';
import { pushDocuments } from '../documents/push.ts';
import { checkAccess, deleteDocument, documentStatus } from '../documents/lookup.ts';
import { CheckAccessQuerySchema, CheckAccessSchema, PushQuerySchema } from '../documents/schemas.ts';
import type { DocumentService } from '../documents/service.ts';
import { jsonBody, readJsonWithBytes } from '../http/body.ts';
import { bodyLease } from '../http/body-limit.ts';
import { readPushBody, SPOOL_ABOVE_BYTES, type PushBody } from '../documents/push-body.ts';
import type { AppEnv } from '../http/env.ts';
import { validate } from '../validation/pydantic.ts';
import { RequestValidationError } from '../errors.ts';
import type { Services } from '../services.ts';

export function indexingDocumentRoutes(services: Services & { documents: DocumentService }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireServiceAccount(services);
  const read = requireServiceAccount(services, { adminSessions: true });
  const deps = {
    state: services.state,
    documents: services.documents,
    maxBinaryBytes: services.config.maxBinaryBytes,
    now: services.now,
  };

  app.post('/documents', auth, async (c) => {
    const query = validate(PushQuerySchema, c.req.query(), 'query');
    const { value: body, bytes, spooled } = await readPush(c, services.documents, deps.maxBinaryBytes);
    if (body === undefined || body === null)
      throw new RequestValidationError([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    const wait = query.wait === 'true' || query.wait === '1';
    // Once queued, the body's bytes are no longer held for this request (a `wait` may take long).
    const onQueued = () => bodyLease(c)?.release();
    const options = { wait, waitTimeoutMs: query.wait_timeout_ms, onQueued };
    return c.json(await pushDocuments(deps, body, options, bytes, spooled));
  });
  app.post('/documents/check-access', read, async (c) => {
    const query = validate(CheckAccessQuerySchema, c.req.query(), 'query');
    const { explanation, ...answer } = checkAccess(deps, await jsonBody(c, CheckAccessSchema));
    return c.json(query.explain === 'true' || query.explain === '1' ? { ...answer, explanation } : answer);
  });
  app.get('/documents/:datasource/:document_id', read, (c) =>
    c.json(documentStatus(deps, c.req.param('datasource'), c.req.param('document_id'))),
  );
  app.delete('/documents/:datasource/:document_id', auth, async (c) =>
    c.json(await deleteDocument(deps, c.req.param('datasource'), c.req.param('document_id'))),
  );
  return app;
}

/**
 * The push body. One announced as at most SPOOL_ABOVE_BYTES long cannot hold a binary worth
 * storing and is read whole; any other is streamed through push-body.ts, which stores its large
 * binaries in blob files as they arrive and gives their bytes back to the memory budget. A body
 * refused while being read (a binary over the limit) closes the connection: the rest is not read.
 */
async function readPush(c: Context<AppEnv>, documents: DocumentService, maxBinaryBytes: number): Promise<PushBody> {
  const declared = c.req.header('content-length');
  const body = c.req.raw.body;
  if (!body || (declared !== undefined && Number(declared) <= SPOOL_ABOVE_BYTES)) {
    const { value, bytes } = await readJsonWithBytes(c);
    return { value, bytes, spooled: [] };
  }
  const lease = bodyLease(c);
  try {
    return await readPushBody(chunksOf(body), {
      blobs: documents.blobs,
      maxBinaryBytes,
      onSpooled: (n) => lease?.release(n),
      sizeHint: declared === undefined ? undefined : Number(declared),
    });
  } catch (err) {
    c.header('connection', 'close');
    throw err;
  }
}

async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
