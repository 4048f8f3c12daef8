/**
 * Runs one part of a scenario in its own Node process (one engine per
 * process, so RSS and GC are not shared). The parent re-runs the scenario
 * file with `--child key=value ...`; the child prints one line
 * `RESULT <json>` on stdout, which the parent parses. Other child output is
 * passed through.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MARK = 'RESULT ';

/** The child's arguments as a map, or null in the parent process. */
export function childArgs(): Record<string, string> | null {
  const i = process.argv.indexOf('--child');
  if (i < 0) return null;
  const out: Record<string, string> = {};
  for (const a of process.argv.slice(i + 1)) {
    const eq = a.indexOf('=');
    if (eq > 0) out[a.slice(0, eq)] = a.slice(eq + 1);
  }
  return out;
}

export function sendResult(value: unknown): void {
  process.stdout.write(`${MARK}${JSON.stringify(value)}\n`);
}

/** Spawns `node <same flags> <script> --child k=v...` and resolves with its RESULT. */
export function runChild<T>(
  scriptUrl: string,
  args: Record<string, string>,
  extraNodeFlags: string[] = [],
): Promise<T> {
  const argv = [
    ...process.execArgv,
    ...extraNodeFlags,
    fileURLToPath(scriptUrl),
    '--child',
    ...Object.entries(args).map(([k, v]) => `${k}=${v}`),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    let result: T | undefined;
    let found = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith(MARK)) {
          result = JSON.parse(line.slice(MARK.length)) as T;
          found = true;
        } else console.log(`  [${args.engine ?? 'child'}] ${line}`);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (found && code === 0) resolve(result as T);
      else reject(new Error(`child ${JSON.stringify(args)} exited with code ${code}${found ? '' : ' and no result'}`));
    });
  });
}

/** Milliseconds since `t0` (performance.now based). */
export function since(t0: number): number {
  return performance.now() - t0;
}
