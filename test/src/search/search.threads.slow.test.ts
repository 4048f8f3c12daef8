/**
 * Searches on worker threads (src/search/pool.ts, SEARCH_THREADS): every response
 * equals the one the same search gives on the test's own thread (service.ts
 * searchDocuments), for several viewers, filters and pages, before and after
 * commits that add, replace and delete documents; query errors come back as the
 * same 422.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SearchPool } from '../../../src/search/pool.ts';
import { searchDocuments } from '../../../src/search/service.ts';
import { toSearchParams } from '../../../src/search/schemas.ts';
import { validateSearchQuery } from '../../../src/search/schemas.ts';
import { prng } from '../../support/prng.ts';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

const rnd = prng(11);
const VOCAB = [
  'harbour',
  'lantern',
  'granite',
  'meadow',
  'copper',
  'violin',
  'glacier',
  'saffron',
  'tundra',
  'orchid',
  'Urlaubsantrag',
  'Antrag',
  'travel',
  'budget',
];
const USERS = ['ann@example.com', 'bob@example.com', 'carl@example.com'];
let h: SearchHarness;

const text = (t: string) => ({ mime_type: 'text/plain', text_content: t });
const words = (n: number) => Array.from({ length: n }, () => rnd.pick(VOCAB)).join(' ');

function docs(from: number, n: number) {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const mail = i % 4 === 0;
    const who =
      i % 3 === 0
        ? { allow_anonymous_access: true }
        : { allow_anonymous_access: false, allowed_users: [{ email: USERS[i % USERS.length] }] };
    return {
      datasource: mail ? 'mail' : 'wiki',
      id: `d${i}`,
      title: i % 10 === 0 ? 'Shared report' : words(3),
      file_type: mail ? 'email' : 'wiki',
      path: mail ? `Inbox > Thread ${i % 8} > d${i}` : `Space > d${i}`,
      ...(mail ? {} : { data_source_sub: 'hr', data_source_sub_sub: i % 2 ? 'policies' : undefined }),
      last_modified: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
      body: text(i % 10 === 0 ? 'the very same body text of a shared report about harbour lanterns' : words(20)),
      permissions: who,
    };
  });
}

before(async () => {
  h = await searchHarness({ searchThreads: 2 });
  assert.equal(
    (
      await h.api('POST', '/datasources', {
        name: 'wiki',
        display_name: 'Wiki',
        subs: [{ name: 'HR' }, { name: 'Policies', parent_key: 'hr' }],
      })
    ).status,
    200,
  );
  assert.equal((await h.api('POST', '/datasources', { name: 'mail', display_name: 'Mail' })).status, 200);
  await h.register('wiki', ...USERS);
  await h.register('mail', USERS[0], USERS[1]);
  await h.push(docs(0, 120));
  await h.commit();
});
after(() => h.close());

const QUERIES: Record<string, string | number>[] = [
  ...VOCAB.map((q) => ({ query: q, count: 10 })),
  { query: 'harbour lantern', count: 5, start_page: 1 },
  { query: 'Antrag', data_source: 'mail' },
  { query: 'copper', file_type: 'email' },
  { query: 'travel', last_modified_date: 'year' },
  { query: '"shared report"', count: 3 },
  { query: 'report -harbour' },
];

/** Every query for every user: over HTTP (worker threads) and on this thread. */
async function compareAll(): Promise<number> {
  const deps = { state: h.services.state, index: h.index, now: () => Date.now() };
  let results = 0;
  for (const email of USERS) {
    for (const q of QUERIES) {
      const r = await h.search({ email }, q);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const params = toSearchParams(
        validateSearchQuery(Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)]))),
      );
      assert.deepEqual(
        r.body,
        JSON.parse(JSON.stringify(searchDocuments(deps, email, params))),
        `${email} ${JSON.stringify(q)}`,
      );
      results += r.body.results.length;
    }
  }
  return results;
}

const answered = () => (h.services.searchRunner as SearchPool).answered;

test('worker threads answer exactly as the own thread, also after commits', async () => {
  assert.ok(h.services.searchRunner instanceof SearchPool);
  const n0 = answered();
  assert.ok((await compareAll()) > 100, 'the comparison covers results');
  assert.equal(answered() - n0, USERS.length * QUERIES.length, 'every search ran on a worker');
  // adds, replacements and deletions become visible to the workers at the commit
  await h.push([
    ...docs(120, 30),
    ...docs(0, 10).map((d) => ({ ...d, title: 'violin replaced', body: text('violin glacier') })),
  ]);
  for (let i = 20; i < 40; i += 3)
    assert.equal((await h.api('DELETE', `/documents/${i % 4 === 0 ? 'mail' : 'wiki'}/d${i}`)).status, 200);
  const before = await h.search({ email: USERS[0] }, { query: 'violin replaced', count: 50 });
  await h.commit();
  const after = await h.search({ email: USERS[0] }, { query: 'violin replaced', count: 50 });
  assert.ok(after.body.results.length > before.body.results.length, 'committed documents are found at once');
  assert.ok((await compareAll()) > 100);
});

test('a query error comes back from a worker as the same 422', async () => {
  // 1,500 clauses in under 8,192 characters: valid for the route, refused by the engine's parser
  const many = Array.from({ length: 1500 }, (_, i) => `w${i % 100}`).join(' ');
  assert.ok(many.length < 8192);
  const n0 = answered();
  const r = await h.search({ email: USERS[0] }, { query: many });
  assert.equal(r.status, 422);
  assert.equal(answered(), n0 + 1, 'the worker refused it');
  assert.deepEqual(r.body.detail[0].loc, ['query', 'query']);
  assert.match(r.body.detail[0].msg, /clauses/);
});
