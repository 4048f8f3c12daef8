/**
 * Directory: the storage abstraction under the index (a flat namespace of files).
 *
 * Append-only rules (every implementation and every caller keeps them):
 * - A data file is created once, completely, by `writeFile`, and never modified afterwards.
 *   Creating a name that already exists fails with EngineError('EXISTS').
 * - A log file only grows: `appendFile` adds bytes to its end. Nothing rewrites or truncates it;
 *   a reader treats a torn tail (a partially written last record) as absent.
 * - Durability: `writeFile` and `appendFile` return after the bytes are written AND synced
 *   (fsync of the file). A newly created name is durable only after `syncDirectory()`.
 *   The index commits in this order: data files, directory, commit record.
 * - Readers never see partial files referenced by a commit: a file is referenced by a commit
 *   record only after it was written, synced and the directory synced.
 * - `deleteFile` removes a file no commit record that is still in use references.
 */
export interface Directory {
  /** Names of all files (no sub-directories), in no particular order. */
  listAll(): Promise<string[]>;
  /** Whole content of a file; EngineError('NOT_FOUND') when absent. */
  readFile(name: string): Promise<Uint8Array>;
  /** Creates `name` with the concatenated `chunks`, syncs it. Fails with 'EXISTS' if present. */
  writeFile(name: string, chunks: readonly Uint8Array[]): Promise<void>;
  /** Appends to `name` (created when absent) and syncs it. Only for logs. */
  appendFile(name: string, data: Uint8Array): Promise<void>;
  /** Makes file creations and deletions durable (fsync of the directory). */
  syncDirectory(): Promise<void>;
  /** Removes a file; no error when it is already gone. */
  deleteFile(name: string): Promise<void>;
  /**
   * Takes the single-writer lock of the directory; fails with EngineError('LOCKED') while another
   * live holder has it. A lock left by a dead process (kill -9) is taken over.
   */
  lock(): Promise<DirectoryLock>;
  /** Releases resources; further calls fail with 'CLOSED'. */
  close(): Promise<void>;
}

export interface DirectoryLock {
  release(): Promise<void>;
}

/** File names are flat: letters, digits, '_', '-', '.', at most 128 chars. */
export const FILE_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
