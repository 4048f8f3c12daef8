/**
 * The search page over HTTP: each result shows the record the API gives the same person (title
 * link, breadcrumb, display names, file type, author, date, highlights, summary, related lists),
 * duplicates fold into one result, the page language is the analysis hint, paging, the
 * zero-result state, and bad parameters answered with a message instead of an error page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { webServer, type HttpBrowser, type WebServer } from '../../support/web.ts';
import { apiResults, pageClient, resultLinks, seedSearchFixture, url, type SearchFixture } from './search.fixture.ts';

let s: WebServer;
let f: SearchFixture;
let en: HttpBrowser;
let de: HttpBrowser;

before(async () => {
  s = await webServer();
  f = await seedSearchFixture(s);
  // Two English documents for the language hint: "war" is a German stopword, not an English one.
  const pushed = await s.api('POST', '/documents', {
    documents: [
      {
        datasource: 'wiki',
        id: 'memorial',
        title: 'War memorial restored',
        file_type: 'wiki',
        body: { mime_type: 'text/plain', text_content: 'The war memorial in the park was restored.' },
      },
      {
        datasource: 'wiki',
        id: 'museum',
        title: 'Museum opening hours',
        file_type: 'wiki',
        body: { mime_type: 'text/plain', text_content: 'The museum opens at ten.' },
      },
    ],
  });
  assert.equal(pushed.status, 200);
  await s.commit();
  en = await pageClient(s, f.ada, 'en');
  de = await pageClient(s, f.ada, 'de');
});
after(() => s?.close());

const page = async (b: HttpBrowser, query: string, status = 200) => {
  const res = await b.request(`/?${query}`);
  assert.equal(res.status, status, res.text.slice(0, 300));
  return res.text;
};

/** The markup of the result whose title links to `href`. */
function resultMarkup(html: string, href: string): string {
  const start = html.search(new RegExp(`class="result-title"( elementtiming="first-result")?><a href="${href}"`));
  assert.ok(start > 0, `no result links to ${href}`);
  return html.slice(html.lastIndexOf('<li class="result">', start), html.indexOf('</article>', start));
}

describe('a result', () => {
  test('shows the API record: title link, breadcrumb, display names, type, author, date, highlights, summary', async () => {
    const html = await page(en, 'q=travel');
    const [api] = (await apiResults(s, f.ada, { query: 'travel', language: 'en', count: '10' })).filter(
      (r) => r.id === 'wiki:travel-policy',
    );
    const r = resultMarkup(html, url('wiki/travel-policy'));
    assert.match(
      r,
      /<a href="https:\/\/intranet.example.com\/wiki\/travel-policy"><mark>Travel<\/mark> policy 2026<\/a>/,
    );
    assert.match(r, /<p class="result-path">People &amp; Culture &gt; Policies &gt; Travel policy 2026<\/p>/);
    assert.equal(api.data_source_sub, 'wiki__people', 'the API gives the compound value');
    assert.match(r, /<span class="result-source">Team Wiki › People &amp; Culture<\/span>/);
    assert.match(r, /<span class="result-type">Wiki page<\/span>/);
    assert.match(r, /<span class="result-author">by Maria Schneider<\/span>/);
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    assert.match(
      r,
      new RegExp(`<time datetime="${api.last_modified}">${day.format(Date.parse(api.last_modified))}</time>`),
    );
    assert.match(r, /<li>Book trains for business <mark>travel<\/mark> under 600 km/);
    assert.match(r, /<p class="result-summary">Book trains for business travel under 600 km/);
  });

  test('German: labels, file type and date in German', async () => {
    const html = await page(de, 'q=Spesen+travel');
    const r = resultMarkup(html, url('drive/expenses'));
    assert.match(r, /<span class="result-source">Shared Drive › Finance<\/span>/);
    assert.match(r, /<span class="result-type">Excel<\/span>/);
    assert.match(r, /<time datetime="2023-03-14T09:30:00Z">14\. März 2023<\/time>/);
    assert.match(html, /<label for="f-type">Dateityp<\/label>/);
    assert.match(html, /Ergebnisse für „Spesen travel“, Seite 1/);
  });

  test('duplicates fold into one result, "also in N places" lists every place the person may see', async () => {
    const ada = await page(en, 'q=%22travel+policy+2026%22');
    assert.deepEqual(resultLinks(ada), [url('wiki/travel-policy')]);
    assert.match(ada, /<details class="related duplicates"><summary>Also in 1 place<\/summary>/);
    assert.match(
      ada,
      /<a href="https:\/\/intranet.example.com\/drive\/travel-policy-pdf">Travel policy 2026<\/a><span class="related-source">Shared Drive<\/span>/,
    );
    const eve = await page(await pageClient(s, f.eve, 'en'), 'q=%22travel+policy+2026%22');
    assert.equal(resultLinks(eve).length, 1);
    assert.match(eve, /<summary>Also in 2 places<\/summary>/);
  });

  test('same-thread and similar documents are collapsed lists', async () => {
    const r = resultMarkup(await page(en, 'q=hamburg+train'), url('mail/offsite-1'));
    assert.match(
      r,
      /<details class="related same-thread"><summary>Same conversation \(1\)<\/summary><ul><li><a href="https:\/\/intranet.example.com\/mail\/offsite-2">Re: Travel to the Hamburg offsite<\/a>/,
    );
    assert.match(r, /<details class="related similar"><summary>Similar documents \(\d\)<\/summary>/);
  });
});

test('the page language is the analysis hint of the search', async () => {
  // German hint: "war" is a stopword, only "museum" counts; English hint: both words count.
  assert.deepEqual(resultLinks(await page(de, 'q=war+museum')), ['']);
  const english = resultLinks(await page(en, 'q=war+museum'));
  assert.equal(english.length, 2);
  const api = await apiResults(s, f.ada, { query: 'war museum', language: 'en', count: '10' });
  assert.equal(api.length, 2);
});

describe('paging', () => {
  test('ten results a page; next and page numbers while pages are full, none after the last', async () => {
    const one = await page(en, 'q=minutes');
    assert.equal(resultLinks(one).length, 10);
    assert.match(one, /<a href="\/\?q=minutes&amp;page=2" rel="next">Next<\/a>/);
    assert.doesNotMatch(one, /rel="prev"/);
    const three = await page(en, 'q=minutes&page=3');
    assert.equal(resultLinks(three).length, 3);
    assert.doesNotMatch(three, /rel="next"/);
    assert.match(three, /<a href="\/\?q=minutes&amp;page=2" rel="prev">Previous<\/a>/);
    assert.match(three, /<a href="\/\?q=minutes&amp;page=3" aria-current="page" aria-label="Page 3">3<\/a>/);
    assert.match(three, /<ol class="result-list" start="21">/);
    const api = await apiResults(s, f.ada, { query: 'minutes', language: 'en', count: '10', start_page: '2' });
    assert.deepEqual(
      resultLinks(three),
      api.map((r) => r.path_preview),
    );
  });

  test('a page past the last result says so and links to the first page', async () => {
    const html = await page(en, 'q=minutes&type=wiki&page=9');
    assert.match(html, /There are no more results on page 9\./);
    assert.match(html, /<a href="\/\?q=minutes&amp;type=wiki">Go to the first page<\/a>/);
  });
});

test('zero results: spelling, fewer words, and the same query without filters', async () => {
  const html = await page(en, 'q=travel&ds=codehost&type=pdf');
  assert.deepEqual(resultLinks(html), []);
  assert.match(html, /No results for “travel”\./);
  assert.match(html, /Check the spelling\./);
  assert.match(html, /<a href="\/\?q=travel">Search without filters<\/a>/);
  const unfiltered = await page(en, 'q=zzyzx');
  assert.match(unfiltered, /No results for “zzyzx”\./);
  assert.doesNotMatch(unfiltered, /Search without filters/);
});

test('no query yet: the form and an introduction, no search', async () => {
  const html = await page(en, '');
  assert.match(html, /class="hint search-intro"/);
  assert.doesNotMatch(html, /results-title/);
});

describe('bad parameters get a message on the page (422), never an error page', () => {
  const cases: [string, RegExp][] = [
    ['q=travel&page=0', /The page number is not valid/],
    ['q=travel&page=two', /The page number is not valid/],
    ['q=travel&date=custom&from=2026-02-30', /The date range is not valid/],
    ['q=travel&date=custom&from=2026-05-01&to=2026-04-01', /The date range is not valid/],
    ['q=travel&date=yesterday', /The date range is not valid/],
    ['q=travel&ds=no_such_source', /names a source that does not exist/],
    ['q=travel&ds=Not-A-Slug', /names a source that does not exist/],
    ['q=travel&type=spreadsheet', /not one of the known file types/],
    [`q=${'word+'.repeat(2000)}`, /The query is too long or has too many words/],
  ];
  for (const [query, message] of cases) {
    test(query.slice(0, 60), async () => {
      const html = await page(en, query, 422);
      assert.match(html, /<div class="error search-error" role="alert">/);
      assert.match(html, message);
      assert.match(html, /<input id="q" name="q" type="search"/, 'the form is still there');
    });
  }
});
