/**
 * Display store: the display fields of every doc read back exactly as the stored payload
 * round-trips them (strings with separators, unicode, numbers, objects, null), absent fields
 * left out, over-long values refused (the caller reads the payload), and the StoredWriter
 * keeps the same records whether it gets stored objects or payload strings.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  DisplayReader,
  DisplayWriter,
  displayRecord,
  MAX_DISPLAY_VALUE_CHARS,
} from '../../../engine/store/display-store.ts';
import { StoredWriter } from '../../../engine/store/stored-writer.ts';
import { decodePayload, encodePayload } from '../../../engine/store/payload.ts';
import { EngineError } from '../../../engine/errors.ts';

const FIELDS = ['title', 'link', 'n', 'obj'];

const STORED: Record<string, unknown>[] = [
  { title: 'Urlaubsantrag', link: 'https://example.org/a', n: 3, obj: { a: [1, 'x'] }, other: 'not kept' },
  { title: 'sep \u0001 and \u0002 inside, "quotes" \\ back', link: '', n: 0 },
  { title: 'Ärger 😀 ß', obj: null },
  {},
  { title: 'x'.repeat(MAX_DISPLAY_VALUE_CHARS + 10), link: 'short' },
  { title: undefined, link: 'undefined title' },
];

/** What the full stored payload gives for `names`: the JSON round trip, absent keys left out. */
function expected(stored: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const s = decodePayload(encodePayload('de', {}, stored)).s;
  return Object.fromEntries(names.filter((n) => Object.prototype.hasOwnProperty.call(s, n)).map((n) => [n, s[n]]));
}

function reader(sections: { fields: string[]; data: Uint8Array; offsets: Float64Array }): DisplayReader {
  return new DisplayReader(sections.fields, sections.data, sections.offsets);
}

describe('display store', () => {
  it('reads the display fields back as the stored payload has them', () => {
    const w = new DisplayWriter(FIELDS);
    for (const s of STORED) w.add(s);
    const r = reader(w.finish());
    assert.equal(r.maxDoc, STORED.length);
    STORED.forEach((s, doc) => {
      if (doc === 4) return;
      assert.deepEqual(r.values(doc, FIELDS), expected(s, FIELDS), `doc ${doc}`);
      assert.deepEqual(r.values(doc, ['link']), expected(s, ['link']), `doc ${doc} link`);
    });
  });

  it('refuses a record with an over-long value only when that field is asked for', () => {
    const w = new DisplayWriter(FIELDS);
    for (const s of STORED) w.add(s);
    const r = reader(w.finish());
    assert.equal(r.values(4, ['title', 'link']), null);
    assert.deepEqual(r.values(4, ['link']), { link: 'short' });
  });

  it('tells which field sets it covers', () => {
    const r = reader(new DisplayWriter(FIELDS).finish());
    assert.ok(r.covers(['title', 'n']));
    assert.ok(!r.covers(['title', 'path']));
  });

  it('reports a damaged record as CORRUPT_INDEX and a doc out of range as INVALID_DOCUMENT', () => {
    const w = new DisplayWriter(FIELDS);
    w.addRecord('"only one part"');
    const r = reader(w.finish());
    assert.throws(
      () => r.values(0, ['title']),
      (e) => e instanceof EngineError && e.code === 'CORRUPT_INDEX',
    );
    assert.throws(
      () => r.values(1, ['title']),
      (e) => e instanceof EngineError && e.code === 'INVALID_DOCUMENT',
    );
  });
});

describe('stored writer with display fields', () => {
  it('keeps the same display records from stored objects and from payload strings', async () => {
    const fromObjects = new StoredWriter({ displayFields: FIELDS });
    const fromPayloads = new StoredWriter({ displayFields: FIELDS });
    const copied = new StoredWriter({ displayFields: FIELDS });
    for (const s of STORED) {
      fromObjects.addPayload('en', { body: 'text' }, s);
      const payload = encodePayload('en', { body: 'text' }, s);
      fromPayloads.add(payload);
      copied.add(payload, displayRecord(FIELDS, s));
    }
    const a = (await fromObjects.finish()).display!;
    const b = (await fromPayloads.finish()).display!;
    const c = (await copied.finish()).display!;
    assert.deepEqual(a.fields, FIELDS);
    assert.deepEqual([...b.data], [...a.data]);
    assert.deepEqual([...c.data], [...a.data]);
    assert.deepEqual([...b.offsets], [...a.offsets]);
  });

  it('writes no display store without display fields', async () => {
    const w = new StoredWriter();
    w.addPayload('de', { body: 'x' }, { title: 't' });
    assert.equal((await w.finish()).display, undefined);
  });
});
