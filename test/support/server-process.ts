/**
 * The real server as a child process (src/main.ts through tsx, or `npm
 * start`) on 127.0.0.1 with port 0: its output collected, the port read from
 * its `listening` log line, waits for a log line or for its exit. For the
 * tests of the process lifecycle (signals, start-up failures).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';

export const REPO = join(import.meta.dirname, '..', '..');
const MAIN = join(REPO, 'src', 'main.ts');

export interface ServerProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first JSON log line whose `msg` is `msg` (rejects if the process exits first). */
  logLine(msg: string): Promise<Record<string, any>>;
  /** The port from the `listening` line. */
  port(): Promise<number>;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

export function startServer(env: Record<string, string>, how: 'node' | 'npm' = 'node'): ServerProcess {
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    npm_config_update_notifier: 'false',
    ...env,
  };
  const child =
    how === 'npm'
      ? spawn('npm', ['start', '--silent'], { cwd: REPO, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(process.execPath, ['--import', 'tsx', MAIN], {
          cwd: REPO,
          env: fullEnv,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const findLine = (msg: string) => {
    for (const line of out.split('\n')) {
      if (!line.startsWith('{')) continue;
      const parsed = JSON.parse(line) as Record<string, any>;
      if (parsed.msg === msg) return parsed;
    }
    return undefined;
  };
  const logLine = (msg: string) =>
    new Promise<Record<string, any>>((resolve, reject) => {
      const check = () => {
        const found = findLine(msg);
        if (!found) return false;
        child.stdout!.off('data', check);
        resolve(found);
        return true;
      };
      if (check()) return;
      child.stdout!.on('data', check);
      void exited.then(() => {
        if (!check()) reject(new Error(`exited before "${msg}": ${err}`));
      });
    });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    logLine,
    port: async () => (await logLine('listening')).port as number,
    exited,
  };
}

/** Whether a new TCP connection to 127.0.0.1:`port` is accepted now. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
