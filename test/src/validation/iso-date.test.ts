/**
 * The ISO 8601 forms the service accepts and refuses, as one table, and every
 * date input held to it: document `last_modified` (schema and fast path), DATE
 * custom properties and key `expires_at`. Days that do not exist are refused
 * instead of rolling over into the next month as Date.parse does. The search's
 * custom date range keeps the spec's stricter pattern on top.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { daysInMonth, isIsoInstant, parseInstant } from '../../../src/validation/iso-date.ts';
import { matchesPropertyType } from '../../../src/controlplane/document-rules.ts';
import { documentSchema } from '../../../src/documents/schemas.ts';
import { fastValidDocument } from '../../../src/documents/schemas-fast-path.ts';
import { parseTimestamp } from '../../../src/accounts/schemas.ts';
import { parseDateRange } from '../../../src/search/schemas.ts';

const at = (iso: string) => new Date(iso).getTime();

/** Accepted forms with the instant they name. */
const ACCEPTED: [string, number][] = [
  ['2026-01-01', at('2026-01-01T00:00:00.000Z')],
  ['2026-01-01T10:00', at('2026-01-01T10:00:00.000Z')],
  ['2026-01-01T10:00:00', at('2026-01-01T10:00:00.000Z')],
  ['2026-01-01T10:00:00Z', at('2026-01-01T10:00:00.000Z')],
  ['2026-01-01t10:00:00z', at('2026-01-01T10:00:00.000Z')],
  ['2026-01-01 10:00:00', at('2026-01-01T10:00:00.000Z')],
  ['2026-01-01T10:00Z', at('2026-01-01T10:00:00.000Z')],
  ['2026-01-01T10:00:00.5Z', at('2026-01-01T10:00:00.500Z')],
  ['2026-01-01T10:00:00.123Z', at('2026-01-01T10:00:00.123Z')],
  ['2026-01-01T10:00:00.123456789Z', at('2026-01-01T10:00:00.123Z')],
  ['2026-01-01T10:00:00.1239999999999Z', at('2026-01-01T10:00:00.123Z')],
  ['2026-01-01T10:00:00+01:00', at('2026-01-01T09:00:00.000Z')],
  ['2026-01-01T10:00:00+0100', at('2026-01-01T09:00:00.000Z')],
  ['2026-01-01T10:00-05:30', at('2026-01-01T15:30:00.000Z')],
  ['2026-01-01 10:00:00.5-05:30', at('2026-01-01T15:30:00.500Z')],
  ['2026-01-01T10:00:00-00:00', at('2026-01-01T10:00:00.000Z')],
  ['2026-12-31T23:59:59+23:59', at('2026-12-31T00:00:59.000Z')],
  ['2026-04-30T23:59:59Z', at('2026-04-30T23:59:59.000Z')],
  ['2024-02-29', at('2024-02-29T00:00:00.000Z')],
  ['2000-02-29T12:00:00Z', at('2000-02-29T12:00:00.000Z')],
  ['0000-01-01', -62167219200000],
  ['0099-06-01T00:00:00Z', at('0099-06-01T00:00:00.000Z')],
  ['9999-12-31T23:59:59.999Z', at('9999-12-31T23:59:59.999Z')],
];

/** Refused: impossible fields, then forms outside the accepted set. */
const REFUSED: string[] = [
  '2026-02-30',
  '2100-02-29',
  '2026-04-31T00:00:00Z',
  '2026-13-01',
  '2026-00-10',
  '2026-01-00',
  '2026-01-01T24:00:00Z',
  '2026-01-01T10:60',
  '2026-01-01T10:00:60Z',
  '2026-01-01T10:00:00+24:00',
  '2026-01-01T10:00:00+01:60',
  '2026-01-01Z',
  '2026-01-01+01:00',
  '2026-01-01T10',
  '2026-01-01T10:00:00+01',
  '2026-01-01T10:00:00.Z',
  '2026-01-01T10:00:00,5Z',
  '2026-01-01TT10:00',
  '2026-01-01T10:00:00ZZ',
  '2026-01-01T1000',
  '20260101',
  '2026-1-1',
  '+002026-01-01',
  '-2026-01-01',
  '2026-W01',
  '2026-001',
  '2026-01',
  '2026',
  '\uff12\uff10\uff12\uff16-01-01',
  ' 2026-01-01',
  '2026-01-01T10:00:00Z ',
  '',
  'yesterday',
];

const docSchema = documentSchema(1024);
const pushedDoc = (last_modified: string) => ({ datasource: 'ds', id: 'd1', file_type: 'file', last_modified });
const lastModifiedAccepted = (s: string) => v.safeParse(docSchema, pushedDoc(s)).success;
const fastPathAccepted = (s: string) => fastValidDocument(pushedDoc(s), 1024) !== undefined;

test('the accepted forms name the expected instant', () => {
  for (const [s, ms] of ACCEPTED) {
    assert.equal(parseInstant(s), ms, s);
    assert.equal(isIsoInstant(s), true, s);
  }
});

test('impossible fields and other forms are refused', () => {
  for (const s of REFUSED) {
    assert.ok(Number.isNaN(parseInstant(s)), s);
    assert.equal(isIsoInstant(s), false, s);
  }
});

test('last_modified, DATE properties and expires_at accept exactly the table', () => {
  for (const [s, ms] of ACCEPTED) {
    assert.equal(lastModifiedAccepted(s), true, `last_modified ${s}`);
    assert.equal(fastPathAccepted(s), true, `last_modified fast path ${s}`);
    assert.equal(matchesPropertyType('DATE', s), true, `DATE ${s}`);
    assert.equal(parseTimestamp(s), ms, `expires_at ${s}`);
  }
  for (const s of REFUSED) {
    assert.equal(lastModifiedAccepted(s), false, `last_modified ${s}`);
    assert.equal(fastPathAccepted(s), false, `last_modified fast path ${s}`);
    assert.equal(matchesPropertyType('DATE', s), false, `DATE ${s}`);
    if (s.trim() === s) assert.equal(parseTimestamp(s), undefined, `expires_at ${s}`);
  }
});

test('expires_at ignores surrounding blanks; last_modified and DATE do not', () => {
  assert.equal(parseTimestamp(' 2030-01-31T12:00:00Z '), at('2030-01-31T12:00:00.000Z'));
  assert.equal(lastModifiedAccepted(' 2030-01-31T12:00:00Z '), false);
  assert.equal(matchesPropertyType('DATE', ' 2030-01-31T12:00:00Z '), false);
});

test('a DATE property is also a number of epoch seconds', () => {
  assert.equal(matchesPropertyType('DATE', 1767261600), true);
  assert.equal(matchesPropertyType('DATE', Number.NaN), false);
});

test("the search's custom range takes only the spec's form, and only real instants", () => {
  assert.deepEqual(parseDateRange('2026-02-28T00:00:00.000Z_2026-03-30T00:00:00.000Z'), {
    start: Date.UTC(2026, 1, 28),
    end: Date.UTC(2026, 2, 30),
  });
  for (const range of [
    '2026-02-30T00:00:00.000Z_2026-03-30T00:00:00.000Z',
    '2026-01-01T24:00:00.000Z_2026-03-30T00:00:00.000Z',
    '2026-02-28T00:00:00Z_2026-03-30T00:00:00.000Z',
    '2026-02-28_2026-03-30',
    '2026-02-28t00:00:00.000z_2026-03-30T00:00:00.000Z',
    '2026-03-30T00:00:00.000Z_2026-02-28T00:00:00.000Z',
  ]) {
    assert.equal(parseDateRange(range), null, range);
  }
});

test('days per month follow the Gregorian leap-year rule', () => {
  assert.deepEqual(
    [2024, 2026, 2100, 2000].map((y) => daysInMonth(y, 2)),
    [29, 28, 28, 29],
  );
  assert.deepEqual(
    [1, 4, 6, 9, 11, 12].map((m) => daysInMonth(2026, m)),
    [31, 30, 30, 30, 30, 31],
  );
});
