/**
 * Queue records that keep each pushed item's JSON as received: the item ranges found in a bulk
 * body are exactly the items JSON.parse yields (or the scanner declines), and such records replay
 * to the same queued documents as the ones handed to the pipeline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/log.ts';
import { DocumentQueue, queuedDocument, type NewQueueOp } from '../../../src/documents/queue.ts';
import { documentItemSpans } from '../../../src/documents/raw-items.ts';
import { prng } from '../../support/prng.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

function randomString(rng: ReturnType<typeof prng>): string {
  const alphabet = ['a', 'Z', ' ', '"', '\\', '[', ']', '{', '}', ',', ':', 'ü', '€', '😀', '\n', '\u0000', '/'];
  let s = '';
  for (let n = rng.int(12); n > 0; n--) s += rng.pick(alphabet);
  return s;
}

function randomValue(rng: ReturnType<typeof prng>, depth: number): unknown {
  switch (depth > 2 ? rng.int(4) : rng.int(6)) {
    case 0:
      return randomString(rng);
    case 1:
      return rng.int(1000) - 500 + (rng.next() < 0.3 ? 0.25 : 0);
    case 2:
      return rng.pick([true, false, null]);
    case 3:
      return rng.next() < 0.5 ? 1e21 : -0.5e-3;
    case 4:
      return Array.from({ length: rng.int(4) }, () => randomValue(rng, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: rng.int(4) }, () => [randomString(rng), randomValue(rng, depth + 1)]),
      );
  }
}

/** JSON text with random whitespace between tokens. */
function spacedJson(value: unknown, rng: ReturnType<typeof prng>): string {
  const ws = () => rng.pick(['', '', ' ', '\n  ', '\t', '\r\n']);
  if (Array.isArray(value)) return `[${ws()}${value.map((v) => spacedJson(v, rng)).join(`${ws()},${ws()}`)}${ws()}]`;
  if (value !== null && typeof value === 'object') {
    return `{${ws()}${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}${ws()}:${ws()}${spacedJson(v, rng)}`)
      .join(`${ws()},${ws()}`)}${ws()}}`;
  }
  return JSON.stringify(value);
}

test('item ranges of a bulk body are exactly the items JSON.parse yields', () => {
  const rng = prng(4242);
  for (let round = 0; round < 400; round++) {
    const docs = Array.from({ length: rng.int(6) }, () => randomValue(rng, 0));
    const envelope: Record<string, unknown> =
      rng.next() < 0.3
        ? { before: randomValue(rng, 1), documents: docs, after: randomValue(rng, 1) }
        : { documents: docs };
    const bytes = enc.encode(
      (rng.next() < 0.1 ? '\ufeff' : '') + spacedJson(envelope, rng) + rng.pick(['', ' ', '\n']),
    );
    const spans = documentItemSpans(bytes);
    assert.ok(spans, 'a plain bulk body is handled');
    const parsed = (JSON.parse(dec.decode(bytes)) as { documents: unknown[] }).documents;
    assert.equal(spans.starts.length, parsed.length);
    for (let i = 0; i < parsed.length; i++)
      assert.deepEqual(JSON.parse(dec.decode(bytes.subarray(spans.starts[i], spans.ends[i]))), parsed[i]);
  }
});

test('the scanner declines what it cannot be sure of, and follows JSON.parse on duplicate keys', () => {
  assert.equal(documentItemSpans(enc.encode('{"documents": {"id": "a"}}')), null, 'single form');
  assert.equal(documentItemSpans(enc.encode('{"documen\\u0074s": [1]}')), null, 'escaped key');
  assert.equal(documentItemSpans(enc.encode('{"documents": [1]} x')), null, 'trailing data');
  assert.equal(documentItemSpans(enc.encode('[1, 2]')), null, 'not an object');
  const dup = enc.encode('{"documents": [1, 2], "documents": [{"x": "]"}]}');
  const spans = documentItemSpans(dup)!;
  assert.deepEqual(JSON.parse(dec.decode(dup.subarray(spans.starts[0], spans.ends[0]))), { x: ']' });
  assert.equal(spans.starts.length, 1);
});

test('upserts stored with their raw item replay to the same queued documents', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'queue-raw-'));
  try {
    const items = [
      {
        datasource: 'wiki',
        id: 'a',
        title: 'T "quoted" \\ ü',
        file_type: 'wiki',
        body: { mime_type: 'text/plain', text_content: 'x\ny 😀' },
        last_modified: '2026-01-01T00:00:00Z',
      },
      {
        datasource: 'wiki',
        id: 'b',
        file_type: 'email',
        path: 'A > B',
        body: { mime_type: 'application/pdf', binary_base64: 'SGVsbG8=' },
        permissions: { allowed_users: [{ email: ' Ann@Example.com ' }] },
      },
    ];
    const body = enc.encode(JSON.stringify({ documents: items }, null, 1));
    const spans = documentItemSpans(body)!;
    const ops: NewQueueOp[] = [
      {
        op: 'upsert',
        doc: queuedDocument(items[0], { tokens: ['wiki|*'], sub: null, sub_sub: null, properties: [], received_at: 5 }),
      },
      { op: 'delete', datasource: 'wiki', id: 'gone' },
      {
        op: 'upsert',
        doc: queuedDocument(items[1], {
          tokens: ['wiki|u|ann@example.com'],
          sub: 'hr',
          sub_sub: null,
          properties: [{ name: 'n', value: 1, type: 'INTEGER', searchable: false }],
          received_at: 6,
        }),
      },
    ];
    const raw = [
      body.subarray(spans.starts[0], spans.ends[0]),
      undefined,
      body.subarray(spans.starts[1], spans.ends[1]),
    ];
    let { queue } = await DocumentQueue.open(dir, silentLogger);
    const appended = queue.appendMany(ops, raw);
    await appended.durable;
    await queue.close();
    const reopened = await DocumentQueue.open(dir, silentLogger);
    assert.deepEqual(reopened.ops, appended.ops);
    await reopened.queue.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
