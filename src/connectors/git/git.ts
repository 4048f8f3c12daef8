/**
 * Running the git binary for the git connector, safely: always a fixed argument list (no shell),
 * user input only after `--` or as values checked by settings.ts, a minimal environment (no
 * terminal prompts, no askpass, no system or global configuration, no credential helpers, only
 * the file, git, http, https and ssh transports: `ext::` and the like are refused), a timeout and
 * the run's signal on every process, and output bounded. HTTP credentials travel as an
 * `Authorization` header in the environment (GIT_CONFIG_*), never on the command line where other
 * users could read them, and redirects are then not followed. `BlobReader` keeps one
 * `git cat-file --batch` process per run and reads blobs through it one at a time.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface GitEnv {
  /** HOME of the git processes (the connector's work folder). */
  home: string;
  /** `Authorization` header value for http(s) remotes. */
  authorization?: string;
  signal: AbortSignal;
}

/** Largest output kept of a command whose output is collected (stderr, rev-parse). */
const MAX_COLLECTED = 1024 * 1024;

export function gitEnvironment(e: GitEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: e.home,
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ALLOW_PROTOCOL: 'file:git:http:https:ssh',
    GIT_PROTOCOL_FROM_USER: '0',
  };
  if (e.authorization) {
    env.GIT_CONFIG_COUNT = '2';
    env.GIT_CONFIG_KEY_0 = 'http.extraHeader';
    env.GIT_CONFIG_VALUE_0 = `Authorization: ${e.authorization}`;
    env.GIT_CONFIG_KEY_1 = 'http.followRedirects';
    env.GIT_CONFIG_VALUE_1 = 'false';
  }
  return env;
}

function start(
  args: readonly string[],
  e: GitEnv,
  timeoutMs: number,
  stoppable = true,
): ChildProcessWithoutNullStreams {
  const signal = stoppable ? e.signal : undefined;
  return spawn('git', args, { env: gitEnvironment(e), signal, timeout: timeoutMs, killSignal: 'SIGKILL' });
}

/** What a failed git command said, its last lines, without any Authorization header value. */
function failure(args: readonly string[], code: number | null, signal: string | null, stderr: string): Error {
  const said = stderr
    .replace(/Authorization: \S+ \S+/gi, 'Authorization: ***')
    .trim()
    .split('\n')
    .slice(-3)
    .join(' ');
  const why = signal ? `was stopped (${signal === 'SIGKILL' ? 'timed out' : signal})` : `exited with ${code}`;
  return new Error(`git ${args.find((a) => !a.startsWith('-')) ?? ''} ${why}${said ? `: ${said}` : ''}`);
}

/** Runs git to the end; resolves with its stdout (bounded), rejects with its stderr on failure. */
export function runGit(args: readonly string[], e: GitEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = start(args, e, timeoutMs);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      if (out.length < MAX_COLLECTED) out += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < MAX_COLLECTED) err += d.toString('utf8');
    });
    child.on('error', (error) => reject(e.signal.aborted ? new Error('the run was stopped') : error));
    child.on('close', (code, signal) => (code === 0 ? resolve(out) : reject(failure(args, code, signal, err))));
  });
}

/**
 * The NUL-terminated records git writes to stdout (`-z` output), as they come; breaking out of
 * the loop ends the process. Rejects when git fails.
 */
export async function* gitRecords(args: readonly string[], e: GitEnv, timeoutMs: number): AsyncGenerator<string> {
  const child = start(args, e, timeoutMs);
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    if (err.length < MAX_COLLECTED) err += d.toString('utf8');
  });
  const ended = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 || child.killed ? resolve() : reject(failure(args, code, signal, err)),
    );
  });
  ended.catch(() => {});
  let rest = Buffer.alloc(0);
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      let data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      let nul: number;
      while ((nul = data.indexOf(0)) >= 0) {
        yield data.subarray(0, nul).toString('utf8');
        data = data.subarray(nul + 1);
      }
      rest = Buffer.from(data);
    }
    await ended;
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** Reads blobs through one `git cat-file --batch` process, one request at a time. */
export class BlobReader {
  private readonly child: ChildProcessWithoutNullStreams;
  private queue: Promise<unknown> = Promise.resolve();
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private wanted: { bytes: number; resolve(b: Buffer): void; reject(err: Error): void } | null = null;
  private broken: Error | null = null;

  constructor(
    gitDir: string,
    e: GitEnv,
    private readonly timeoutMs: number,
  ) {
    // Not stopped with the run: the reads in flight finish, then close() ends the process.
    this.child = start([`--git-dir=${gitDir}`, 'cat-file', '--batch'], e, 0, false);
    this.child.stdout.on('data', (d: Buffer) => {
      this.buffered.push(d);
      this.bufferedBytes += d.length;
      this.serve();
    });
    this.child.on('error', (err) => this.fail(err));
    this.child.on('close', (code, signal) => this.fail(failure(['cat-file'], code, signal, '')));
    this.child.stdin.on('error', (err) => this.fail(err));
  }

  private fail(err: Error): void {
    this.broken ??= err;
    this.wanted?.reject(this.broken);
    this.wanted = null;
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  /** The content of blob `oid` of `size` bytes (as ls-tree gave it). */
  read(oid: string, size: number): Promise<Buffer> {
    const job = this.queue.then(async () => {
      if (this.broken) throw this.broken;
      const timer = setTimeout(
        () => this.fail(new Error(`git cat-file did not answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      try {
        this.child.stdin.write(`${oid}\n`);
        const header = (await this.take(-1)).toString('latin1');
        const m = /^(\S+) (\S+) (\d+)$/.exec(header);
        if (!m) throw new Error(`git cat-file: ${header.slice(0, 200)}`);
        const body = await this.take(Number(m[3]) + 1);
        if (Number(m[3]) !== size) throw new Error(`git cat-file: blob ${oid} has ${m[3]} bytes, not ${size}`);
        return body.subarray(0, body.length - 1);
      } finally {
        clearTimeout(timer);
      }
    });
    this.queue = job.catch(() => {});
    return job;
  }

  /** After every read asked for so far: ends the process. */
  async close(): Promise<void> {
    await this.queue;
    this.broken ??= new Error('the blob reader is closed');
    this.child.stdin.end();
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  /** The next `bytes` bytes of output, or (-1) the next line without its LF. */
  private take(bytes: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      if (this.broken) return reject(this.broken);
      this.wanted = { bytes, resolve, reject };
      this.serve();
    });
  }

  private serve(): void {
    const w = this.wanted;
    if (!w || (w.bytes >= 0 && this.bufferedBytes < w.bytes)) return;
    const all = this.buffered.length === 1 ? this.buffered[0] : Buffer.concat(this.buffered);
    this.buffered = [all];
    let end: number;
    if (w.bytes < 0) {
      const lf = all.indexOf(0x0a);
      if (lf < 0) return;
      end = lf + 1;
      this.wanted = null;
      w.resolve(all.subarray(0, lf));
    } else {
      if (all.length < w.bytes) return;
      end = w.bytes;
      this.wanted = null;
      w.resolve(Buffer.from(all.subarray(0, end)));
    }
    const rest = all.subarray(end);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.bufferedBytes = rest.length;
  }
}
