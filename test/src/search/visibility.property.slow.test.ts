/**
 * Visibility property test: random datasources, registered users, nested groups
 * (cycles refused by the API, as the model predicts) and documents with random
 * permissions, exact duplicates and mail threads, all pushed through the real
 * Indexing API and committed. For every user (and one registered nowhere) and
 * random queries and filters, every search is compared with a brute-force
 * reference model: results, duplicates and same-thread lists exactly; similar
 * documents against the unfiltered engine ranking filtered by the model. Then
 * the control plane changes (membership removed, group renamed, user deleted)
 * and everything is checked again, without re-indexing. Zero leaks, zero misses.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, analyzeQuery } from '../../../engine/analysis/index.ts';
import { prng } from '../../support/prng.ts';
import { similarOptions } from '../../../src/search/result.ts';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

const SEED = 20261121;
const rnd = prng(SEED);
const DATASOURCES = ['alpha', 'beta', 'gamma'];
const USERS = Array.from({ length: 8 }, (_, i) => `user${i}@example.org`);
const NOBODY = 'nobody@example.org';
const GROUPS = ['g0', 'g1', 'g2', 'g3', 'g4'];

/** Made-up words that every analyzer path keeps as exactly themselves (so the model's matching is exact). */
function vocabulary(n: number): string[] {
  const c = 'bdfgklmnprstvz';
  const vow = 'aeiou';
  const out: string[] = [];
  for (let i = 0; out.length < n && i < 10_000; i++) {
    const w =
      c[rnd.int(c.length)] + vow[rnd.int(5)] + c[rnd.int(c.length)] + vow[rnd.int(5)] + c[rnd.int(c.length)] + 'x';
    if (out.includes(w)) continue;
    const q = analyzeQuery(w, 'de');
    const ok =
      q.length === 1 &&
      q[0].terms.length === 1 &&
      q[0].terms[0] === w &&
      q[0].parts.length === 0 &&
      analyzeQuery(w, 'en')[0]?.terms.join() === w &&
      analyze(w, 'de')
        .map((t) => t.term)
        .join() === w &&
      analyze(w, 'en')
        .map((t) => t.term)
        .join() === w;
    if (ok) out.push(w);
  }
  return out;
}
const VOCAB = vocabulary(60);

interface ModelDoc {
  key: string;
  ds: string;
  words: Set<string>;
  content: string;
  anonymous: boolean;
  users: string[];
  groups: string[];
  thread: string | null;
  fileType: string;
}

interface ModelDs {
  users: Set<string>;
  /** group -> direct user members and direct group members */
  groups: Map<string, { users: Set<string>; groups: Set<string> }>;
}

const model = new Map<string, ModelDs>();
const docs: ModelDoc[] = [];
let h: SearchHarness;

function reaches(ds: ModelDs, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const g = stack.pop()!;
    if (g === to) return true;
    if (seen.has(g)) continue;
    seen.add(g);
    for (const child of ds.groups.get(g)?.groups ?? []) stack.push(child);
  }
  return false;
}

/** Brute force: is `email` a member of `group` through any chain of nested groups? */
function memberOf(ds: ModelDs, email: string, group: string, seen = new Set<string>()): boolean {
  const g = ds.groups.get(group);
  if (!g || seen.has(group)) return false;
  seen.add(group);
  if (g.users.has(email)) return true;
  for (const child of g.groups) if (memberOf(ds, email, child, seen)) return true;
  return false;
}

function visible(email: string, d: ModelDoc): boolean {
  const ds = model.get(d.ds)!;
  if (!ds.users.has(email)) return false;
  return d.anonymous || d.users.includes(email) || d.groups.some((g) => memberOf(ds, email, g));
}

const pickSome = <T>(xs: readonly T[], p: number) => xs.filter(() => rnd.next() < p);

before(async () => {
  h = await searchHarness();
  for (const name of DATASOURCES) {
    assert.equal((await h.api('POST', '/datasources', { name, display_name: name })).status, 200);
    const ds: ModelDs = { users: new Set(), groups: new Map() };
    model.set(name, ds);
    for (const email of pickSome(USERS, 0.65)) {
      await h.register(name, email);
      ds.users.add(email);
    }
    for (const g of GROUPS) {
      assert.equal((await h.api('POST', '/groups', { datasource: name, group: { name: g } })).status, 200);
      ds.groups.set(g, { users: new Set(), groups: new Set() });
    }
    for (const email of ds.users) {
      for (const g of pickSome(GROUPS, 0.25)) {
        assert.equal(
          (
            await h.api('POST', '/memberships', {
              datasource: name,
              membership: { group_name: g, member_email: email },
            })
          ).status,
          200,
        );
        ds.groups.get(g)!.users.add(email);
      }
    }
    for (let i = 0; i < 8; i++) {
      const parent = rnd.pick(GROUPS);
      const child = rnd.pick(GROUPS);
      if (ds.groups.get(parent)!.groups.has(child)) continue;
      const r = await h.api('POST', '/memberships', {
        datasource: name,
        membership: { group_name: parent, member_group_name: child },
      });
      const cycle = parent === child || reaches(ds, child, parent);
      assert.equal(r.status, cycle ? 409 : 200, `edge ${parent} <- ${child}: ${JSON.stringify(r.body)}`);
      if (!cycle) ds.groups.get(parent)!.groups.add(child);
    }
  }

  const payloads: Record<string, unknown>[] = [];
  for (let i = 0; i < 140; i++) {
    const ds = rnd.pick(DATASOURCES);
    // Copies (exact duplicates) are of documents without a path: the path is part of the duplicate signature.
    const originals = docs.filter((d) => !d.thread);
    const source = originals.length > 0 && rnd.next() < 0.15 ? rnd.pick(originals) : null;
    const words = source
      ? [...source.content.split(' ')]
      : Array.from({ length: 18 + rnd.int(10) }, () => rnd.pick(VOCAB));
    const content = words.join(' ');
    const isMail = !source && rnd.next() < 0.3;
    const thread = isMail ? `t${rnd.int(4)}` : null;
    const roll = rnd.next();
    const anonymous = roll < 0.2;
    const noBlock = roll >= 0.2 && roll < 0.3;
    const users = anonymous || noBlock ? [] : pickSome([...USERS, NOBODY], 0.15);
    const groups = anonymous || noBlock ? [] : pickSome([...GROUPS, 'ghost'], 0.2);
    const id = `d${i}`;
    const fileType = isMail ? 'email' : source ? source.fileType : rnd.pick(['wiki', 'issue', 'file']);
    docs.push({
      key: `${ds}:${id}`,
      ds,
      words: new Set(words),
      content,
      anonymous: anonymous || noBlock,
      users,
      groups,
      thread: thread ? `${ds}|${thread}` : null,
      fileType,
    });
    payloads.push({
      datasource: ds,
      id,
      title: 'copy',
      file_type: fileType,
      ...(thread ? { path: `Inbox > ${thread} > ${id}` } : {}),
      body: { mime_type: 'text/plain', text_content: content },
      ...(noBlock
        ? {}
        : {
            permissions: {
              allow_anonymous_access: anonymous,
              allowed_users: users.map((email) => ({ email })),
              allowed_groups: groups,
            },
          }),
    });
  }
  await h.push(payloads);
  await h.commit();
});
after(() => h.close());

const ids = (xs: { id: string }[]) => xs.map((x) => x.id).sort();
const SEARCH_FILE_TYPE: Record<string, string> = { email: 'email', wiki: 'wiki', issue: 'issue', file: 'txt' };

async function checkEverything(label: string): Promise<number> {
  const searcher = h.index.reader.searcher();
  let checked = 0;
  for (const email of [...USERS, NOBODY]) {
    for (let q = 0; q < 10; q++) {
      const terms = Array.from({ length: 1 + rnd.int(2) }, () => rnd.pick(VOCAB));
      const params: Record<string, string | number> = { query: terms.join(' '), count: 100 };
      let dsFilter: string | null = null;
      let ftFilter: string | null = null;
      if (rnd.next() < 0.25) params.data_source = dsFilter = rnd.pick(DATASOURCES);
      if (rnd.next() < 0.2) params.file_type = ftFilter = rnd.pick(['email', 'wiki', 'txt']);
      const r = await h.search({ email }, params);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const results = r.body.results as any[];
      const ctx = `${label} ${email} ${JSON.stringify(params)}`;

      const seeable = docs.filter((d) => visible(email, d));
      const expected = seeable.filter(
        (d) =>
          terms.some((t) => d.words.has(t)) &&
          (!dsFilter || d.ds === dsFilter) &&
          (!ftFilter || SEARCH_FILE_TYPE[d.fileType] === ftFilter),
      );
      const byKey = new Map(docs.map((d) => [d.key, d]));
      const shown = results.map((x) => x.id);
      assert.equal(new Set(shown).size, shown.length, `${ctx}: a result shown twice`);
      for (const x of results) {
        const d = byKey.get(x.id)!;
        assert.ok(expected.includes(d), `${ctx}: leak or non-match ${x.id}`);
        const sameContent = seeable.filter((o) => o !== d && o.content === d.content);
        assert.deepEqual(ids(x.duplicates), sameContent.map((o) => o.key).sort(), `${ctx}: duplicates of ${x.id}`);
        const thread = d.thread ? seeable.filter((o) => o !== d && o.thread === d.thread).map((o) => o.key) : [];
        if (thread.length <= 5) assert.deepEqual(ids(x.same_thread_docs), thread.sort(), `${ctx}: thread of ${x.id}`);
        else {
          assert.equal(x.same_thread_docs.length, 5, `${ctx}: thread cap`);
          for (const t of x.same_thread_docs) assert.ok(thread.includes(t.id), `${ctx}: thread leak ${t.id}`);
        }
        const dupKeys = new Set(x.duplicates.map((o: { id: string }) => o.id));
        const reference = searcher
          .moreLikeThis(x.id, { ...similarOptions(searcher.numDocs), limit: 1000 })
          .filter((hit) => visible(email, byKey.get(hit.key)!) && !dupKeys.has(hit.key))
          .slice(0, 5)
          .map((hit) => hit.key);
        assert.deepEqual(
          x.similar_docs.map((o: { id: string }) => o.id),
          reference,
          `${ctx}: similar of ${x.id}`,
        );
        checked++;
      }
      // No misses: every expected doc is a result or folded into one as a duplicate.
      const covered = new Set<string>(shown);
      for (const x of results) for (const o of x.duplicates) covered.add(o.id);
      for (const d of expected) assert.ok(covered.has(d.key), `${ctx}: missed ${d.key}`);
      const contents = new Set(expected.map((d) => d.content));
      assert.equal(results.length, contents.size, `${ctx}: one result per distinct content`);
    }
  }
  h.index.reader.release(searcher);
  return checked;
}

test('every search matches the brute-force model, before and after control-plane changes', async () => {
  const first = await checkEverything('initial');
  assert.ok(first > 200, `enough results were compared (${first})`);

  // Change the control plane; documents are not re-indexed.
  for (const name of DATASOURCES) {
    const ds = model.get(name)!;
    const withUser = [...ds.groups.entries()].find(([, g]) => g.users.size > 0);
    if (withUser) {
      const [group, g] = withUser;
      const email = [...g.users][0];
      assert.equal(
        (await h.api('DELETE', `/memberships/${name}/${group}/user/${encodeURIComponent(email)}`)).status,
        200,
      );
      g.users.delete(email);
    }
    const renamed = ds.groups.get('g1')!;
    assert.equal((await h.api('PUT', `/groups/${name}/g1`, { group_name: 'g1new' })).status, 200);
    ds.groups.delete('g1');
    ds.groups.set('g1new', renamed);
    for (const g of ds.groups.values()) if (g.groups.delete('g1')) g.groups.add('g1new');
    const leaving = [...ds.users][0];
    if (leaving) {
      const r = await h.api('DELETE', `/users/${name}/${encodeURIComponent(leaving)}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      ds.users.delete(leaving);
      for (const g of ds.groups.values()) g.users.delete(leaving);
    }
  }
  const second = await checkEverything('after changes');
  assert.ok(second > 100, `enough results were compared (${second})`);
});
