/**
 * POST /api/beta/files/upload (spec: file upload path), personal account keys:
 * multipart form with the field `file`. The upload is size-checked
 * (FILES_MAX_BYTES; 413), its text extracted with the extractors in the
 * worker pool (422 `{detail}` when the format cannot be read), stored
 * write-once under the uploading account (src/files/store.ts) and answered
 * with its metadata; `id` is what `metadata.files` of a completion takes.
 */
import { Hono } from 'hono';
import { extract, ExtractionError } from '../../extractors/index.ts';
import { requirePersonal } from '../auth/middleware.ts';
import { RequestValidationError, ServiceError } from '../errors.ts';
import { FileStoreWriter, filesDir, newFileId, type StoredFileWithText } from '../files/store.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';

/** Room for the multipart framing around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

export function filesRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const maxBytes = services.config.files.maxBytes;
  const writer = new FileStoreWriter(filesDir(services.config.dataDir));
  const tooLarge = () => new ServiceError('PAYLOAD_TOO_LARGE', `The file exceeds the limit of ${maxBytes} bytes`);

  app.post('/api/beta/files/upload', requirePersonal(services), async (c) => {
    const principal = c.get('principal');
    if (principal.kind !== 'account') throw new Error('requirePersonal lets only accounts through');
    const length = Number(c.req.header('content-length') ?? '0');
    if (length > maxBytes + MULTIPART_OVERHEAD) throw tooLarge();
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
      throw new RequestValidationError([
        {
          type: 'missing',
          loc: ['body', 'file'],
          msg: 'Field required (send multipart/form-data with a field "file")',
          input: null,
        },
      ]);
    }
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
    if (!(file instanceof File)) {
      throw new RequestValidationError([
        {
          type: 'missing',
          loc: ['body', 'file'],
          msg: 'Field required (a file in the form field "file")',
          input: null,
        },
      ]);
    }
    if (file.size > maxBytes) throw tooLarge();
    const bytes = new Uint8Array(await file.arrayBuffer());
    const filename = (file.name || 'upload').slice(0, 255);
    let extraction;
    try {
      extraction = await extract(bytes, {
        mediaType: file.type || '',
        fileName: filename,
        limits: { maxInputBytes: Math.max(maxBytes, 1) },
        signal: c.req.raw.signal,
        interactive: true,
      });
    } catch (err) {
      if (err instanceof ExtractionError)
        throw new ServiceError('UNPROCESSABLE', `The file cannot be read (${err.code}): ${err.message}`);
      throw err;
    }
    const stored: StoredFileWithText = {
      id: newFileId(),
      object: 'file',
      filename,
      bytes: bytes.byteLength,
      media_type: file.type || 'application/octet-stream',
      created_at: Math.floor(services.now() / 1000),
      chars: extraction.text.length,
      title: extraction.title ?? null,
      language: extraction.language ?? null,
      truncated: extraction.truncated ?? false,
      text: extraction.text,
    };
    await writer.write(principal.accountId, stored);
    const { text: _text, ...meta } = stored;
    return c.json({ ...meta, purpose: 'chat', status: 'processed' });
  });

  return app;
}
