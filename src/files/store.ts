/**
 * Uploaded chat files on disk, per account, write-once:
 *   DATA_DIR/files/<account id>/<file id>.json   metadata and extracted text
 * A file is written to a temporary name, fsynced, renamed into place and the
 * directory fsynced before the upload is acknowledged, so an acknowledged file
 * survives kill -9; a file is never rewritten. Reads go through the account's
 * own directory, so another account's file id is simply not found.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFileDurably } from '../storage/record-log.ts';

export const FILE_ID = /^file-[0-9a-f]{24}$/;
const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,128}$/;

export interface StoredFile {
  id: string;
  object: 'file';
  filename: string;
  bytes: number;
  media_type: string;
  created_at: number;
  /** Characters of extracted text. */
  chars: number;
  title: string | null;
  language: 'de' | 'en' | null;
  truncated: boolean;
}

export interface StoredFileWithText extends StoredFile {
  text: string;
}

export class FileStoreWriter {
  constructor(private readonly dir: string) {}

  /** Store durably; resolves once the file is on disk. */
  async write(accountId: string, file: StoredFileWithText): Promise<void> {
    const dir = accountDir(this.dir, accountId);
    await mkdir(dir, { recursive: true });
    const target = join(dir, `${file.id}.json`);
    await replaceFileDurably(target, JSON.stringify(file), `${target}.tmp-${process.pid}`);
  }
}

export class FileStoreReader {
  constructor(private readonly dir: string) {}

  /** The account's file, or undefined when it does not exist for this account. */
  async read(accountId: string, fileId: string): Promise<StoredFileWithText | undefined> {
    if (!FILE_ID.test(fileId)) return undefined;
    try {
      return JSON.parse(
        await readFile(join(accountDir(this.dir, accountId), `${fileId}.json`), 'utf8'),
      ) as StoredFileWithText;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }
}

function accountDir(root: string, accountId: string): string {
  if (!ACCOUNT_ID.test(accountId)) throw new Error('invalid account id');
  return join(root, accountId);
}

export function newFileId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `file-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Directory of uploaded files inside the data directory. */
export const filesDir = (dataDir: string): string => join(dataDir, 'files');
