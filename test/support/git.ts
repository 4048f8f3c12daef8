/**
 * Real git servers for the git connector's tests: repositories made with Debian's git (commits
 * with fixed dates and authors), `git daemon` serving a folder over git://127.0.0.1, and git's
 * own `git http-backend` behind a small HTTP server on 127.0.0.1 that requires Basic auth.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};

export function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd, env: { ...GIT_ENV, ...env }, encoding: 'utf8' });
}

/** A repository in `dir` on branch `main` (not bare: the test edits and commits in it). */
export async function makeRepo(dir: string) {
  await mkdir(dir, { recursive: true });
  git(dir, ['init', '--quiet', '--initial-branch=main']);
  return {
    dir,
    /** Write (string or bytes) or delete (null) files and commit them at `date` (ISO 8601). */
    async commit(files: Record<string, string | Uint8Array | null>, date: string, author = 'Ann Example') {
      for (const [rel, content] of Object.entries(files)) {
        const path = join(dir, rel);
        if (content === null) await rm(path);
        else {
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, content);
        }
      }
      git(dir, ['add', '--all']);
      const who = { GIT_AUTHOR_NAME: author, GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: author };
      git(dir, ['commit', '--quiet', '-m', `change at ${date}`], {
        ...who,
        GIT_COMMITTER_EMAIL: 'a@example.com',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      });
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function accepts(port: number, deadline: number): Promise<void> {
  while (
    !(await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.on('connect', () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    }))
  ) {
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** `git daemon` exporting every repository under `base` on git://127.0.0.1:<port>/. */
export async function startGitDaemon(base: string) {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'git',
      ['daemon', '--reuseaddr', '--export-all', `--base-path=${base}`, '--listen=127.0.0.1', `--port=${port}`, base],
      { env: GIT_ENV, stdio: 'ignore' },
    );
    await accepts(port, Date.now() + 10_000);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const gone = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGTERM');
    await gone;
  };
  await start();
  return { url: (name: string) => `git://127.0.0.1:${port}/${name}`, start, stop };
}

/** `git http-backend` (CGI) serving `base` on http://127.0.0.1:<port>/, only with the given Basic credentials. */
export async function startGitHttp(base: string, username: string, password: string) {
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const server = createHttpServer((req, res) => {
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: base,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        REMOTE_USER: username,
        REMOTE_ADDR: '127.0.0.1',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headerDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headerDone) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headerDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: (name: string) => `http://127.0.0.1:${port}/${name}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
