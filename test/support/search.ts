/**
 * Search test harness: the documents harness (real app, engine in memory,
 * durable queue in a temp dir) plus personal account keys and a `search`
 * helper calling GET /api/beta/search through app.request().
 */
import { MASTER_KEY } from './app.ts';
import { docsHarness, type DocsHarnessOptions } from './documents.ts';

export async function searchHarness(opts: DocsHarnessOptions = {}) {
  const h = await docsHarness(opts);
  const keys = new Map<string, string>();

  /** A personal account key for `email` (account created on first use). */
  async function personal(email: string): Promise<string> {
    const known = keys.get(email);
    if (known) return known;
    const acc = await h.call('POST', '/api/admin/accounts', MASTER_KEY, { email });
    if (acc.status !== 200 && acc.status !== 201)
      throw new Error(`account ${email}: ${acc.status} ${JSON.stringify(acc.body)}`);
    const k = await h.call('POST', `/api/admin/accounts/${encodeURIComponent(email)}/keys`, MASTER_KEY, {});
    if (k.status !== 200 && k.status !== 201) throw new Error(`key ${email}: ${k.status} ${JSON.stringify(k.body)}`);
    keys.set(email, k.body.key);
    return k.body.key as string;
  }

  /** GET /api/beta/search with `params` (a query string or a record) as `email`'s key, or with a raw key. */
  async function search(
    who: { email: string } | { key: string | null },
    params: string | Record<string, string | number>,
  ) {
    const key = 'email' in who ? await personal(who.email) : who.key;
    const qs =
      typeof params === 'string'
        ? params
        : new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    const res = await h.app.request(`/api/beta/search?${qs}`, { headers });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
  }

  /** Register users on a datasource through the Indexing API. */
  async function register(datasource: string, ...emails: string[]) {
    for (const email of emails) {
      const r = await h.api('POST', '/users', { datasource, user: { email } });
      if (r.status !== 200) throw new Error(`user ${email}: ${r.status} ${JSON.stringify(r.body)}`);
    }
  }

  /** Push documents (bulk) and fail loudly unless every one was sent. */
  async function push(docs: Record<string, unknown>[]) {
    for (let i = 0; i < docs.length; i += 100) {
      const r = await h.api('POST', '/documents', { documents: docs.slice(i, i + 100) });
      const bad = (r.body?.results ?? []).filter(
        (x: { outcome: string }) => x.outcome !== 'sent' && x.outcome !== 'already_indexed',
      );
      if (r.status !== 200 || bad.length > 0)
        throw new Error(`push: ${r.status} ${JSON.stringify(bad.length ? bad : r.body)}`);
    }
  }

  return { ...h, personal, search, register, push };
}

export type SearchHarness = Awaited<ReturnType<typeof searchHarness>>;
