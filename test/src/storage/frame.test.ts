/** Record framing: round trip, and every torn or corrupt tail is detected at the last good record. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FRAME_HEADER_BYTES, encodeFrames, scanFrames } from '../../../src/storage/frame.ts';

const enc = new TextEncoder();
const payloads = ['first', '', 'third record with more bytes', '{"type":"x.y"}'].map((s) => enc.encode(s));

test('frames round-trip in order, including an empty payload and a subarray view', () => {
  const inner = enc.encode('xxpayloadxx').subarray(2, 9);
  const data = encodeFrames([...payloads, inner]);
  const scan = scanFrames(data);
  assert.equal(scan.problem, undefined);
  assert.equal(scan.goodBytes, data.byteLength);
  assert.deepEqual(
    scan.records.map((r) => new TextDecoder().decode(r)),
    ['first', '', 'third record with more bytes', '{"type":"x.y"}', 'payload'],
  );
});

test('a file cut at any byte keeps exactly the complete records before the cut and reports a torn tail', () => {
  const data = encodeFrames(payloads);
  const ends: number[] = [];
  let at = 0;
  for (const p of payloads) ends.push((at += FRAME_HEADER_BYTES + p.byteLength));
  for (let cut = 0; cut < data.byteLength; cut++) {
    const scan = scanFrames(data.subarray(0, cut));
    const complete = ends.filter((e) => e <= cut).length;
    assert.equal(scan.records.length, complete, `cut at ${cut}`);
    assert.equal(scan.goodBytes, complete === 0 ? 0 : ends[complete - 1]);
    assert.equal(scan.problem, scan.goodBytes === cut ? undefined : 'torn');
  }
});

test('a flipped payload bit or a flipped checksum bit is reported as corrupt at that record', () => {
  const data = encodeFrames(payloads);
  const secondStart = FRAME_HEADER_BYTES + payloads[0].byteLength;
  const thirdStart = secondStart + FRAME_HEADER_BYTES;
  for (const offset of [thirdStart + FRAME_HEADER_BYTES + 3, thirdStart + 6]) {
    const bad = data.slice();
    bad[offset] ^= 0x10;
    const scan = scanFrames(bad);
    assert.equal(scan.problem, 'corrupt');
    assert.equal(scan.records.length, 2);
    assert.equal(scan.goodBytes, thirdStart);
  }
});

test('zero-filled and random garbage tails are rejected, never read as records', () => {
  const good = encodeFrames(payloads.slice(0, 2));
  for (const tail of [new Uint8Array(64), Uint8Array.from({ length: 64 }, (_, i) => (i * 97 + 13) & 0xff)]) {
    const data = new Uint8Array(good.byteLength + tail.byteLength);
    data.set(good);
    data.set(tail, good.byteLength);
    const scan = scanFrames(data);
    assert.equal(scan.records.length, 2);
    assert.equal(scan.goodBytes, good.byteLength);
    assert.ok(scan.problem === 'corrupt' || scan.problem === 'torn');
  }
});
