/**
 * Runs a module script in a child process (tsx loaded) and kills it when it has not finished
 * within HANG_GUARD_MS: a guard against an input that makes a parser hang for minutes, far above
 * any linear pass, not a measurement. Tests give their `test()` HANG_GUARD_TEST_MS as timeout.
 */
import { spawn } from 'node:child_process';

export const HANG_GUARD_MS = 15_000;
/** node:test timeout for a test running one guarded child. */
export const HANG_GUARD_TEST_MS = HANG_GUARD_MS + 15_000;

export interface GuardedRun {
  code: number | null;
  /** True when the guard had to kill the child. */
  killed: boolean;
  out: string;
  err: string;
}

/** Runs `script` (an ES module body; it may `await import(...)`) in a child process under the hang guard. */
export function runGuarded(script: string): Promise<GuardedRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let killed = false;
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, HANG_GUARD_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, killed, out, err });
    });
  });
}

const HTML_TREE = new URL('../../../extractors/web/html-tree.ts', import.meta.url).href;

/**
 * parseHtml of the page that the JavaScript expression `htmlExpr` builds, under the hang guard;
 * `out` is the depth of the tree's chain of first children.
 */
export function parseHtmlGuarded(htmlExpr: string): Promise<GuardedRun> {
  return runGuarded(`
    const { parseHtml } = await import(${JSON.stringify(HTML_TREE)});
    const { root } = parseHtml(${htmlExpr});
    let depth = 0;
    for (let el = root; el.children.length > 0 && typeof el.children[0] !== 'string'; el = el.children[0]) depth++;
    process.stdout.write(String(depth));
  `);
}
