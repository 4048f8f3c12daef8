/**
 * Reads one secret line for an operator command: from a terminal with a prompt and without
 * echo, otherwise the first line of stdin (for scripts: `printf '%s\n' "$PW" | ... password`).
 * The value never reaches a log line or argv (where other users could see it).
 */
import { createInterface } from 'node:readline';

export async function readSecretLine(prompt: string): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    const rl = createInterface({ input, terminal: false });
    for await (const line of rl) {
      rl.close();
      return line;
    }
    return '';
  }
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  return new Promise((resolve) => {
    let value = '';
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          input.off('data', onData);
          input.setRawMode(false);
          input.pause();
          process.stderr.write('\n');
          resolve(value);
          return;
        }
        if (ch === '\u0003') process.exit(130);
        value = ch === '\u007f' ? value.slice(0, -1) : value + ch;
      }
    };
    input.on('data', onData);
  });
}
