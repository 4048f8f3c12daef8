/** GET /api/beta/search: the whitelisted result record, related lists, filters, pagination and languages. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SEARCH_RESULT_FIELDS, RELATED_DOC_FIELDS } from '../../../src/search/result.ts';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

let h: SearchHarness;
const ann = { email: 'ann@example.com' };
const bob = { email: 'bob@example.com' };
const text = (t: string) => ({ mime_type: 'text/plain', text_content: t });
const SHARED =
  'Quarterly revenue grew in every region while logistics costs fell sharply across the northern warehouses and the southern depots.';

before(async () => {
  h = await searchHarness();
  assert.equal(
    (
      await h.api('POST', '/datasources', {
        name: 'wiki',
        display_name: 'Wiki',
        subs: [{ name: 'HR' }, { name: 'Policies', parent_key: 'hr' }, { name: 'Sales' }],
      })
    ).status,
    200,
  );
  assert.equal((await h.api('POST', '/datasources', { name: 'mail', display_name: 'Mail' })).status, 200);
  await h.register('wiki', ann.email, bob.email);
  await h.register('mail', ann.email);
  const now = new Date().toISOString();
  await h.push([
    {
      datasource: 'wiki',
      id: 'p1',
      title: 'Travel <policy> & "rules"',
      file_type: 'wiki',
      path: 'Wiki > HR > Travel',
      path_preview: 'https://wiki/p1',
      author: 'Ann Admin',
      last_modified: now,
      data_source_sub: 'hr',
      data_source_sub_sub: 'policies',
      body: text('Employees <script>alert(1)</script> book trains for trips under 500 km.'),
    },
    {
      datasource: 'wiki',
      id: 'u1',
      title: 'Urlaubsantrag stellen',
      file_type: 'wiki',
      last_modified: '2020-01-01T00:00:00Z',
      data_source_sub: 'sales',
      body: text('Der Urlaubsantrag wird im Personalportal gestellt und vom Vorgesetzten genehmigt.'),
    },
    {
      datasource: 'wiki',
      id: 'e1',
      title: 'Expense reports',
      file_type: 'wiki',
      last_modified: '2021-06-01T00:00:00Z',
      body: text('Submit receipts for hotels and meals within thirty days of travelling.'),
    },
    { datasource: 'wiki', id: 'dup1', title: 'Revenue report', file_type: 'wiki', body: text(SHARED) },
    { datasource: 'wiki', id: 'dup2', title: 'Revenue report', file_type: 'wiki', body: text(SHARED) },
    { datasource: 'mail', id: 'dup3', title: 'Revenue report', file_type: 'email', body: text(SHARED) },
    {
      datasource: 'wiki',
      id: 'secret',
      title: 'Revenue report',
      file_type: 'wiki',
      body: text(SHARED),
      permissions: { allowed_users: [{ email: 'carl@example.com' }] },
    },
    {
      datasource: 'mail',
      id: 'm1',
      title: 'Offsite planning',
      file_type: 'email',
      path: 'Inbox > Offsite > m1',
      body: text('Shall we book the offsite venue near the lake?'),
    },
    {
      datasource: 'mail',
      id: 'm2',
      title: 'Re: Offsite planning',
      file_type: 'email',
      path: 'Inbox > Offsite > m2',
      body: text('The lake venue is free in May.'),
    },
    {
      datasource: 'mail',
      id: 'm3',
      title: 'Re: Offsite planning',
      file_type: 'email',
      path: 'Inbox > Offsite > m3',
      body: text('Confirmed the lake venue.'),
      permissions: { allowed_users: [{ email: 'bob@example.com' }] },
    },
  ]);
  await h.commit();
  // Deleting a sub leaves documents without the sub binding.
  assert.equal((await h.api('DELETE', '/datasources/wiki/subs/sales')).status, 200);
});
after(() => h.close());

const results = async (who: { email: string }, params: Record<string, string | number>) => {
  const r = await h.search(who, params);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(Object.keys(r.body), ['results']);
  return r.body.results as any[];
};

describe('the result record', () => {
  test('has exactly the 19 whitelisted fields with their types', async () => {
    const [r] = await results(ann, { query: 'trains' });
    assert.deepEqual(Object.keys(r), [...SEARCH_RESULT_FIELDS]);
    for (const f of SEARCH_RESULT_FIELDS) {
      if (f === 'file_size') assert.ok(Number.isInteger(r[f]));
      else if (['highlights', 'similar_docs', 'duplicates', 'same_thread_docs'].includes(f))
        assert.ok(Array.isArray(r[f]), f);
      else assert.equal(typeof r[f], 'string', f);
    }
    assert.equal(r.id, 'wiki:p1');
    assert.equal(r.title, 'Travel <policy> & "rules"');
    assert.equal(r.path, 'Wiki > HR > Travel');
    assert.equal(r.parent_path, 'Wiki > HR');
    assert.equal(r.path_preview, 'https://wiki/p1');
    assert.equal(r.data_source, 'wiki');
    assert.equal(r.data_source_sub, 'wiki__hr');
    assert.equal(r.data_source_sub_sub, 'wiki__hr__policies');
    assert.equal(r.file_type, 'wiki');
    assert.equal(r.document_type, 'wiki');
    assert.equal(r.author, 'Ann Admin');
    assert.equal(r.suffix, '', 'text_content has no computed suffix');
    assert.equal(
      r.file_size,
      new TextEncoder().encode('Employees <script>alert(1)</script> book trains for trips under 500 km.').length,
    );
    assert.match(r.summary, /book trains/);
  });

  test('highlights wrap matches in <em> and escape everything else', async () => {
    const [r] = await results(ann, { query: 'trains policy', language: 'en' });
    const all = r.highlights.join(' ');
    assert.match(all, /<em>trains<\/em>/);
    assert.match(all, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(all, /&lt;<em>policy<\/em>&gt; &amp; &quot;rules&quot;/);
    assert.doesNotMatch(all.replace(/<\/?em>/g, ''), /[<>]/);
  });

  test('absent values are empty strings; a deleted sub leaves no binding', async () => {
    const [r] = await results(ann, { query: 'Urlaubsantrag' });
    assert.equal(r.id, 'wiki:u1');
    assert.equal(r.path, '');
    assert.equal(r.parent_path, '');
    assert.equal(r.author, '');
    assert.equal(r.data_source_sub, '');
    assert.equal(r.data_source_sub_sub, '');
  });
});

describe('related documents', () => {
  test('duplicates fold into one result and list every other visible place, never an invisible one', async () => {
    const rs = await results(ann, { query: 'revenue logistics' });
    const revenue = rs.filter((r) => r.title === 'Revenue report');
    assert.equal(revenue.length, 1, 'the same content is shown once');
    const ids = [revenue[0].id, ...revenue[0].duplicates.map((d: { id: string }) => d.id)].sort();
    assert.deepEqual(ids, ['mail:dup3', 'wiki:dup1', 'wiki:dup2']);
    for (const d of revenue[0].duplicates) assert.deepEqual(Object.keys(d), [...RELATED_DOC_FIELDS]);
    const bobs = (await results(bob, { query: 'revenue' })).filter((r) => r.title === 'Revenue report');
    assert.deepEqual(
      [bobs[0].id, ...bobs[0].duplicates.map((d: { id: string }) => d.id)].sort(),
      ['wiki:dup1', 'wiki:dup2'],
      'bob is not on mail',
    );
  });

  test('same_thread_docs lists the other visible mails of the conversation', async () => {
    const rs = await results(ann, { query: 'offsite venue' });
    const m1 = rs.find((r) => r.id === 'mail:m1');
    assert.ok(m1);
    assert.deepEqual(
      m1.same_thread_docs.map((d: { id: string }) => d.id),
      ['mail:m2'],
      'm3 is only for bob, who is not on mail',
    );
    assert.deepEqual(m1.same_thread_docs[0], {
      id: 'mail:m2',
      title: 'Re: Offsite planning',
      path_preview: '',
      data_source: 'mail',
    });
  });

  test('similar_docs are visible documents other than the hit and its duplicates', async () => {
    const rs = await results(ann, { query: 'venue' });
    for (const r of rs) {
      for (const s of r.similar_docs) {
        assert.notEqual(s.id, r.id);
        assert.notEqual(s.id, 'mail:m3');
        assert.notEqual(s.id, 'wiki:secret');
      }
    }
    assert.ok(
      rs.some((r) => r.similar_docs.length > 0),
      'the offsite mails are similar to each other',
    );
  });
});

describe('filters and pagination', () => {
  test('data_source by name and by category', async () => {
    assert.deepEqual((await results(ann, { query: 'revenue venue', data_source: 'mail' })).map((r) => r.id).sort(), [
      'mail:dup3',
      'mail:m1',
      'mail:m2',
    ]);
    assert.ok((await results(ann, { query: 'revenue venue', data_source: 'other' })).length >= 3);
    assert.equal((await results(ann, { query: 'revenue venue', data_source: 'wikitool' })).length, 0);
  });
  test('file_type', async () => {
    const rs = await results(ann, { query: 'revenue venue trains', file_type: 'email' });
    assert.ok(rs.length > 0);
    assert.ok(rs.every((r) => r.file_type === 'email'));
  });
  test('last_modified_date presets and ranges', async () => {
    assert.deepEqual(
      (await results(ann, { query: 'trains receipts Urlaubsantrag', last_modified_date: 'week' })).map((r) => r.id),
      ['wiki:p1'],
    );
    assert.deepEqual(
      (
        await results(ann, {
          query: 'trains receipts Urlaubsantrag',
          last_modified_date: '2021-01-01T00:00:00.000Z_2021-12-31T23:59:59.999Z',
        })
      ).map((r) => r.id),
      ['wiki:e1'],
    );
    const fiveYearsAgo = new Date(Date.now());
    fiveYearsAgo.setUTCFullYear(fiveYearsAgo.getUTCFullYear() - 5);
    const expected = ['wiki:p1', ...(Date.parse('2021-06-01T00:00:00Z') >= fiveYearsAgo.getTime() ? ['wiki:e1'] : [])];
    assert.deepEqual(
      (await results(ann, { query: 'trains receipts Urlaubsantrag', last_modified_date: 'fiveyear' }))
        .map((r) => r.id)
        .sort(),
      expected,
    );
    assert.equal(
      (await results(ann, { query: 'trains receipts Urlaubsantrag' })).length,
      3,
      'no date filter: all three',
    );
  });
  test('count and start_page page through the results without overlap', async () => {
    const all = (await results(ann, { query: 'revenue venue trains receipts lake', count: 100 })).map((r) => r.id);
    assert.ok(all.length >= 4);
    const pages: string[] = [];
    for (let p = 0; p < all.length; p++)
      pages.push(
        ...(await results(ann, { query: 'revenue venue trains receipts lake', count: 1, start_page: p })).map(
          (r) => r.id,
        ),
      );
    assert.deepEqual(pages, all);
    assert.equal((await results(ann, { query: 'trains', start_page: 100000 })).length, 0);
  });
  test('a blank query lists the visible documents within the filters; stopwords alone find nothing', async () => {
    const ids = (await results(ann, { query: ' ', data_source: 'mail' })).map((r) => r.id).sort();
    assert.deepEqual(ids, ['mail:dup3', 'mail:m1', 'mail:m2']);
    assert.equal((await results(ann, { query: 'the und' })).length, 0);
  });
  test('a user registered nowhere sees nothing', async () => {
    assert.equal((await results({ email: 'nobody@example.com' }, { query: 'revenue venue trains' })).length, 0);
  });
});

describe('languages', () => {
  test('a German compound is found by its part (German default)', async () => {
    assert.ok((await results(ann, { query: 'Antrag' })).some((r) => r.id === 'wiki:u1'));
  });
  test('an English document is found with the German hint, and with the English one', async () => {
    assert.ok((await results(ann, { query: 'receipts' })).some((r) => r.id === 'wiki:e1'));
    assert.ok((await results(ann, { query: 'receipt travelling', language: 'en' })).some((r) => r.id === 'wiki:e1'));
    assert.ok((await results(ann, { query: 'hotels' })).some((r) => r.id === 'wiki:e1'));
  });
});

describe('snapshots', () => {
  test('a commit is seen by the next search, in results and in cached related lists', async () => {
    const before = await results(ann, { query: 'revenue' });
    assert.ok(before[0].duplicates.some((d: { id: string }) => d.id === 'wiki:dup2'));
    assert.equal((await h.api('DELETE', '/documents/wiki/dup2')).status, 200);
    await h.push([
      {
        datasource: 'wiki',
        id: 'fresh',
        title: 'Fresh zeppelin notes',
        file_type: 'wiki',
        body: text('Zeppelins float.'),
      },
    ]);
    await h.commit();
    assert.deepEqual(
      (await results(ann, { query: 'zeppelin' })).map((r) => r.id),
      ['wiki:fresh'],
    );
    const after = await results(ann, { query: 'revenue' });
    const all = after.flatMap((r) => [r.id, ...r.duplicates.map((d: { id: string }) => d.id)]);
    assert.ok(!all.includes('wiki:dup2'), 'the deleted duplicate is gone everywhere');
  });
});
