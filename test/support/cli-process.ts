/**
 * The CLI as a child process (src/main.ts through tsx, as `npm run cli --` runs it): runs one
 * command with the given environment and optional stdin, and answers its exit code and output.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { REPO } from './server-process.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'main.ts'), ...args], {
    cwd: REPO,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.end(input ?? '');
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}
