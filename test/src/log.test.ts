/** Logging: one JSON object per line, level filter, child fields, secrets redacted. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../src/log.ts';

function capture(level: Parameters<typeof createLogger>[0]) {
  const lines: string[] = [];
  return { lines, log: createLogger(level, (line) => lines.push(line)) };
}

test('each record is one JSON line with time, level and message', () => {
  const { lines, log } = capture('info');
  log.info('hello', { a: 1 });
  assert.equal(lines.length, 1);
  const rec = JSON.parse(lines[0]);
  assert.equal(rec.level, 'info');
  assert.equal(rec.msg, 'hello');
  assert.equal(rec.a, 1);
  assert.ok(!Number.isNaN(Date.parse(rec.time)));
  assert.ok(!lines[0].includes('\n'));
});

test('records below the level are dropped', () => {
  const { lines, log } = capture('warn');
  log.debug('d');
  log.info('i');
  log.warn('w');
  log.error('e');
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).msg),
    ['w', 'e'],
  );
});

test('child loggers carry their fields', () => {
  const { lines, log } = capture('debug');
  log.child({ requestId: 'r1' }).debug('x');
  assert.equal(JSON.parse(lines[0]).requestId, 'r1');
});

test('secret-looking fields are redacted at any depth', () => {
  const { lines, log } = capture('info');
  log.info('x', {
    authorization: 'Bearer svcsa_abc',
    nested: { api_key: 'k', apiKey: 'k2', password: 'p', ok: 'visible' },
    credentials: { username: 'crawler-user' },
  });
  assert.ok(!lines[0].includes('crawler-user'), 'connector credentials');
  assert.ok(!lines[0].includes('svcsa_abc'));
  assert.ok(!lines[0].includes('"k"'));
  assert.ok(!lines[0].includes('k2'));
  const rec = JSON.parse(lines[0]);
  assert.equal(rec.authorization, '[redacted]');
  assert.equal(rec.nested.ok, 'visible');
});

test('errors are logged by name and message', () => {
  const { lines, log } = capture('info');
  log.error('boom', { error: new TypeError('bad thing') });
  assert.deepEqual(JSON.parse(lines[0]).error, { name: 'TypeError', message: 'bad thing' });
});
