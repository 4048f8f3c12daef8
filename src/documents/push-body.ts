/**
 * Reads a push body (`{"documents": doc | [doc, ...]}`) from a byte stream
 * without holding its large binaries: every `documents[i].body.binary_base64`
 * string longer than `spoolAboveBytes` is validated and decoded while it
 * arrives, into a blob file (blobs.ts), and replaced in the JSON text by a
 * placeholder. The rest of the body is kept and parsed with JSON.parse; the
 * placeholders stand for their strings in validation (spooled.ts: same checks,
 * same error messages).
 *
 * A string that turns out not to be standard Base64, or whose decoded size
 * passes `maxBinaryBytes`, is not stored (its SpooledBinary says why). In the
 * single form the push fails with it, so a binary over the limit is refused
 * as soon as that is known (422, the rest of the body unread); in the bulk
 * form only that item fails and the rest of its string is read without being kept.
 * Only strings at that exact place are diverted (a key written with escapes is
 * left alone; JSON.parse reads it as usual), so the parsed value is the one
 * JSON.parse would give, with each long binary standing in its place.
 */
import { parseJsonBody } from '../validation/json-body.ts';
import type { BlobStore } from './blobs.ts';
import { Scanner } from './push-body-scanner.ts';
import type { SpooledBinary } from './spooled.ts';

export { SPOOL_ABOVE_BYTES } from './push-body-scanner.ts';

export interface PushBodyOptions {
  blobs: BlobStore;
  maxBinaryBytes: number;
  /** Binaries whose JSON string is longer than this many bytes are stored in blobs (default 1 MiB). */
  spoolAboveBytes?: number;
  /** Called with the bytes of the body that went to a blob instead of memory. */
  onSpooled?: (bytes: number) => void;
  /** The body's announced length, if any (the kept text never outgrows it). */
  sizeHint?: number;
}

export interface PushBody {
  value: unknown;
  /** The JSON text as kept (binaries replaced by placeholders), for the queue's raw items. */
  bytes: Uint8Array;
  /** Every binary that was diverted; the caller removes the blobs its documents do not keep. */
  spooled: SpooledBinary[];
}

/** Puts each binary's stand-in where its placeholder is in the parsed value (spooled.ts). */
function place(value: unknown, spooled: readonly SpooledBinary[]): void {
  const docs = (value as { documents?: unknown } | null)?.documents;
  for (const s of spooled) {
    const doc = s.item < 0 ? docs : Array.isArray(docs) ? docs[s.item] : undefined;
    const body = (doc as { body?: Record<string, unknown> } | null)?.body;
    if (body && typeof body === 'object' && body.binary_base64 === s.placeholder) body.binary_base64 = s.standIn;
  }
}

/**
 * Reads and parses a push body from `chunks` (see the module header). On any failure the blobs
 * written so far are removed; on success the caller owns them (`SpooledBinary.discard`).
 */
export async function readPushBody(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: PushBodyOptions,
): Promise<PushBody> {
  const scanner = new Scanner(options);
  try {
    for await (const chunk of chunks) await scanner.write(chunk);
    await scanner.end();
    if (scanner.spooled.some((s) => s.blob !== null)) await options.blobs.syncDir();
    const bytes = scanner.out.view();
    const value = parseJsonBody(new TextDecoder().decode(bytes), (pos) =>
      originalPosition(pos, bytes, scanner.spooled),
    );
    place(value, scanner.spooled);
    return { value, bytes, spooled: scanner.spooled };
  } catch (err) {
    await scanner.discard();
    throw err;
  }
}

/** Maps a character position in the kept text to the one in the body as sent (placeholders back to their strings). */
function originalPosition(pos: number, kept: Uint8Array, spooled: readonly SpooledBinary[]): number {
  if (spooled.length === 0) return pos;
  const text = new TextDecoder().decode(kept);
  let shift = 0;
  for (const s of spooled) {
    const at = text.indexOf(`"${s.placeholder}"`);
    if (at < 0 || at >= pos) continue;
    shift += s.chars - s.placeholder.length;
  }
  return pos + shift;
}
