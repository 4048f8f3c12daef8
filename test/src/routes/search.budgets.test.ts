/**
 * Search budgets through GET /api/beta/search (README, Search budgets), on this thread and on
 * a search worker: a query over a limit of its planned cost gets a 422 in the validation
 * envelope naming the limit; a query that spends its work budget answers 200 with the best
 * hits found so far, in the order of the full ranking; both are logged with the request id.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../../src/app.ts';
import { createLogger } from '../../../src/log.ts';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

const WORDS = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'granite', 'harbor'];
const USER = 'reader@example.com';

/** 600 documents over a few common words (long postings lists, many windows), each with words of its own (no near-duplicates). */
function documents() {
  return Array.from({ length: 600 }, (_, i) => {
    const words = Array.from({ length: 4 + (i % 13) }, (_, k) => WORDS[(i * 7 + k * k * 3 + (i % 5)) % WORDS.length]);
    for (let k = 0; k < 12; k++) words.push(`own${(i * 31 + k * 17) % 997}x${k}`);
    return {
      datasource: 'wiki',
      id: `d${i}`,
      title: `Note ${i} ${words[0]}`,
      file_type: 'wiki',
      last_modified: '2026-01-01T00:00:00Z',
      body: { mime_type: 'text/plain', text_content: words.join(' ') + '.' },
      permissions: { allow_anonymous_access: true },
    };
  });
}

/** A harness with `env`, the documents pushed, and an app whose log lines are kept. */
async function budgetHarness(env: Record<string, string>, searchThreads: number) {
  const h = await searchHarness({ env, searchThreads });
  await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
  await h.register('wiki', USER);
  // four commits: four segments, so a budget is also asked at each segment's start
  const all = documents();
  for (let i = 0; i < all.length; i += 150) {
    await h.push(all.slice(i, i + 150));
    await h.commit();
  }
  const lines: Record<string, unknown>[] = [];
  const app = createApp({ ...h.services, log: createLogger('info', (line) => lines.push(JSON.parse(line))) });
  const key = await h.personal(USER);
  const search = async (query: string, requestId: string, count = 10, page = 0) => {
    const params = new URLSearchParams({ query, count: String(count), start_page: String(page) });
    const res = await app.request(`/api/beta/search?${params}`, {
      headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId },
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { h, lines, search };
}

for (const threads of [0, 1]) {
  describe(threads === 0 ? 'searches on this thread' : 'searches on a worker', () => {
    let full: Awaited<ReturnType<typeof budgetHarness>>;
    let tight: Awaited<ReturnType<typeof budgetHarness>>;
    const harnesses: SearchHarness[] = [];
    before(async () => {
      full = await budgetHarness({}, threads);
      tight = await budgetHarness(
        { SEARCH_MAX_WORK: '2', SEARCH_MAX_PLANNED_WORK: '10', SEARCH_MAX_TERMS: '6', SEARCH_MAX_CLAUSES: '5' },
        threads,
      );
      harnesses.push(full.h, tight.h);
    });
    after(async () => {
      for (const h of harnesses) await h.close();
    });

    it('refuses a query over its planned work with a 422 naming the limit, and logs it with the request id', async () => {
      const query = 'amber basalt cobalt dune';
      assert.equal((await full.search(query, 'ok-1')).status, 200);
      const r = await tight.search(query, 'refused-1');
      assert.equal(r.status, 422);
      assert.equal(r.body.detail.length, 1);
      const item = r.body.detail[0];
      assert.deepEqual(item.loc, ['query', 'query']);
      assert.equal(item.type, 'value_error');
      assert.equal(item.input, query);
      assert.match(
        item.msg,
        /^Value error, query would cost up to \d+ work units .*the limit is 10 \(SEARCH_MAX_PLANNED_WORK\)$/,
      );
      const logged = tight.lines.find((l) => l.requestId === 'refused-1' && /search refused/.test(String(l.msg)));
      assert.equal(logged?.limit, 'SEARCH_MAX_PLANNED_WORK');
    });

    it('refuses more clauses or expanded terms than allowed, naming the variable', async () => {
      const clauses = await tight.search('granite harbor fjord ember dune cobalt', 'clauses-1');
      assert.equal(clauses.status, 422);
      assert.match(clauses.body.detail[0].msg, /6 clauses, the limit is 5 \(SEARCH_MAX_CLAUSES\)$/);
      // technical words expand into their whole form and their parts
      const terms = await tight.search('il6 tnf7 x9', 'terms-1');
      assert.equal(terms.status, 422);
      assert.match(terms.body.detail[0].msg, /index terms, the limit is 6 \(SEARCH_MAX_TERMS\)$/);
    });

    it('answers a query that spends its work budget with the best hits found so far, in ranking order', async () => {
      const query = 'amber';
      const ranking: string[] = [];
      for (let page = 0; ; page++) {
        const r = await full.search(query, 'rank-1', 100, page);
        ranking.push(...r.body.results.map((x: { id: string }) => x.id));
        if (r.body.results.length < 100) break;
      }
      assert.ok(ranking.length > 20);
      const r = await tight.search(query, 'cut-1', 20);
      assert.equal(r.status, 200);
      const ids: string[] = r.body.results.map((x: { id: string }) => x.id);
      assert.ok(ids.length > 0);
      assert.notDeepEqual(ids, ranking.slice(0, 20), 'the budget changed the answer');
      // the hits found keep their order of the full ranking (exact scores)
      const positions = ids.map((id) => ranking.indexOf(id));
      assert.ok(
        positions.every((p) => p >= 0),
        'every hit is a match',
      );
      assert.deepEqual(
        positions,
        [...positions].sort((a, b) => a - b),
      );
      const logged = tight.lines.find(
        (l) => l.requestId === 'cut-1' && /search stopped by its budget/.test(String(l.msg)),
      );
      assert.equal(logged?.level, 'warn');
      assert.equal(logged?.limit, 'work');
      assert.ok(Number(logged?.work) > 2);
    });

    it('answers exactly as without budgets when none is reached', async () => {
      const unbounded = await budgetHarness(
        { SEARCH_MAX_WORK: '1000000000', SEARCH_MAX_PLANNED_WORK: '1000000000', SEARCH_TIME_BUDGET_MS: '3600000' },
        threads,
      );
      harnesses.push(unbounded.h);
      for (const query of ['amber basalt', 'fjord', '"cobalt dune" granite', 'harbor -ember']) {
        const a = await full.search(query, 'same-1', 30);
        const b = await unbounded.search(query, 'same-2', 30);
        assert.equal(JSON.stringify(a.body), JSON.stringify(b.body), query);
      }
      assert.ok(!full.lines.some((l) => /search (stopped|refused)/.test(String(l.msg))));
    });
  });
}
