/** The reindex progress line: bar, share, counts and an ETA from the rate so far; plain lines off a TTY. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clock, progressLine, progressReporter } from '../../../src/commands/progress.ts';

test('the bar, the share and the ETA follow the rate so far', () => {
  assert.equal(
    progressLine('reindex', 250, 1000, 10_000),
    `reindex [${'#'.repeat(8)}${'-'.repeat(22)}]  25% 250/1000, ETA 0:30`,
  );
  assert.match(progressLine('reindex', 0, 1000, 0), /  0% 0\/1000, ETA \?$/);
  assert.equal(clock(3725), '1:02:05');
  assert.equal(clock(59.6), '1:00');
});

test('on a TTY the line is redrawn in place; elsewhere a plain line now and then', () => {
  let t = 0;
  const tty: string[] = [];
  const a = progressReporter({ isTTY: true, write: (s: string) => tty.push(s) }, 'reindex', () => t);
  t = 1000;
  a.update({ done: 10, total: 100 });
  a.update({ done: 20, total: 100 });
  a.done();
  assert.equal(tty.length, 3);
  assert.ok(tty[0].startsWith('\rreindex ['));
  assert.match(tty[2], /^\rreindex: 20 documents in 0:01/);
  const plain: string[] = [];
  const b = progressReporter({ write: (s: string) => plain.push(s) }, 'reindex', () => t);
  for (let i = 1; i <= 10; i++) {
    t += 1000;
    b.update({ done: i, total: 10 });
  }
  assert.equal(plain.length, 2, 'a line every 5 s');
  assert.ok(plain.every((l) => l.endsWith('\n') && !l.includes('\r')));
});
