/**
 * Display store: a few short stored fields per document (the schema's `displayFields`, e.g.
 * title and link of a result list entry), kept uncompressed beside the compressed stored-field
 * blocks, so that reading them costs a slice and no block inflate. A segment holds one when
 * it was written with display fields; readers of segments without one read the full stored
 * payload instead (the values are the same).
 *
 * Record of a doc: one part per display field, in the segment's field order, joined by U+0001:
 *   ''          the field is absent from the stored object (or its value is not JSON-serialisable)
 *   U+0002      the value's JSON exceeds MAX_DISPLAY_VALUE_CHARS: read the full payload
 *   JSON text   the value, as the stored payload round-trips it (JSON.parse(JSON.stringify(v)))
 * JSON text never holds a raw control character, so the separators are unambiguous.
 * Sections: data (the records' UTF-8 back to back) and offsets (Float64, maxDoc + 1 byte offsets).
 */
import { ByteWriter, decodeUtf8 } from '../util/bytes.ts';
import { EngineError } from '../errors.ts';

/** Longest value (its JSON, UTF-16 units) kept in the display store; longer ones stay in the full payload only. */
export const MAX_DISPLAY_VALUE_CHARS = 1024;

const SEP = '\u0001';
const TOO_LONG = '\u0002';

export interface DisplaySections {
  /** The field names, in record order. */
  fields: string[];
  data: Uint8Array;
  offsets: Float64Array;
}

/** The display record of a stored object (see the module comment). */
export function displayRecord(fields: readonly string[], stored: Record<string, unknown>): string {
  let out = '';
  for (let i = 0; i < fields.length; i++) {
    if (i > 0) out += SEP;
    if (!Object.prototype.hasOwnProperty.call(stored, fields[i])) continue;
    const v = stored[fields[i]];
    if (v === undefined) continue;
    const json = JSON.stringify(v) as string | undefined;
    if (json === undefined) continue;
    out += json.length > MAX_DISPLAY_VALUE_CHARS ? TOO_LONG : json;
  }
  return out;
}

export class DisplayWriter {
  private readonly data = new ByteWriter(64 * 1024);
  private readonly offsets: number[] = [0];

  constructor(readonly fields: readonly string[]) {}

  /** Appends the next doc's record from its stored object. */
  add(stored: Record<string, unknown>): void {
    this.addRecord(displayRecord(this.fields, stored));
  }

  /** Appends the next doc's record as made by displayRecord(this.fields, ...) (copied from another segment). */
  addRecord(record: string): void {
    this.data.utf8(record);
    this.offsets.push(this.data.length);
  }

  get docCount(): number {
    return this.offsets.length - 1;
  }

  finish(): DisplaySections {
    return { fields: [...this.fields], data: this.data.view(), offsets: Float64Array.from(this.offsets) };
  }
}

export class DisplayReader {
  private readonly index = new Map<string, number>();

  constructor(
    readonly fields: readonly string[],
    private readonly data: Uint8Array,
    private readonly offsets: Float64Array,
  ) {
    fields.forEach((f, i) => this.index.set(f, i));
  }

  get maxDoc(): number {
    return this.offsets.length - 1;
  }

  /** Whether every one of `names` is a display field of this store. */
  covers(names: readonly string[]): boolean {
    for (const n of names) if (!this.index.has(n)) return false;
    return true;
  }

  /** The raw record of `doc` (for copying into a merged segment with the same fields). */
  record(doc: number): string {
    if (!(doc >= 0 && doc < this.maxDoc)) throw new EngineError('INVALID_DOCUMENT', `doc id out of range: ${doc}`);
    return decodeUtf8(this.data, this.offsets[doc], this.offsets[doc + 1]);
  }

  /**
   * The values of `names` (display fields, see covers()) of `doc`; absent fields are left out.
   * Null when one of them is too long for the store (read the full payload instead).
   */
  values(doc: number, names: readonly string[]): Record<string, unknown> | null {
    const parts = this.record(doc).split(SEP);
    if (parts.length !== this.fields.length)
      throw new EngineError('CORRUPT_INDEX', `display record of doc ${doc} unreadable`);
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const part = parts[this.index.get(name)!];
      if (part === undefined || part === '') continue;
      if (part === TOO_LONG) return null;
      if (name === '__proto__')
        Object.defineProperty(out, name, {
          value: decodeValue(part),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else out[name] = decodeValue(part);
    }
    return out;
  }
}

function decodeValue(json: string): unknown {
  if (json.charCodeAt(0) === 0x22 && json.indexOf('\\') < 0) return json.slice(1, -1);
  try {
    return JSON.parse(json);
  } catch (err) {
    throw new EngineError('CORRUPT_INDEX', 'display record unreadable', { cause: err });
  }
}
