/**
 * Indexing API: documents, under `/api/indexing` (service-account key; check-access
 * and the status also take an administrator's browser session: the dashboard).
 *
 *   POST   /documents[?wait=true&wait_timeout_ms=N]  {documents: doc | [doc]} -> {status, datasource?, documents_received, message, results, committed?}
 *   POST   /documents/check-access[?explain=true]    {datasource, document_id, user_email} -> {has_access, datasource, document_id, user_email, reason[, explanation]}
 *   GET    /documents/{datasource}/{document_id}     -> the document's status
 *   DELETE /documents/{datasource}/{document_id}     -> {status, datasource, document_id, message}
 */
import { Hono } from 'hono';
import { requireServiceAccount } from '../auth/middleware.ts';
import { pushDocuments } from '../documents/push.ts';
import { checkAccess, deleteDocument, documentStatus } from '../documents/lookup.ts';
import { CheckAccessQuerySchema, CheckAccessSchema, PushQuerySchema } from '../documents/schemas.ts';
import type { DocumentService } from '../documents/service.ts';
import { jsonBody, readJsonWithBytes } from '../http/body.ts';
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
    const { value: body, bytes } = await readJsonWithBytes(c);
    if (body === undefined || body === null)
      throw new RequestValidationError([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    const wait = query.wait === 'true' || query.wait === '1';
    return c.json(await pushDocuments(deps, body, { wait, waitTimeoutMs: query.wait_timeout_ms }, bytes));
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
