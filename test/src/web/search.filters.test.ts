/**
 * The search page's filters over HTTP: each filter (datasource, source category, file type,
 * date preset, custom range, combined) narrows the results exactly as the API does for the
 * same person's key, and the choices offered are the spec's categories and the datasources
 * the person is registered on, by display name.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { webServer, type HttpBrowser, type WebServer } from '../../support/web.ts';
import { apiResults, pageClient, resultLinks, seedSearchFixture, url, type SearchFixture } from './search.fixture.ts';

let s: WebServer;
let f: SearchFixture;
let b: HttpBrowser;

before(async () => {
  s = await webServer();
  f = await seedSearchFixture(s);
  b = await pageClient(s, f.ada, 'en');
});
after(() => s?.close());

async function links(query: string): Promise<string[]> {
  const res = await b.request(`/?${query}`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  return resultLinks(res.text);
}

const ALL = ['mail/offsite-1', 'wiki/travel-policy', 'mail/offsite-2', 'wiki/rail-booking', 'drive/expenses'];
const cases: { name: string; page: string; api: Record<string, string>; expect: string[] }[] = [
  { name: 'no filter', page: '', api: {}, expect: ALL },
  {
    name: 'datasource',
    page: 'ds=drive',
    api: { data_source: 'drive' },
    expect: ['drive/travel-policy-pdf', 'drive/expenses'],
  },
  { name: 'category of pushed sources', page: 'ds=other', api: { data_source: 'other' }, expect: ALL },
  { name: 'category with no source', page: 'ds=wikitool', api: { data_source: 'wikitool' }, expect: [] },
  { name: 'file type', page: 'type=pdf', api: { file_type: 'pdf' }, expect: ['drive/travel-policy-pdf'] },
  {
    name: 'file type email',
    page: 'type=email',
    api: { file_type: 'email' },
    expect: ['mail/offsite-1', 'mail/offsite-2'],
  },
  {
    name: 'date preset',
    page: 'date=week',
    api: { last_modified_date: 'week' },
    expect: ['mail/offsite-1', 'wiki/travel-policy', 'mail/offsite-2'],
  },
  {
    name: 'custom range',
    page: 'date=custom&from=2023-01-01&to=2023-12-31',
    api: { last_modified_date: '2023-01-01T00:00:00.000Z_2023-12-31T23:59:59.999Z' },
    expect: ['drive/expenses'],
  },
  {
    name: 'custom range of one day (inclusive)',
    page: 'date=custom&from=2023-03-14&to=2023-03-14',
    api: { last_modified_date: '2023-03-14T00:00:00.000Z_2023-03-14T23:59:59.999Z' },
    expect: ['drive/expenses'],
  },
  {
    name: 'custom range open at the start',
    page: 'date=custom&to=2025-01-01',
    api: { last_modified_date: '0000-01-01T00:00:00.000Z_2025-01-01T23:59:59.999Z' },
    expect: ['drive/expenses'],
  },
  {
    name: 'from and to without date=custom do not filter',
    page: 'from=2023-01-01&to=2023-12-31',
    api: {},
    expect: ALL,
  },
  {
    name: 'datasource and file type together',
    page: 'ds=drive&type=excel',
    api: { data_source: 'drive', file_type: 'excel' },
    expect: ['drive/expenses'],
  },
];

for (const c of cases) {
  test(`filter: ${c.name} gives the API's results`, async () => {
    const page = await links(`q=travel${c.page ? `&${c.page}` : ''}`);
    assert.deepEqual(page, c.expect.map(url));
    const api = await apiResults(s, f.ada, { query: 'travel', language: 'en', count: '10', ...c.api });
    assert.deepEqual(
      page,
      api.map((r) => r.path_preview),
    );
  });
}

test('the form shows the filters of the address as chosen', async () => {
  const html = (await b.request('/?q=travel&ds=drive&type=excel&date=custom&from=2023-01-01&to=2023-12-31')).text;
  assert.match(html, /<option value="drive" selected="">Shared Drive<\/option>/);
  assert.match(html, /<option value="excel" selected="">Excel<\/option>/);
  assert.match(html, /<option value="custom" selected="">Custom range<\/option>/);
  assert.match(html, /<input id="f-from" name="from" type="date" value="2023-01-01"\/>/);
  assert.match(html, /<input id="f-to" name="to" type="date" value="2023-12-31"\/>/);
});

test('datasource choices: the categories, and only the datasources the person is registered on', async () => {
  const html = (await b.request('/?q=travel')).text;
  const yours = /<optgroup label="Your data sources">(.*?)<\/optgroup>/.exec(html)?.[1] ?? '';
  assert.deepEqual(
    [...yours.matchAll(/<option value="(\w+)">([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]),
    [
      ['mail', 'Mail'],
      ['drive', 'Shared Drive'],
      ['wiki', 'Team Wiki'],
    ],
  );
  assert.doesNotMatch(html, /Board Room/);
  const kinds = /<optgroup label="Kinds of source">(.*?)<\/optgroup>/.exec(html)?.[1] ?? '';
  assert.equal([...kinds.matchAll(/<option /g)].length, 7);
  assert.match(kinds, /<option value="fileshares">File shares<\/option>/);
});
