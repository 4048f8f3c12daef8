/**
 * Document model of the engine (what callers add) and its validation.
 * Limits: key 1..1024 chars; field names 1..64 chars of [A-Za-z0-9_.-]; at most 64 fields per kind;
 * text at most 16 MiB (UTF-16 code units) per document; at most 4096 keyword values per field,
 * each 1..1024 chars; numbers finite; stored must be a JSON-serialisable object.
 */
import { EngineError } from './errors.ts';
import type { Language } from './analysis/types.ts';

export interface IndexDocument {
  /** Unique; adding an existing key replaces the doc (update = delete + add). */
  key: string;
  /** Analyzer choice; detected from the text when absent. */
  language?: Language;
  /** Analyzed full-text fields, e.g. {title, body}. */
  text: Record<string, string>;
  /** Exact-match columns (datasource, access tokens, ...). */
  keywords?: Record<string, string[]>;
  /** Numeric columns (e.g. last_modified epoch ms). */
  numbers?: Record<string, number>;
  /** JSON-serialisable payload returned with hits. */
  stored?: Record<string, unknown>;
}

export interface IndexSchema {
  textFields: Record<string, { boost?: number }>;
  keywordFields: string[];
  numericFields: string[];
  /**
   * Stored fields (top-level keys of `stored`) that segments written by merges also keep
   * uncompressed in a display store, so that Searcher.storedFields reads them without
   * decompressing the doc's stored block: a few short fields that lists of related docs show.
   * Values whose JSON exceeds 1,024 chars are read from the stored block. Default none.
   */
  displayFields?: string[];
}

export interface CommitInfo {
  generation: number;
  /** Epoch ms. */
  committedAt: number;
  /** Live docs in the commit. */
  docCount: number;
  /** Caller data set with IndexWriter.setCommitData before this commit ({} when none). */
  userData: Record<string, string | number>;
}

/** Events reported through openIndex's `log` option. */
export type EngineEvent =
  | { type: 'flush'; segment: string; docs: number; bytes: number; ms: number }
  | { type: 'commit'; generation: number; docCount: number; segments: number; ms: number }
  /** `thread`: the merge ran on the merge worker thread (false: on the writer's thread); `idle`: an idle-compaction merge. */
  | {
      type: 'merge';
      from: string[];
      to: string;
      docs: number;
      bytes: number;
      ms: number;
      thread: boolean;
      idle?: boolean;
    }
  /**
   * Once per quiet period: idle compaction has nothing (more) to merge, after `merges` merges
   * taking `ms` from the first (0 and 0 when the index was compact already); `segments` remain.
   */
  | { type: 'compacted'; segments: number; merges: number; ms: number }
  /** `staleAnalysisDocs`: live docs whose terms predate the current ANALYSIS_VERSION (re-index them). */
  | {
      type: 'open';
      generation: number;
      docCount: number;
      segments: number;
      ms: number;
      removedFiles: number;
      staleAnalysisDocs: number;
    }
  | { type: 'error'; where: string; message: string };

export const LIMITS = {
  keyLength: 1024,
  fieldNameLength: 64,
  fieldsPerKind: 64,
  textChars: 16 * 1024 * 1024,
  keywordValues: 4096,
  keywordLength: 1024,
} as const;

const FIELD = /^[A-Za-z0-9_.-]{1,64}$/;

function invalid(message: string): EngineError {
  return new EngineError('INVALID_DOCUMENT', message);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkFields(kind: string, obj: Record<string, unknown>): string[] {
  const names = Object.keys(obj);
  if (names.length > LIMITS.fieldsPerKind) throw invalid(`too many ${kind} fields (${names.length})`);
  for (const n of names) if (!FIELD.test(n)) throw invalid(`invalid ${kind} field name: ${JSON.stringify(n)}`);
  return names;
}

/** Checks `schema.displayFields`: absent, or distinct field names (at most 64). */
export function validateDisplayFields(fields: unknown): void {
  if (fields === undefined) return;
  if (!Array.isArray(fields) || fields.length > LIMITS.fieldsPerKind)
    throw invalid(`schema.displayFields must be an array of at most ${LIMITS.fieldsPerKind} field names`);
  for (const f of fields)
    if (typeof f !== 'string' || !FIELD.test(f)) throw invalid(`invalid display field name: ${JSON.stringify(f)}`);
  if (new Set(fields).size !== fields.length) throw invalid('schema.displayFields must not repeat a field');
}

/** Checks a document against the model; returns the stored payload serialised (JSON). */
export function validateDocument(doc: unknown): IndexDocument {
  if (!isPlainObject(doc)) throw invalid('document must be an object');
  const { key, language, text, keywords, numbers, stored } = doc as Record<string, unknown>;
  if (typeof key !== 'string' || key.length === 0 || key.length > LIMITS.keyLength) {
    throw invalid(`document key must be a string of 1..${LIMITS.keyLength} chars`);
  }
  if (language !== undefined && language !== 'de' && language !== 'en')
    throw invalid(`unsupported language: ${String(language)}`);
  if (!isPlainObject(text)) throw invalid(`document ${key}: text must be an object of strings`);
  let chars = 0;
  for (const f of checkFields('text', text)) {
    const v = text[f];
    if (typeof v !== 'string') throw invalid(`document ${key}: text.${f} must be a string`);
    chars += v.length;
  }
  if (chars > LIMITS.textChars) throw invalid(`document ${key}: text too large (${chars} chars)`);
  if (keywords !== undefined) {
    if (!isPlainObject(keywords)) throw invalid(`document ${key}: keywords must be an object of string arrays`);
    for (const f of checkFields('keyword', keywords)) {
      const vs = keywords[f];
      if (!Array.isArray(vs) || vs.length > LIMITS.keywordValues)
        throw invalid(`document ${key}: keywords.${f} must be an array of at most ${LIMITS.keywordValues} strings`);
      for (const v of vs) {
        if (typeof v !== 'string' || v.length === 0 || v.length > LIMITS.keywordLength) {
          throw invalid(`document ${key}: keywords.${f} values must be strings of 1..${LIMITS.keywordLength} chars`);
        }
      }
    }
  }
  if (numbers !== undefined) {
    if (!isPlainObject(numbers)) throw invalid(`document ${key}: numbers must be an object of numbers`);
    for (const f of checkFields('numeric', numbers)) {
      const v = numbers[f];
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw invalid(`document ${key}: numbers.${f} must be a finite number`);
    }
  }
  if (stored !== undefined && !isPlainObject(stored)) throw invalid(`document ${key}: stored must be an object`);
  return doc as unknown as IndexDocument;
}
