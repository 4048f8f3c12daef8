/**
 * Indexing API extension: upload sessions, a datasource-wide replace (service-account key),
 * under `/api/indexing`:
 *   POST   /upload-sessions                      {datasource} -> session
 *   POST   /upload-sessions/{id}/documents[?wait=true&wait_timeout_ms=N]  {documents: doc | [doc]}
 *                                                -> the POST /documents answer + {upload_id, documents_seen}
 *   POST   /upload-sessions/{id}/finish          -> session with documents_deleted
 *   GET    /upload-sessions/{id}                 -> session
 *   DELETE /upload-sessions/{id}                 -> the abandoned session (deletes nothing)
 * Session: {upload_id, datasource, state, started_at, updated_at, pages, documents_seen}.
 * Unknown ids 404, a page or finish on an ended session 409, a document of another datasource 422.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { requireServiceAccount } from '../auth/middleware.ts';
import { PushQuerySchema } from '../documents/schemas.ts';
import { RequestValidationError } from '../errors.ts';
import { jsonBody, readJsonWithBytes } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { validate } from '../validation/pydantic.ts';
import { Slug } from '../controlplane/schemas.ts';
import type { Services } from '../services.ts';
import type { UploadSessions } from '../uploads/sessions.ts';

const StartBody = v.strictObject({ datasource: Slug });

export function indexingUploadSessionRoutes(services: Services & { uploads: UploadSessions }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireServiceAccount(services);
  const uploads = services.uploads;

  app.post('/upload-sessions', auth, async (c) =>
    c.json(await uploads.start((await jsonBody(c, StartBody)).datasource)),
  );
  app.post('/upload-sessions/:id/documents', auth, async (c) => {
    const query = validate(PushQuerySchema, c.req.query(), 'query');
    const { value: body, bytes } = await readJsonWithBytes(c);
    if (body === undefined || body === null)
      throw new RequestValidationError([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    const wait = query.wait === 'true' || query.wait === '1';
    return c.json(await uploads.push(c.req.param('id'), body, { wait, waitTimeoutMs: query.wait_timeout_ms }, bytes));
  });
  app.post('/upload-sessions/:id/finish', auth, async (c) => c.json(await uploads.finish(c.req.param('id'))));
  app.get('/upload-sessions/:id', auth, async (c) => c.json(await uploads.get(c.req.param('id'))));
  app.delete('/upload-sessions/:id', auth, async (c) => c.json(await uploads.abandon(c.req.param('id'))));
  return app;
}
