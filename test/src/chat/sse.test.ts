/** sseData: events split across reads, multi-line data, comments, CRLF. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sseData } from '../../../src/chat/sse.ts';

function body(parts: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
}

it('yields the data of each event once its blank line arrived', async () => {
  const out: string[] = [];
  for await (const d of sseData(
    body(['data: {"a"', ':1}\n', '\n: comment\n\ndata: x\r\ndata: y\r\n\r\n', 'data: [DONE]\n\n']),
  ))
    out.push(d);
  assert.deepEqual(out, ['{"a":1}', 'x\ny', '[DONE]']);
});

it('rejects an event larger than the limit', async () => {
  await assert.rejects(async () => {
    for await (const _ of sseData(body(['data: ' + 'x'.repeat(100)]), 50)) void _;
  }, /larger than 50/);
});
