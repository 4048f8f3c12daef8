/**
 * Shared types of the extractors layer: one signature for every format.
 * An extractor turns the raw bytes of one document into searchable text plus what
 * the format knows (title, author, page count, language hint, structure boundaries).
 */

/** Resource limits every extractor honours; see limits.ts for the documented defaults. */
export interface ExtractLimits {
  /** Maximum input size in bytes (INDEXING_API_MAX_BINARY_BYTES). */
  maxInputBytes: number;
  /** Maximum total bytes decompressed from containers (ZIP entries, PDF streams are bounded by pdf.js). */
  maxDecompressedBytes: number;
  /** Maximum ratio uncompressed/compressed for a single ZIP entry. */
  maxCompressionRatio: number;
  /** Maximum number of entries in one ZIP container or parts in one message. */
  maxEntries: number;
  /** Maximum nesting depth (attachments inside messages, archives inside archives). */
  maxDepth: number;
  /** Maximum length of the output text in UTF-16 code units; longer text is truncated. */
  maxOutputChars: number;
  /** Wall-time limit in milliseconds for one extraction (enforced by the worker pool). */
  timeoutMs: number;
}

/** Kind of a structural part of the text, so highlights can point into the right part. */
export type SectionKind = 'page' | 'slide' | 'sheet' | 'part';

/** A structural part of the output text: `text.slice(start, end)`. */
export interface Section {
  kind: SectionKind;
  label?: string;
  start: number;
  end: number;
}

/** Result of one extraction. */
export interface Extraction {
  text: string;
  title?: string;
  author?: string;
  /** Pages (PDF), slides (PPTX/ODP) or sheets (XLSX/ODS) when the format knows them. */
  pageCount?: number;
  /** Language hint derived from the text (German or English), absent when unclear. */
  language?: 'de' | 'en';
  sections: Section[];
  /** True when the format cannot be parsed and only metadata is indexed (empty body). */
  metadataOnly?: boolean;
  /** True when the text was cut at limits.maxOutputChars. */
  truncated?: boolean;
}

/** Context handed to every extractor. */
export interface ExtractContext {
  /** Media type without parameters, lower-case (e.g. `text/html`). */
  mediaType: string;
  /** Media type parameters, keys lower-case (e.g. `{ charset: 'iso-8859-1' }`). */
  params: Record<string, string>;
  fileName?: string;
  limits: ExtractLimits;
  /** Current nesting depth, 0 for the top-level document. */
  depth: number;
  signal?: AbortSignal;
  /** Decompressed bytes so far, shared by all nested containers of one top-level document. */
  budget?: { inflatedBytes: number };
}

/** The one extractor signature. */
export type Extractor = (input: Uint8Array, ctx: ExtractContext) => Promise<Extraction>;
