/**
 * onError never throws: 422 items echo their input bounded (a huge string
 * becomes a placeholder), and an error answer that cannot be serialised at
 * all is still a plain 500 `{detail}`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { createApp } from '../../../src/app.ts';
import { RequestValidationError } from '../../../src/errors.ts';
import { jsonBody } from '../../../src/http/body.ts';
import { createLogger } from '../../../src/log.ts';
import { testServices } from '../../support/app.ts';

async function setup() {
  const lines: string[] = [];
  const app = createApp(await testServices({ log: createLogger('info', (l) => lines.push(l)) }));
  app.post('/test/echo', async (c) =>
    c.json(await jsonBody(c, v.strictObject({ name: v.pipe(v.string(), v.maxLength(5)) }))),
  );
  app.get('/test/unserialisable', () => {
    throw new RequestValidationError([{ type: 'value_error', loc: ['body'], msg: 'x', input: 10n }]);
  });
  return { app, lines };
}

test('a long string input is echoed as a placeholder', async () => {
  const { app } = await setup();
  const res = await app.request('/test/echo', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'y'.repeat(50_000) }),
  });
  assert.equal(res.status, 422);
  const item = (await res.json()).detail[0];
  assert.equal(item.type, 'string_too_long');
  assert.equal(item.input, '<string of 50000 characters, not echoed>');
});

test('an error answer that cannot be serialised is a plain 500', async () => {
  const { app, lines } = await setup();
  const res = await app.request('/test/unserialisable');
  assert.equal(res.status, 500);
  assert.deepEqual(Object.keys(await res.json()), ['detail']);
  assert.ok(lines.some((l) => JSON.parse(l).level === 'error'));
});
