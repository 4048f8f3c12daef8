/**
 * The search pool's scheduling with real worker threads (src/search/pool.ts, scheduler.ts):
 * searches of one account beyond SEARCH_ACCOUNT_CONCURRENCY wait on this thread while another
 * account's search starts, long queries go to the expensive lane, and every answer still equals
 * the one the search gives on this thread. Asserted on what runs and waits, never on time.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SearchPool } from '../../../src/search/pool.ts';
import { planSearch, searchDocuments, type SearchDeps } from '../../../src/search/service.ts';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

const USERS = ['ann@example.com', 'bob@example.com'];
let h: SearchHarness;
let pool: SearchPool;
let deps: SearchDeps;

before(async () => {
  h = await searchHarness({ searchThreads: 2, env: { SEARCH_ACCOUNT_CONCURRENCY: '1', SEARCH_CHEAP_WORDS: '4' } });
  await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
  await h.register('wiki', ...USERS);
  await h.push(
    Array.from({ length: 40 }, (_, i) => ({
      datasource: 'wiki',
      id: `d${i}`,
      title: `Lantern ${i}`,
      file_type: 'wiki',
      body: { mime_type: 'text/plain', text_content: `harbour lantern ${i % 2 ? 'granite' : 'meadow'} copper` },
      permissions: { allow_anonymous_access: true },
    })),
  );
  await h.commit();
  pool = h.services.searchRunner as SearchPool;
  deps = { state: h.services.state, index: h.index, now: () => Date.now() };
});
after(() => h.close());

const plan = (email: string, query: string) => planSearch(deps, email, { query, count: 5 })!;

test("an account's searches beyond its limit wait while another account's search starts", async () => {
  assert.ok(pool instanceof SearchPool && pool.size === 2);
  const ann = ['harbour', 'lantern', 'granite'].map((q) => pool.runJson(plan(USERS[0], q), { account: USERS[0] }));
  const bob = pool.runJson(plan(USERS[1], 'copper'), { account: USERS[1] });
  assert.equal(pool.runningOf(USERS[0]), 1, 'one search of ann runs');
  assert.equal(pool.runningOf(USERS[1]), 1, "bob's search runs beside it");
  assert.equal(pool.queued, 2, "ann's other two wait");
  const answers = await Promise.all([...ann, bob]);
  assert.equal(pool.queued, 0);
  const expected = [
    searchDocuments(deps, USERS[0], { query: 'harbour', count: 5 }),
    searchDocuments(deps, USERS[0], { query: 'lantern', count: 5 }),
    searchDocuments(deps, USERS[0], { query: 'granite', count: 5 }),
    searchDocuments(deps, USERS[1], { query: 'copper', count: 5 }),
  ];
  assert.deepEqual(
    answers.map((a) => JSON.parse(a.json)),
    JSON.parse(JSON.stringify(expected)),
  );
});

test('a query of more than SEARCH_CHEAP_WORDS words runs in the expensive lane, beside cheap ones', async () => {
  const long = 'harbour lantern granite meadow copper';
  assert.equal(pool.laneOf(long), 'expensive');
  assert.equal(pool.laneOf('harbour lantern'), 'cheap');
  const expensive = pool.runJson(plan(USERS[0], long), { account: USERS[0] });
  const expensiveToo = pool.runJson(plan(USERS[1], long), { account: USERS[1] });
  const cheap = pool.runJson(plan(USERS[1], 'copper'), { account: USERS[1] });
  assert.equal(pool.runningOf(USERS[0]), 1, 'the first expensive search runs');
  assert.equal(pool.runningOf(USERS[1]), 1, "bob's cheap search runs, his expensive one waits for the lane");
  assert.equal(pool.queued, 1);
  const [a, b] = await Promise.all([expensive, expensiveToo, cheap]);
  assert.equal(a.json, b.json, 'both see the same documents');
});
