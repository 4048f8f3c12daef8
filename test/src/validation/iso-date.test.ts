/**
 * Strict ISO 8601 calendar fields: days that do not exist are rejected by
 * every date input (documents, DATE properties, key expiry, search ranges)
 * instead of rolling over into the next month as Date.parse does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { daysInMonth, hasRealCalendarFields } from '../../../src/validation/iso-date.ts';
import { matchesPropertyType } from '../../../src/controlplane/document-rules.ts';
import { parseTimestamp } from '../../../src/routes/admin.schemas.ts';
import { parseDateRange } from '../../../src/search/params.ts';

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

test('impossible dates, times and offsets are rejected', () => {
  for (const s of [
    '2026-02-30',
    '2100-02-29',
    '2026-04-31T00:00:00Z',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-01-01T24:00:00Z',
    '2026-01-01T10:60',
    '2026-01-01T10:00:61Z',
    '2026-01-01T10:00:00+25:00',
  ]) {
    assert.equal(hasRealCalendarFields(s), false, s);
  }
  for (const s of [
    '2024-02-29',
    '2026-04-30T23:59:59Z',
    '2026-01-01T10:00',
    '2026-01-01 10:00:00.5-05:30',
    '2026-12-31T00:00:00+0100',
  ]) {
    assert.equal(hasRealCalendarFields(s), true, s);
  }
});

test('every date input applies the check', () => {
  assert.equal(matchesPropertyType('DATE', '2026-02-30'), false);
  assert.equal(matchesPropertyType('DATE', '2026-02-28'), true);
  assert.equal(parseTimestamp('2030-02-30T00:00:00Z'), undefined);
  assert.equal(parseTimestamp('2030-02-28'), Date.UTC(2030, 1, 28));
  assert.equal(parseDateRange('2026-02-30T00:00:00.000Z_2026-03-30T00:00:00.000Z'), null);
  assert.deepEqual(parseDateRange('2026-02-28T00:00:00.000Z_2026-03-30T00:00:00.000Z'), {
    start: Date.UTC(2026, 1, 28),
    end: Date.UTC(2026, 2, 30),
  });
});
