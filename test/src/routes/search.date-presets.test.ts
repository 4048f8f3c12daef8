/**
 * GET /api/beta/search `last_modified_date` presets measured in calendar months and years back
 * from now (UTC): from the last day of a month, a month back is the last day of the month before
 * (day clamped to that month's length), not a day that overflows into the current month.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

const NOW = Date.parse('2026-05-31T12:00:00.000Z');
let h: SearchHarness;
const ann = { email: 'ann@example.com' };

/** Document id -> last_modified; each pair straddles the expected bound of one preset by 6 hours. */
const DATES: Record<string, string> = {
  month_in: '2026-04-30T18:00:00.000Z',
  month_out: '2026-04-30T06:00:00.000Z',
  threemonth_in: '2026-02-28T18:00:00.000Z',
  threemonth_out: '2026-02-28T06:00:00.000Z',
  year_in: '2025-05-31T18:00:00.000Z',
  year_out: '2025-05-31T06:00:00.000Z',
};

before(async () => {
  h = await searchHarness({ now: () => NOW });
  assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
  await h.register('wiki', ann.email);
  await h.push(
    Object.entries(DATES).map(([id, last_modified]) => ({
      datasource: 'wiki',
      id,
      title: `Report ${id}`,
      file_type: 'wiki',
      last_modified,
      body: { mime_type: 'text/plain', text_content: 'Quarterly report on warehouse logistics.' },
    })),
  );
  await h.commit();
});
after(() => h.close());

const found = async (preset: string) => {
  const r = await h.search(ann, { query: 'report', last_modified_date: preset, count: 100 });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body.results as { id: string }[]).map((x) => x.id.slice('wiki:'.length)).sort();
};

test('month from May 31 reaches back to April 30 (same time of day)', async () => {
  assert.deepEqual(await found('month'), ['month_in']);
});

test('threemonth from May 31 reaches back to February 28', async () => {
  assert.deepEqual(await found('threemonth'), ['month_in', 'month_out', 'threemonth_in']);
});

test('year from May 31 reaches back to May 31 of the year before', async () => {
  assert.deepEqual(await found('year'), ['month_in', 'month_out', 'threemonth_in', 'threemonth_out', 'year_in']);
});
