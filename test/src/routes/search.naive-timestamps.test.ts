/**
 * A document's `last_modified` without a UTC offset (`2026-01-01T23:30:00`, which the schema
 * accepts) is read as UTC, as a date alone is, whatever the server's time zone: date filters
 * must not move by the server's offset. The process runs in Europe/Berlin here (UTC+1 in January).
 */
process.env.TZ = 'Europe/Berlin';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc } from '../../support/documents.ts';
import { searchHarness } from '../../support/search.ts';

test('a naive last_modified is UTC for date filters, in any server time zone', async () => {
  assert.equal(new Date(2026, 0, 1).getTimezoneOffset(), -60, 'the test runs at UTC+1');
  const h = await searchHarness();
  try {
    assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
    await h.register('wiki', 'ann@x.org');
    await h.push([
      doc({ id: 'naive', title: 'Report naive', last_modified: '2026-01-01T23:30:00' }),
      doc({ id: 'space', title: 'Report space', last_modified: '2026-01-01 23:40' }),
      doc({ id: 'zoned', title: 'Report zoned', last_modified: '2026-01-02T00:50:00+01:00' }),
      doc({ id: 'day', title: 'Report day', last_modified: '2026-01-02' }),
    ]);
    await h.commit();
    const ids = async (range: string) => {
      const r = await h.search({ email: 'ann@x.org' }, { query: 'report', last_modified_date: range, count: 100 });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.results.map((x: { id: string }) => x.id).sort();
    };
    assert.deepEqual(await ids('2026-01-01T23:00:00.000Z_2026-01-01T23:59:59.999Z'), [
      'wiki:naive',
      'wiki:space',
      'wiki:zoned',
    ]);
    assert.deepEqual(await ids('2026-01-02T00:00:00.000Z_2026-01-02T00:00:00.000Z'), ['wiki:day']);
  } finally {
    await h.close();
  }
});
