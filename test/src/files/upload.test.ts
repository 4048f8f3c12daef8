/**
 * The files domain's upload without HTTP: extracted text stored for the account
 * only, metadata answered without the text, the size limit, and an unreadable
 * file refused without anything stored.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { closeSharedPool } from '../../../extractors/index.ts';
import { ServiceError } from '../../../src/errors.ts';
import { FileStoreReader, FileStoreWriter } from '../../../src/files/store.ts';
import { uploadFile, type UploadDeps } from '../../../src/files/upload.ts';

let dir: string;
let deps: UploadDeps;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'files-upload-'));
  deps = { writer: new FileStoreWriter(dir), maxBytes: 1000, now: () => Date.UTC(2026, 0, 1) };
});
after(async () => {
  await closeSharedPool();
  await rm(dir, { recursive: true, force: true });
});

const text = (s: string) => new TextEncoder().encode(s);

describe('uploadFile', () => {
  it('stores the extracted text for the account and answers the metadata without it', async () => {
    const meta = await uploadFile(deps, 'acc1', { bytes: text('Gate closes at ten.'), filename: '', mediaType: '' });
    assert.equal(meta.filename, 'upload');
    assert.equal(meta.media_type, 'application/octet-stream');
    assert.equal(meta.created_at, Date.UTC(2026, 0, 1) / 1000);
    assert.equal('text' in meta, false);
    const reader = new FileStoreReader(dir);
    assert.equal((await reader.read('acc1', meta.id))?.text.trim(), 'Gate closes at ten.');
    assert.equal(await reader.read('acc2', meta.id), undefined);
  });

  it('refuses a file over the limit with 413 and stores nothing', async () => {
    const before = await readdir(join(dir, 'acc1')).catch(() => []);
    await assert.rejects(
      uploadFile(deps, 'acc1', { bytes: new Uint8Array(1001), filename: 'big.bin', mediaType: '' }),
      (err: unknown) => err instanceof ServiceError && err.kind === 'PAYLOAD_TOO_LARGE',
    );
    assert.deepEqual(await readdir(join(dir, 'acc1')).catch(() => []), before);
  });

  it('refuses a file the extractors cannot read with 422', async () => {
    await assert.rejects(
      uploadFile(deps, 'acc1', { bytes: text('%PDF-1.7 not really'), filename: 'x.pdf', mediaType: 'application/pdf' }),
      (err: unknown) => err instanceof ServiceError && err.kind === 'UNPROCESSABLE',
    );
  });
});
