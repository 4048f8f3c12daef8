/**
 * Start-up failures an operator can fix, reported as one readable line
 * without a stack trace (src/main.ts prints it and exits non-zero): a data
 * directory that cannot be created or written, an address that cannot be
 * listened on, and any other system error (a file the process may not open)
 * on the way up. Programming errors are not covered: they keep their stack.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class StartupError extends Error {}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'it exists and is not a directory',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space is left on the device',
  EDQUOT: 'the disk quota is exhausted',
  ELOOP: 'too many symbolic links in the path',
  ENAMETOOLONG: 'the path is too long',
};

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Creates the data directory if needed and proves it writable (a probe file written, synced, removed). */
export function checkDataDir(dir: string): void {
  const probe = join(dir, `.write-probe-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(probe, 'w');
    try {
      writeSync(fd, 'probe');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    unlinkSync(probe);
  } catch (err) {
    const code = codeOf(err);
    const reason = (code && REASONS[code]) ?? (err instanceof Error ? err.message : String(err));
    throw new StartupError(`DATA_DIR ${dir} is not usable: ${reason}${code ? ` (${code})` : ''}`);
  }
}

/** The StartupError for a failed listen on `host:port`. */
export function listenFailure(err: unknown, host: string, port: number): Error {
  const code = codeOf(err);
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE')
    return new StartupError(`cannot listen on ${where}: the address is already in use (set PORT or HOST)`);
  if (code === 'EACCES')
    return new StartupError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges)`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new StartupError(`cannot listen on ${where}: the address is not one of this machine's (HOST)`);
  return err instanceof Error ? err : new Error(String(err));
}

/** The one line for a start-up failure an operator can fix, or undefined for a programming error. */
export function startupFailureLine(err: unknown): string | undefined {
  if (err instanceof StartupError) return err.message;
  const syscall = (err as { syscall?: unknown } | null)?.syscall;
  if (err instanceof Error && codeOf(err) && typeof syscall === 'string')
    return `cannot start: ${err.message.split('\n')[0]}`;
  return undefined;
}
