/**
 * The streaming push-body reader (src/documents/push-body.ts) on bodies cut into
 * chunks at every kind of boundary: the parsed value is what JSON.parse gives, with
 * each long binary_base64 replaced by a registered placeholder whose blob file holds
 * the decoded bytes; strings elsewhere (escaped keys, other fields) are left alone;
 * a string that is not Base64 stands as its echo text and keeps no file; a binary over
 * the limit in the single form is refused before the rest of the body is read, and
 * in the bulk form only its item fails; JSON errors point into the body as sent.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlobStore } from '../../../src/documents/blobs.ts';
import { readPushBody, type PushBody } from '../../../src/documents/push-body.ts';
import { spooledFor, standsForTooLarge } from '../../../src/documents/spooled.ts';
import { RequestValidationError } from '../../../src/errors.ts';
import { silentLogger } from '../../../src/log.ts';

let dir: string;
let blobs: BlobStore;
const SPOOL = 64;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'push-body-'));
  blobs = await BlobStore.open(dir, silentLogger);
});
after(() => rm(dir, { recursive: true, force: true }));

/** `text` as UTF-8 chunks of `size` bytes (a size of 1 puts a boundary everywhere). */
function chunked(text: string, size: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

const read = (text: string, size: number, maxBinaryBytes = 1_000_000) =>
  readPushBody(chunked(text, size), { blobs, maxBinaryBytes, spoolAboveBytes: SPOOL });

async function done(body: PushBody): Promise<void> {
  await Promise.all(body.spooled.map((s) => s.discard()));
}

const binary = (bytes: Buffer) => bytes.toString('base64');
const payload = Buffer.from(Array.from({ length: 700 }, (_, i) => (i * 37) % 256));

describe('readPushBody', () => {
  for (const size of [1, 7, 64, 100_000]) {
    test(`chunks of ${size} bytes: the value JSON.parse gives, long binaries in blob files`, async () => {
      const original = {
        documents: [
          { id: 'a', title: 'quote " and \\ slash', body: { mime_type: 'x/y', binary_base64: binary(payload) } },
          { id: 'b', body: { mime_type: 'text/plain', text_content: 'x'.repeat(200) } },
          { id: 'c', body: { mime_type: 'x/y', binary_base64: 'SGVsbG8=' } },
          { id: 'd', meta: { binary_base64: binary(payload) } },
        ],
      };
      const body = await read(JSON.stringify(original), size);
      const docs = (body.value as { documents: { title?: string; body: { binary_base64: string } }[] }).documents;
      const stored = spooledFor(docs[0].body.binary_base64);
      assert.ok(stored?.blob, 'the long binary is stored');
      assert.deepEqual(await readFile(blobs.path(stored!.blob!.name)), payload);
      assert.deepEqual(
        { ...(body.value as object), documents: docs.slice(1) },
        { documents: original.documents.slice(1) },
      );
      assert.equal(docs[0].title, original.documents[0].title);
      assert.deepEqual(JSON.parse(new TextDecoder().decode(body.bytes)), body.value);
      assert.equal(body.spooled.length, 1, 'only documents[i].body.binary_base64 is diverted');
      await done(body);
      assert.deepEqual(await readdir(dir), [], 'discard removes the blob');
      assert.equal(spooledFor(docs[0].body.binary_base64), undefined, 'and ends the registration');
    });
  }

  test('the single form, escapes inside the Base64 (\\/ and \\u0041) and a key written with escapes', async () => {
    const b64 = binary(payload);
    const escaped = b64.replaceAll('/', '\\/').replace('A', '\\u0041');
    const text = `{"documents": {"id": "s", "body": {"mime_type": "x/y", "binary_base64": "${escaped}"}}}`;
    const body = await read(text, 5);
    const doc = (body.value as { documents: { body: { binary_base64: string } } }).documents;
    const stored = spooledFor(doc.body.binary_base64)!;
    assert.deepEqual(await readFile(blobs.path(stored.blob!.name)), payload);
    await done(body);
    const plainKey = `{"documents": [{"body": {"binary\\u005fbase64": "${b64}"}}]}`;
    const kept = await read(plainKey, 3);
    assert.equal(kept.spooled.length, 0);
    assert.deepEqual(kept.value, JSON.parse(plainKey));
  });

  test('a long string that is not Base64 stands as its echo text and keeps no file', async () => {
    const bad = `${binary(payload).slice(0, 500)}!!${binary(payload).slice(502)}`;
    const body = await read(JSON.stringify({ documents: [{ body: { binary_base64: bad } }] }), 13);
    const value = (body.value as { documents: { body: { binary_base64: string } }[] }).documents[0].body;
    assert.equal(value.binary_base64, `<string of ${bad.length} characters, not echoed>`);
    assert.equal(body.spooled[0].blob, null);
    assert.deepEqual(await readdir(dir), []);
    await done(body);
  });

  test('padding: a valid padded binary is stored whole; a misplaced = is not Base64', async () => {
    const odd = payload.subarray(0, 301); // 301 bytes: "=" padding
    const body = await read(JSON.stringify({ documents: [{ body: { binary_base64: binary(odd) } }] }), 9);
    const b64 = (body.value as { documents: { body: { binary_base64: string } }[] }).documents[0].body.binary_base64;
    assert.deepEqual(await readFile(blobs.path(spooledFor(b64)!.blob!.name)), odd);
    await done(body);
    const misplaced = `${binary(odd).slice(0, 100)}=${binary(odd).slice(101)}`;
    const bad = await read(JSON.stringify({ documents: [{ body: { binary_base64: misplaced } }] }), 9);
    assert.equal(bad.spooled[0].valid, false);
    await done(bad);
  });

  test('single form: a binary over the limit is refused before the rest of the body is read', async () => {
    const head = new TextEncoder().encode(
      '{"documents": {"id": "big", "body": {"mime_type": "x/y", "binary_base64": "',
    );
    const piece = new TextEncoder().encode('QUFB'.repeat(256));
    let sent = 0;
    const pieces = 10_000; // 10 MB of Base64 offered; the limit is 1,000 bytes
    function* stream() {
      yield head;
      for (let i = 0; i < pieces; i++) {
        sent++;
        yield piece;
      }
    }
    await assert.rejects(readPushBody(stream(), { blobs, maxBinaryBytes: 1000, spoolAboveBytes: SPOOL }), (err) => {
      assert.ok(err instanceof RequestValidationError);
      assert.deepEqual(err.items[0].loc, ['body', 'documents', 'body', 'binary_base64']);
      assert.equal(err.items[0].msg, 'Value error, decoded binary_base64 exceeds the limit of 1000 bytes');
      return true;
    });
    assert.ok(sent <= 3, `read ${sent} of ${pieces} pieces`);
    assert.deepEqual(await readdir(dir), [], 'the partial blob is removed');
  });

  test('bulk form: a binary over the limit fails its item only; its bytes are not stored', async () => {
    const big = binary(Buffer.alloc(3000, 7));
    const small = binary(Buffer.alloc(600, 9));
    const body = await read(
      JSON.stringify({ documents: [{ body: { binary_base64: big } }, { body: { binary_base64: small } }] }),
      50,
      1000,
    );
    const docs = (body.value as { documents: { body: { binary_base64: string } }[] }).documents;
    assert.equal(standsForTooLarge(docs[0].body.binary_base64), true);
    assert.equal(spooledFor(docs[0].body.binary_base64)!.blob, null);
    assert.equal(standsForTooLarge(docs[1].body.binary_base64), false);
    assert.equal(spooledFor(docs[1].body.binary_base64)!.blob!.size, 600);
    await done(body);
  });

  test('invalid JSON after a diverted binary: the error position is that of the body as sent', async () => {
    const text = `{"documents": [{"body": {"binary_base64": "${binary(payload)}"}}]} trailing`;
    const expected = /position (\d+)/.exec(
      (() => {
        try {
          JSON.parse(text);
          return '';
        } catch (err) {
          return String((err as Error).message);
        }
      })(),
    )![1];
    await assert.rejects(read(text, 11), (err) => {
      assert.ok(err instanceof RequestValidationError);
      assert.deepEqual(err.items[0].loc, ['body', Number(expected)]);
      return true;
    });
    assert.deepEqual(await readdir(dir), []);
  });
});
