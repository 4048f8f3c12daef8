/**
 * The search page tests' data, pushed through the Indexing API into a real
 * server (test/support/web.ts): three datasources the two people are
 * registered on (Team Wiki with subs, Shared Drive, Mail) and one they are
 * not (Board Room); a travel policy with a copy in the drive (duplicates), a
 * third copy only the `hr` group may see, a mail thread with one mail only
 * Eve may see, 23 meeting minutes (three pages of results), documents of
 * different ages for the date filters. Ada is not in `hr`; Eve is. Every
 * document has its own `path_preview`, so a page's links identify them.
 */
import assert from 'node:assert/strict';
import { HttpBrowser, type Person, type WebServer } from '../../support/web.ts';

export const DAY = 86_400_000;
export const url = (id: string) => `https://intranet.example.com/${id}`;
const text = (t: string) => ({ mime_type: 'text/plain', text_content: t });

const POLICY =
  'Book trains for business travel under 600 km and economy flights beyond that. Hotels up to 140 euros a night are approved without a second signature; submit receipts within thirty days of returning.';
const MINUTES = 'The platform team reviewed the release plan, the on-call rota and open incidents.';

/** path_preview of the documents Ada must never see (on the page, in any list). */
export const HIDDEN_FROM_ADA = [url('wiki/travel-policy-hr'), url('mail/offsite-3'), url('board/travel-budget')];

export interface SearchFixture {
  ada: Person;
  eve: Person;
}

export async function seedSearchFixture(s: WebServer, now = Date.now()): Promise<SearchFixture> {
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();
  const ok = async (p: Promise<{ status: number; body: unknown }>) => {
    const r = await p;
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  await ok(
    s.api('POST', '/datasources', {
      name: 'wiki',
      display_name: 'Team Wiki',
      subs: [
        { name: 'People & Culture', key: 'people' },
        { name: 'Engineering', key: 'eng' },
        { name: 'Platform team', key: 'platform', parent_key: 'eng' },
      ],
    }),
  );
  await ok(s.api('POST', '/datasources', { name: 'drive', display_name: 'Shared Drive', subs: [{ name: 'Finance' }] }));
  await ok(s.api('POST', '/datasources', { name: 'mail', display_name: 'Mail' }));
  await ok(s.api('POST', '/datasources', { name: 'board', display_name: 'Board Room' }));
  const ada = await s.person('ada@example.com', { name: 'Ada Berg', datasources: ['wiki', 'drive', 'mail'] });
  const eve = await s.person('eve@example.com', { name: 'Eve Krause', datasources: ['wiki', 'drive', 'mail'] });
  await ok(s.api('POST', '/groups', { datasource: 'wiki', group: { name: 'hr' } }));
  await ok(
    s.api('POST', '/memberships', { datasource: 'wiki', membership: { group_name: 'hr', member_email: eve.email } }),
  );

  const wiki = (id: string, over: Record<string, unknown>) => ({
    datasource: 'wiki',
    id,
    file_type: 'wiki',
    path_preview: url(`wiki/${id}`),
    ...over,
  });
  const policy = { title: 'Travel policy 2026', author: 'Maria Schneider', body: text(POLICY) };
  const docs: Record<string, unknown>[] = [
    wiki('travel-policy', {
      ...policy,
      data_source_sub: 'people',
      path: 'People & Culture > Policies > Travel policy 2026',
      last_modified: at(2),
    }),
    {
      ...policy,
      datasource: 'drive',
      id: 'travel-policy-pdf',
      file_type: 'file',
      body: { mime_type: 'application/pdf', text_content: POLICY },
      path: 'Finance > Policies > travel-policy-2026.pdf',
      path_preview: url('drive/travel-policy-pdf'),
      data_source_sub: 'finance',
      last_modified: at(40),
    },
    wiki('travel-policy-hr', {
      ...policy,
      data_source_sub: 'people',
      path: 'People & Culture > Drafts > Travel policy 2026',
      last_modified: at(3),
      permissions: { allowed_groups: ['hr'] },
    }),
    wiki('rail-booking', {
      title: 'Booking business trips by train',
      author: 'Jonas Weber',
      data_source_sub: 'people',
      path: 'People & Culture > How-to > Booking business trips by train',
      last_modified: at(200),
      body: text('Use the rail portal to book travel; the travel policy allows first class on trips over four hours.'),
    }),
    {
      datasource: 'drive',
      id: 'expenses',
      title: 'Expense report template',
      file_type: 'file',
      author: 'Finance team',
      path: 'Finance > Templates > expense-report.xlsx',
      path_preview: url('drive/expenses'),
      data_source_sub: 'finance',
      last_modified: '2023-03-14T09:30:00Z',
      body: {
        mime_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        text_content: 'Travel expenses: date, destination, train or flight, hotel nights, meals, total.',
      },
    },
    ...[1, 2, 3].map((n) => ({
      datasource: 'mail',
      id: `offsite-${n}`,
      title: n === 1 ? 'Travel to the Hamburg offsite' : 'Re: Travel to the Hamburg offsite',
      file_type: 'email',
      author: ['Lena Fischer', 'Ada Berg', 'Eve Krause'][n - 1],
      path: `Inbox > Hamburg offsite > offsite-${n}`,
      path_preview: url(`mail/offsite-${n}`),
      last_modified: at(6 - n),
      body: text(
        [
          'We travel to Hamburg by the 8:05 train on Thursday; seats are reserved in coach 12.',
          'Thanks! Can we share a taxi from the station to the venue?',
          'Private note: the travel budget for the offsite is nearly used up.',
        ][n - 1],
      ),
      ...(n === 3 ? { permissions: { allowed_users: [{ email: eve.email }] } } : {}),
    })),
    {
      datasource: 'board',
      id: 'travel-budget',
      title: 'Travel budget 2027',
      file_type: 'wiki',
      path_preview: url('board/travel-budget'),
      last_modified: at(1),
      body: text('The travel budget for 2027 is cut by a tenth; trains first.'),
    },
    ...Array.from({ length: 23 }, (_, i) =>
      wiki(`minutes-${i + 1}`, {
        title: `Platform team minutes, week ${i + 1}`,
        author: 'Jonas Weber',
        data_source_sub: 'eng',
        data_source_sub_sub: 'platform',
        path: `Engineering > Platform team > Minutes > Week ${i + 1}`,
        last_modified: at(7 * (23 - i) + 10),
        body: text(`${MINUTES} Week ${i + 1}: ${'action items '.repeat((i % 5) + 1)}`),
      }),
    ),
  ];
  const pushed = await s.api('POST', '/documents', { documents: docs });
  assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
  for (const r of pushed.body.results) assert.equal(r.outcome, 'sent', JSON.stringify(r));
  await s.commit();
  return { ada, eve };
}

/** The API's results for a person's key (the page must show the same). */
export async function apiResults(s: WebServer, who: Person, params: Record<string, string>) {
  const res = await fetch(`${s.base}/api/beta/search?${new URLSearchParams(params)}`, {
    headers: { authorization: `Bearer ${who.key}` },
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { results: any[] }).results;
}

/** The address each result title links to, in page order ('' for a title shown as text). */
export function resultLinks(html: string): string[] {
  return [
    ...html.matchAll(
      /<h3 id="result-\d+" class="result-title"(?: elementtiming="first-result")?>(?:<a href="([^"]*)")?/g,
    ),
  ].map((m) => m[1] ?? '');
}

/** Every intranet address the page links to (results and their related lists). */
export function intranetLinks(html: string): string[] {
  return [...html.matchAll(/href="(https:\/\/intranet\.example\.com\/[^"]*)"/g)].map((m) => m[1]);
}

/** A signed-in page client for `who` with the page language `lang`. */
export async function pageClient(s: WebServer, who: Person, lang: 'de' | 'en' = 'en') {
  const b = new HttpBrowser(s.base);
  const signedIn = await b.signIn(who.email, who.password);
  assert.equal(signedIn.status, 303);
  b.cookies.set('es_lang', lang);
  return b;
}
