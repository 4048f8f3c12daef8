/** GET /api/beta/search: authentication and parameter validation in FastAPI's 422 shape. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

let h: SearchHarness;
const me = { email: 'ann@example.com' };

before(async () => {
  h = await searchHarness();
  assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
  await h.register('wiki', me.email);
  await h.push([
    {
      datasource: 'wiki',
      id: 'a',
      title: 'Travel policy',
      file_type: 'wiki',
      body: { mime_type: 'text/plain', text_content: 'trains and planes' },
    },
  ]);
  await h.commit();
});
after(() => h.close());

const only = async (params: string) => {
  const r = await h.search(me, params);
  assert.equal(r.status, 422, JSON.stringify(r.body));
  assert.equal(r.body.detail.length, 1, JSON.stringify(r.body));
  return r.body.detail[0];
};

describe('authentication', () => {
  test('no key is 401, a service-account key is 403, a personal key is 200', async () => {
    assert.equal((await h.search({ key: null }, 'query=x')).status, 401);
    assert.equal((await h.search({ key: 'bogus' }, 'query=x')).status, 401);
    assert.equal((await h.search({ key: h.key }, 'query=x')).status, 403);
    assert.equal((await h.search(me, 'query=trains')).status, 200);
  });
});

describe('query', () => {
  test('missing is `missing` with input null', async () => {
    assert.deepEqual(await only(''), { type: 'missing', loc: ['query', 'query'], msg: 'Field required', input: null });
  });
  test('empty is string_too_short', async () => {
    assert.deepEqual(await only('query='), {
      type: 'string_too_short',
      loc: ['query', 'query'],
      msg: 'String should have at least 1 character',
      input: '',
      ctx: { min_length: 1 },
    });
  });
  test('over 8192 characters is string_too_long', async () => {
    const d = await only(`query=${'a'.repeat(8193)}`);
    assert.equal(d.type, 'string_too_long');
    assert.deepEqual(d.ctx, { max_length: 8192 });
  });
});

describe('count and start_page', () => {
  test('not an integer is int_parsing with the raw input', async () => {
    for (const bad of ['abc', '1.5', '', '1e2']) {
      assert.deepEqual(await only(`query=x&count=${encodeURIComponent(bad)}`), {
        type: 'int_parsing',
        loc: ['query', 'count'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: bad,
      });
    }
  });
  test('bounds are greater_than_equal / less_than_equal with ctx and the raw input', async () => {
    assert.deepEqual(await only('query=x&count=0'), {
      type: 'greater_than_equal',
      loc: ['query', 'count'],
      msg: 'Input should be greater than or equal to 1',
      input: '0',
      ctx: { ge: 1 },
    });
    assert.deepEqual(await only('query=x&count=101'), {
      type: 'less_than_equal',
      loc: ['query', 'count'],
      msg: 'Input should be less than or equal to 100',
      input: '101',
      ctx: { le: 100 },
    });
    assert.deepEqual(await only('query=x&start_page=-1'), {
      type: 'greater_than_equal',
      loc: ['query', 'start_page'],
      msg: 'Input should be greater than or equal to 0',
      input: '-1',
      ctx: { ge: 0 },
    });
    assert.equal((await only('query=x&start_page=x')).type, 'int_parsing');
  });
  test('Pydantic-lax integers are accepted: whitespace, sign, trailing .0', async () => {
    for (const ok of [' 10 ', '+10', '10.0', '100', '1'])
      assert.equal((await h.search(me, `query=x&count=${encodeURIComponent(ok)}`)).status, 200, ok);
  });
});

describe('lists and dates', () => {
  test('unknown file_type is a value_error naming the allowed values', async () => {
    const d = await only('query=x&file_type=pdf,spreadsheet');
    assert.equal(d.type, 'value_error');
    assert.deepEqual(d.loc, ['query', 'file_type']);
    assert.equal(d.input, 'pdf,spreadsheet');
    assert.match(d.msg, /'pdf'.*'other'/);
  });
  test('data_source: categories and pushed names pass, unknown names are 422', async () => {
    assert.equal((await h.search(me, 'query=x&data_source=wikitool,other')).status, 200);
    assert.equal((await h.search(me, 'query=x&data_source=wiki')).status, 200);
    const d = await only('query=x&data_source=wiki,nosuch');
    assert.equal(d.type, 'value_error');
    assert.deepEqual(d.loc, ['query', 'data_source']);
    assert.match(d.msg, /'nosuch'/);
    assert.equal((await only('query=x&data_source=Not-A-Name')).type, 'value_error');
  });
  test('last_modified_date: presets and exact ranges pass; anything else is a value_error', async () => {
    for (const ok of [
      'allTimes',
      'threeday',
      'week',
      'month',
      'threemonth',
      'year',
      'fiveyear',
      '2026-01-01T00:00:00.000Z_2026-02-01T00:00:00.000Z',
    ]) {
      assert.equal((await h.search(me, `query=x&last_modified_date=${ok}`)).status, 200, ok);
    }
    for (const bad of [
      'decade',
      '2026-01-01_2026-02-01',
      '2026-01-01T00:00:00Z_2026-02-01T00:00:00Z',
      '2026-02-30T00:00:00.000Z_2026-03-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z_2026-02-01T00:00:00.000Z',
    ]) {
      const d = await only(`query=x&last_modified_date=${bad}`);
      assert.equal(d.type, 'value_error', bad);
      assert.deepEqual(d.loc, ['query', 'last_modified_date']);
      assert.equal(d.input, bad);
    }
  });
  test('language accepts de and en only (literal_error)', async () => {
    assert.equal((await h.search(me, 'query=x&language=en')).status, 200);
    const d = await only('query=x&language=fr');
    assert.equal(d.type, 'literal_error');
    assert.deepEqual(d.loc, ['query', 'language']);
  });
});

describe('FastAPI behaviour', () => {
  test('several bad parameters give one item each, in parameter order', async () => {
    const r = await h.search(me, 'count=0&start_page=x&file_type=zip');
    assert.equal(r.status, 422);
    assert.deepEqual(
      r.body.detail.map((d: { loc: string[] }) => d.loc[1]),
      ['query', 'count', 'file_type', 'start_page'],
    );
  });
  test('unknown parameters are ignored; a repeated parameter counts with its last value', async () => {
    assert.equal((await h.search(me, 'query=trains&foo=bar&page=2')).status, 200);
    assert.equal((await h.search(me, 'query=trains&count=0&count=5')).status, 200);
    assert.equal((await h.search(me, 'query=trains&count=5&count=0')).status, 422);
  });
});
