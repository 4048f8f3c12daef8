/**
 * POST /api/beta/files/upload (spec: file upload path), personal account keys:
 * multipart form with the field `file`. The route reads the form (413 when the
 * declared length is over FILES_MAX_BYTES plus the multipart framing, 422 when
 * there is no readable form or no file) and hands the file to the files domain
 * (src/files/upload.ts), which extracts and stores it; the answer is the stored
 * file's metadata.
 */
import { Hono } from 'hono';
import { requirePersonal } from '../auth/middleware.ts';
import { RequestValidationError } from '../errors.ts';
import { FileStoreWriter, filesDir } from '../files/store.ts';
import { fileTooLarge, uploadFile, type UploadDeps } from '../files/upload.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';

/** Room for the multipart framing around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

const noFile = (msg: string) =>
  new RequestValidationError([{ type: 'missing', loc: ['body', 'file'], msg, input: null }]);

export function filesRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const deps: UploadDeps = {
    writer: new FileStoreWriter(filesDir(services.config.dataDir)),
    maxBytes: services.config.files.maxBytes,
    now: services.now,
  };

  app.post('/api/beta/files/upload', requirePersonal(services), async (c) => {
    const principal = c.get('principal');
    if (principal.kind !== 'account') throw new Error('requirePersonal lets only accounts through');
    const length = Number(c.req.header('content-length') ?? '0');
    if (length > deps.maxBytes + MULTIPART_OVERHEAD) throw fileTooLarge(deps.maxBytes);
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data'))
      throw noFile('Field required (send multipart/form-data with a field "file")');
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw new RequestValidationError([
        {
          type: 'value_error',
          loc: ['body'],
          msg: 'Value error, the multipart body cannot be parsed',
          input: null,
          ctx: { error: {} },
        },
      ]);
    }
    const file = form.file;
    if (!(file instanceof File)) throw noFile('Field required (a file in the form field "file")');
    if (file.size > deps.maxBytes) throw fileTooLarge(deps.maxBytes);
    const upload = { bytes: new Uint8Array(await file.arrayBuffer()), filename: file.name, mediaType: file.type };
    const stored = await uploadFile(deps, principal.accountId, upload, c.req.raw.signal);
    return c.json({ ...stored, purpose: 'chat', status: 'processed' });
  });

  return app;
}
