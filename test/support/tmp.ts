/** Temporary directories removed after the test file, and a log sink that records lines. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { createLogger, type Logger } from '../../src/log.ts';

/** A fresh directory, removed when the test file finishes. */
export async function tempDir(prefix = 'state-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A logger at `info` that keeps its records for assertions. */
export function recordingLogger(): { log: Logger; records: Record<string, any>[] } {
  const records: Record<string, any>[] = [];
  return { log: createLogger('info', (line) => records.push(JSON.parse(line))), records };
}
