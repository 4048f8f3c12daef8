/**
 * Reader for ZIP containers (OOXML, ODF, plain archives): parses the central directory,
 * inflates entries with node:zlib under limits. Guards: entry count, total decompressed
 * bytes, per-entry compression ratio (only checked once an entry exceeds 1 MiB, since
 * small XML parts legitimately compress very well), encrypted and ZIP64 entries rejected.
 */
import { inflateRawSync } from 'node:zlib';
import { ExtractionError } from './errors.ts';
import type { ExtractLimits } from './types.ts';

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** Running total of decompressed bytes for one top-level document. */
export interface InflateBudget {
  inflatedBytes: number;
}

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
/** Entries up to this size are exempt from the ratio check. */
const RATIO_FREE_BYTES = 1024 * 1024;

/** True when the bytes start like a ZIP file (local header or empty archive). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
}

/** CP437 characters of bytes 0x80-0xFF (the DOS code page of ZIP names without the UTF-8 flag). */
const CP437_HIGH = [
  '\u00c7\u00fc\u00e9\u00e2\u00e4\u00e0\u00e5\u00e7\u00ea\u00eb\u00e8\u00ef\u00ee\u00ec\u00c4\u00c5',
  '\u00c9\u00e6\u00c6\u00f4\u00f6\u00f2\u00fb\u00f9\u00ff\u00d6\u00dc\u00a2\u00a3\u00a5\u20a7\u0192',
  '\u00e1\u00ed\u00f3\u00fa\u00f1\u00d1\u00aa\u00ba\u00bf\u2310\u00ac\u00bd\u00bc\u00a1\u00ab\u00bb',
  '\u2591\u2592\u2593\u2502\u2524\u2561\u2562\u2556\u2555\u2563\u2551\u2557\u255d\u255c\u255b\u2510',
  '\u2514\u2534\u252c\u251c\u2500\u253c\u255e\u255f\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u2567',
  '\u2568\u2564\u2565\u2559\u2558\u2552\u2553\u256b\u256a\u2518\u250c\u2588\u2584\u258c\u2590\u2580',
  '\u03b1\u00df\u0393\u03c0\u03a3\u03c3\u00b5\u03c4\u03a6\u0398\u03a9\u03b4\u221e\u03c6\u03b5\u2229',
  '\u2261\u00b1\u2265\u2264\u2320\u2321\u00f7\u2248\u00b0\u2219\u00b7\u221a\u207f\u00b2\u25a0\u00a0',
].join('');
const utf8Name = new TextDecoder('utf-8');
const strictUtf8Name = new TextDecoder('utf-8', { fatal: true });

/**
 * An entry name: UTF-8 when flagged (bit 11) or valid UTF-8 (macOS writes it unflagged),
 * else CP437 as the ZIP specification says (Windows Explorer, older tools).
 */
function decodeEntryName(bytes: Uint8Array, flags: number): string {
  if (flags & 0x0800) return utf8Name.decode(bytes);
  try {
    return strictUtf8Name.decode(bytes);
  } catch {
    let s = '';
    for (const c of bytes) s += c < 0x80 ? String.fromCharCode(c) : CP437_HIGH[c - 0x80];
    return s;
  }
}

export class ZipReader {
  readonly entries: ZipEntry[];
  private readonly byName = new Map<string, ZipEntry>();
  private readonly view: DataView;
  private readonly budget: InflateBudget;

  /** `budget` is shared by nested containers of one document so their total stays under the limit. */
  constructor(
    private readonly bytes: Uint8Array,
    private readonly limits: ExtractLimits,
    budget?: InflateBudget,
  ) {
    this.budget = budget ?? { inflatedBytes: 0 };
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.entries = this.readCentralDirectory();
    for (const e of this.entries) if (!this.byName.has(e.name)) this.byName.set(e.name, e);
  }

  private readCentralDirectory(): ZipEntry[] {
    const b = this.bytes;
    const v = this.view;
    if (b.length < 22) throw new ExtractionError('CORRUPT', 'zip: file too short for a ZIP container');
    let eocd = -1;
    const stop = Math.max(0, b.length - 22 - 0xffff);
    for (let i = b.length - 22; i >= stop; i--) {
      if (v.getUint32(i, true) === EOCD_SIG) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0)
      throw new ExtractionError('CORRUPT', 'zip: end of central directory not found (truncated or not a ZIP)');
    const count = v.getUint16(eocd + 10, true);
    const cdSize = v.getUint32(eocd + 12, true);
    const cdOffset = v.getUint32(eocd + 16, true);
    if (count === 0xffff || cdOffset === 0xffffffff)
      throw new ExtractionError('UNSUPPORTED', 'zip: ZIP64 archives are not supported');
    if (count > this.limits.maxEntries) {
      throw new ExtractionError('ZIP_BOMB', `zip: ${count} entries exceed the limit of ${this.limits.maxEntries}`);
    }
    if (cdOffset + cdSize > b.length)
      throw new ExtractionError('CORRUPT', 'zip: central directory lies outside the file');
    const out: ZipEntry[] = [];
    let p = cdOffset;
    for (let i = 0; i < count; i++) {
      if (p + 46 > b.length || v.getUint32(p, true) !== CEN_SIG)
        throw new ExtractionError('CORRUPT', `zip: bad central directory record ${i}`);
      const nameLen = v.getUint16(p + 28, true);
      const extraLen = v.getUint16(p + 30, true);
      const commentLen = v.getUint16(p + 32, true);
      if (p + 46 + nameLen > b.length) throw new ExtractionError('CORRUPT', 'zip: truncated central directory');
      const entry: ZipEntry = {
        flags: v.getUint16(p + 8, true),
        method: v.getUint16(p + 10, true),
        compressedSize: v.getUint32(p + 20, true),
        uncompressedSize: v.getUint32(p + 24, true),
        localHeaderOffset: v.getUint32(p + 42, true),
        name: decodeEntryName(b.subarray(p + 46, p + 46 + nameLen), v.getUint16(p + 8, true)),
      };
      if (
        entry.compressedSize === 0xffffffff ||
        entry.uncompressedSize === 0xffffffff ||
        entry.localHeaderOffset === 0xffffffff
      ) {
        throw new ExtractionError('UNSUPPORTED', 'zip: ZIP64 entries are not supported');
      }
      out.push(entry);
      p += 46 + nameLen + extraLen + commentLen;
    }
    return out;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Entry names matching a pattern, in archive order. */
  names(pattern?: RegExp): string[] {
    return this.entries.map((e) => e.name).filter((n) => !pattern || pattern.test(n));
  }

  /** Inflated bytes of an entry, or null when the archive has no such entry. */
  read(name: string): Uint8Array | null {
    const e = this.byName.get(name);
    return e ? this.readEntry(e) : null;
  }

  /** Entry decoded as UTF-8 text, or null when missing. */
  readText(name: string): string | null {
    const data = this.read(name);
    return data ? new TextDecoder('utf-8').decode(data) : null;
  }

  readEntry(e: ZipEntry): Uint8Array {
    const { limits } = this;
    if (e.flags & 1) throw new ExtractionError('UNSUPPORTED', `zip: entry ${e.name} is encrypted`);
    const remaining = limits.maxDecompressedBytes - this.budget.inflatedBytes;
    if (e.uncompressedSize > remaining) {
      throw new ExtractionError(
        'ZIP_BOMB',
        `zip: decompressed size would exceed ${limits.maxDecompressedBytes} bytes (entry ${e.name})`,
      );
    }
    const ratioCap = Math.max(RATIO_FREE_BYTES, e.compressedSize * limits.maxCompressionRatio);
    if (e.uncompressedSize > ratioCap) {
      throw new ExtractionError(
        'ZIP_BOMB',
        `zip: entry ${e.name} compression ratio exceeds ${limits.maxCompressionRatio}`,
      );
    }
    const v = this.view;
    const p = e.localHeaderOffset;
    if (p + 30 > this.bytes.length || v.getUint32(p, true) !== LOC_SIG)
      throw new ExtractionError('CORRUPT', `zip: bad local header for ${e.name}`);
    const start = p + 30 + v.getUint16(p + 26, true) + v.getUint16(p + 28, true);
    const end = start + e.compressedSize;
    if (end > this.bytes.length) throw new ExtractionError('CORRUPT', `zip: entry ${e.name} is truncated`);
    const raw = this.bytes.subarray(start, end);
    let data: Uint8Array;
    if (e.method === 0) data = raw;
    else if (e.method === 8) {
      // The real output is bounded independently of the (untrusted) declared size.
      const cap = Math.min(remaining, ratioCap);
      try {
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, cap) });
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'ERR_BUFFER_TOO_LARGE') {
          throw new ExtractionError('ZIP_BOMB', `zip: entry ${e.name} inflates beyond its limit (${cap} bytes)`);
        }
        throw new ExtractionError('CORRUPT', `zip: entry ${e.name} cannot be inflated (${(err as Error).message})`);
      }
    } else
      throw new ExtractionError(
        'UNSUPPORTED',
        `zip: compression method ${e.method} of entry ${e.name} is not supported`,
      );
    this.budget.inflatedBytes += data.length;
    return data;
  }

  /** Inflates every entry once, enforcing the limits; used before handing the file to a third-party parser. */
  validateAll(): void {
    for (const e of this.entries) if (!e.name.endsWith('/')) this.readEntry(e);
  }
}
