/**
 * Segment file container: named sections, each 8-byte aligned, followed by a footer.
 *
 *   "ESG1" + 4 zero bytes
 *   sections...
 *   TOC: UTF-8 JSON { sections: { name: [offset, length] }, meta: SegmentMeta }
 *   footer (20 bytes): u32 tocLength, u32 FORMAT_VERSION, u64 xxh64(all bytes before the footer's checksum) , "ESG1"
 *
 * A reader verifies size, magic and checksum before using any section (EngineError CORRUPT_INDEX otherwise).
 */
import { Xxh64, xxh64 } from '@node-rs/xxhash';
import { EngineError } from '../errors.ts';
import { encodeUtf8 } from '../util/bytes.ts';

const MAGIC = [0x45, 0x53, 0x47, 0x31];
export const FORMAT_VERSION = 1;

export interface SectionTable {
  [name: string]: [number, number];
}

type Typed = Uint8Array | Int32Array | Uint32Array | Float64Array | BigUint64Array;

export class SegmentFileWriter {
  private readonly chunks: Uint8Array[] = [];
  private offset = 0;
  private readonly toc: SectionTable = {};

  constructor() {
    this.push(new Uint8Array([...MAGIC, 0, 0, 0, 0]));
  }

  add(name: string, data: Typed | Uint8Array[]): void {
    if (this.toc[name]) throw new Error(`duplicate section ${name}`);
    const start = this.offset;
    if (Array.isArray(data)) for (const c of data) this.push(c);
    else this.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    this.toc[name] = [start, this.offset - start];
    const pad = (8 - (this.offset % 8)) % 8;
    if (pad) this.push(new Uint8Array(pad));
  }

  /** Returns the file as chunks (to write) and its total size. */
  finish(meta: unknown): { chunks: Uint8Array[]; size: number } {
    const toc = encodeUtf8(JSON.stringify({ sections: this.toc, meta }));
    this.push(toc);
    const head = new Uint8Array(8);
    const dv = new DataView(head.buffer);
    dv.setUint32(0, toc.length, true);
    dv.setUint32(4, FORMAT_VERSION, true);
    this.push(head);
    const h = new Xxh64();
    for (const c of this.chunks) h.update(c);
    const tail = new Uint8Array(12);
    new DataView(tail.buffer).setBigUint64(0, h.digest(), true);
    tail.set(MAGIC, 8);
    this.push(tail);
    return { chunks: this.chunks, size: this.offset };
  }

  private push(c: Uint8Array): void {
    this.chunks.push(c);
    this.offset += c.length;
  }
}

export class SegmentFileReader {
  readonly meta: unknown;
  private readonly toc: SectionTable;

  constructor(
    readonly bytes: Uint8Array,
    name: string,
  ) {
    const n = bytes.length;
    const bad = (why: string) => new EngineError('CORRUPT_INDEX', `segment file ${name}: ${why}`);
    if (n < 28) throw bad('too short');
    for (let i = 0; i < 4; i++) if (bytes[i] !== MAGIC[i] || bytes[n - 4 + i] !== MAGIC[i]) throw bad('bad magic');
    if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
    this.bytes = bytes;
    const dv = new DataView(bytes.buffer, bytes.byteOffset, n);
    const tocLen = dv.getUint32(n - 20, true);
    const version = dv.getUint32(n - 16, true);
    if (version !== FORMAT_VERSION) throw bad(`unsupported format version ${version}`);
    const sum = dv.getBigUint64(n - 12, true);
    if (xxh64(bytes.subarray(0, n - 12)) !== sum) throw bad('checksum mismatch');
    const tocStart = n - 20 - tocLen;
    if (tocStart < 8) throw bad('bad table of contents');
    try {
      const parsed = JSON.parse(new TextDecoder().decode(bytes.subarray(tocStart, n - 20)));
      this.toc = parsed.sections;
      this.meta = parsed.meta;
    } catch {
      throw bad('unreadable table of contents');
    }
  }

  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.toc, name);
  }

  u8(name: string): Uint8Array {
    const [off, len] = this.entry(name);
    return this.bytes.subarray(off, off + len);
  }

  i32(name: string): Int32Array {
    const [off, len] = this.entry(name);
    return new Int32Array(this.bytes.buffer, this.bytes.byteOffset + off, len >>> 2);
  }

  u32(name: string): Uint32Array {
    const [off, len] = this.entry(name);
    return new Uint32Array(this.bytes.buffer, this.bytes.byteOffset + off, len >>> 2);
  }

  f64(name: string): Float64Array {
    const [off, len] = this.entry(name);
    return new Float64Array(this.bytes.buffer, this.bytes.byteOffset + off, len >>> 3);
  }

  u64(name: string): BigUint64Array {
    const [off, len] = this.entry(name);
    return new BigUint64Array(this.bytes.buffer, this.bytes.byteOffset + off, len >>> 3);
  }

  private entry(name: string): [number, number] {
    const e = this.toc[name];
    if (!e || e[0] + e[1] > this.bytes.length)
      throw new EngineError('CORRUPT_INDEX', `segment section missing: ${name}`);
    return e;
  }
}
