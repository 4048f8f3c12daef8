/**
 * Group resolution against a brute-force reference on random graphs (seeded):
 * transitive groups of a user, membership paths, cycle detection, and the
 * memoised answers staying right while memberships, groups and users change.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createDatasource,
  createGroup,
  createMembership,
  createUser,
  cyclePath,
  deleteGroup,
  deleteMembership,
  deleteUser,
  groupsOf,
  membershipPath,
  renameGroup,
  requireDatasource,
  resolveGroups,
} from '../../../src/controlplane/index.ts';
import {
  applyIndexingEvent,
  indexingPart,
  type DatasourceState,
  type IndexingState,
} from '../../../src/controlplane/state.ts';
import { openTestState } from '../../support/app.ts';
import { ServiceError } from '../../../src/errors.ts';
import { prng } from '../../support/prng.ts';

/** Fixpoint reference: a group contains the user if it lists them or lists a group that contains them. */
function bruteGroups(ds: DatasourceState, email: string): Set<string> {
  const out = new Set<string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const g of ds.groups.values()) {
      if (out.has(g.name)) continue;
      if (g.users.has(email) || [...g.groups].some((c) => out.has(c))) {
        out.add(g.name);
        changed = true;
      }
    }
  }
  return out;
}

/** Whether `to` is reachable from `from` following "contains" edges (including from === to). */
function bruteContains(ds: DatasourceState, from: string, to: string): boolean {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length) {
    const g = stack.pop()!;
    if (g === to) return true;
    for (const c of ds.groups.get(g)?.groups ?? []) if (!seen.has(c)) (seen.add(c), stack.push(c));
  }
  return false;
}

function checkPath(ds: DatasourceState, email: string, group: string): void {
  const path = membershipPath(ds, email, group);
  assert.ok(path, `path to ${group}`);
  assert.ok(ds.groups.get(path[0])!.users.has(email), 'path starts at a direct group');
  assert.equal(path.at(-1), group);
  for (let i = 0; i + 1 < path.length; i++)
    assert.ok(ds.groups.get(path[i + 1])!.groups.has(path[i]), `edge ${path[i]} in ${path[i + 1]}`);
}

/** A raw state (built through apply, so it may hold cycles the API would refuse). */
function rawGraph(seed: number, groups: number, users: number, edges: number, memberships: number): DatasourceState {
  const r = prng(seed);
  const state: IndexingState = indexingPart.create();
  const at = '2026-01-01T00:00:00.000Z';
  applyIndexingEvent(state, {
    type: 'indexing.datasource_created',
    datasource: {
      name: 'ds',
      display_name: 'DS',
      icon_base64: null,
      subs: [],
      object_definitions: [],
      created_at: at,
      updated_at: at,
    },
  });
  for (let u = 0; u < users; u++)
    applyIndexingEvent(state, {
      type: 'indexing.user_created',
      datasource: 'ds',
      user: { email: `u${u}@x.com`, name: null },
    });
  for (let g = 0; g < groups; g++)
    applyIndexingEvent(state, { type: 'indexing.group_created', datasource: 'ds', name: `g${g}` });
  for (let e = 0; e < edges; e++) {
    applyIndexingEvent(state, {
      type: 'indexing.membership_created',
      datasource: 'ds',
      group: `g${r.int(groups)}`,
      member: { type: 'group', id: `g${r.int(groups)}` },
    });
  }
  for (let m = 0; m < memberships; m++) {
    applyIndexingEvent(state, {
      type: 'indexing.membership_created',
      datasource: 'ds',
      group: `g${r.int(groups)}`,
      member: { type: 'user', id: `u${r.int(users)}@x.com` },
    });
  }
  return state.datasources.get('ds')!;
}

test('resolveGroups equals the brute-force fixpoint on random graphs, cycles included', () => {
  for (let seed = 1; seed <= 60; seed++) {
    const r = prng(seed * 7919);
    const groups = 2 + r.int(40);
    const ds = rawGraph(seed, groups, 8, r.int(groups * 3), r.int(30));
    for (let u = 0; u < 8; u++) {
      const email = `u${u}@x.com`;
      const expected = bruteGroups(ds, email);
      assert.deepEqual(new Set(resolveGroups(ds, email)), expected, `seed ${seed} ${email}`);
      assert.deepEqual(new Set(resolveGroups(ds, `  U${u}@X.com `)), expected, 'email normalised');
      for (const g of ds.groups.keys()) {
        if (expected.has(g)) checkPath(ds, email, g);
        else assert.equal(membershipPath(ds, email, g), undefined);
      }
    }
    assert.equal(resolveGroups(ds, 'nobody@x.com').size, 0);
  }
});

test('cyclePath finds a cycle exactly when the parent is reachable from the new member', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const r = prng(seed);
    const ds = rawGraph(seed + 1000, 12, 1, 14, 0);
    for (let k = 0; k < 40; k++) {
      const parent = `g${r.int(12)}`;
      const member = `g${r.int(12)}`;
      const path = cyclePath(ds, parent, member);
      assert.equal(path !== undefined, bruteContains(ds, member, parent), `${parent} <- ${member}`);
      if (!path) continue;
      assert.equal(path[0], parent);
      assert.equal(path[1], member);
      assert.equal(path.at(-1), parent);
      for (let i = 1; i + 1 < path.length; i++) assert.ok(ds.groups.get(path[i])!.groups.has(path[i + 1]));
    }
  }
});

test('through the domain API: random mutations keep memoised answers equal to the reference, and cycles are refused', async () => {
  for (const seed of [11, 22, 33, 44]) {
    const r = prng(seed);
    const state = await openTestState();
    const deps = { state, now: () => 0 };
    await createDatasource(deps, {
      name: 'ds',
      display_name: 'DS',
      icon_base64: null,
      subs: [],
      object_definitions: [],
    });
    const users = Array.from({ length: 6 }, (_, i) => `u${i}@x.com`);
    let groups = Array.from({ length: 15 }, (_, i) => `g${i}`);
    for (const u of users) await createUser(deps, 'ds', { email: u });
    for (const g of groups) await createGroup(deps, 'ds', g);
    let renames = 0;
    for (let step = 0; step < 300; step++) {
      const roll = r.next();
      try {
        if (roll < 0.45) {
          const parent = r.pick(groups);
          const child = r.pick(groups);
          const ds = requireDatasource(deps, 'ds');
          const wouldCycle = bruteContains(ds, child, parent);
          try {
            await createMembership(deps, 'ds', { group_name: parent, member_group_name: child });
            assert.ok(!wouldCycle, 'a cycle was accepted');
          } catch (err) {
            assert.ok(err instanceof ServiceError && err.status === 409);
            if (!ds.groups.get(parent)!.groups.has(child)) assert.ok(wouldCycle, 'refused without cycle or duplicate');
            if (wouldCycle)
              assert.match(
                err.message,
                new RegExp(`cycle: ${parent} -> ${child}( -> .+)? -> ${parent}$|cycle: ${parent} -> ${parent}$`),
              );
          }
        } else if (roll < 0.75) {
          await createMembership(deps, 'ds', { group_name: r.pick(groups), member_email: r.pick(users) });
        } else if (roll < 0.87) {
          const g = r.pick(groups);
          const ds = requireDatasource(deps, 'ds');
          const kids = [...ds.groups.get(g)!.groups];
          if (kids.length) await deleteMembership(deps, 'ds', g, 'group', r.pick(kids));
        } else if (roll < 0.93) {
          const from = r.pick(groups);
          const to = `r${renames++}`;
          await renameGroup(deps, 'ds', from, to);
          groups = groups.map((g) => (g === from ? to : g));
        } else if (roll < 0.97) {
          const g = r.pick(groups);
          await deleteGroup(deps, 'ds', g);
          groups = groups.filter((x) => x !== g);
          const fresh = `n${step}`;
          await createGroup(deps, 'ds', fresh);
          groups.push(fresh);
        } else {
          const u = r.pick(users);
          await deleteUser(deps, 'ds', u);
          await createUser(deps, 'ds', { email: u });
        }
      } catch (err) {
        if (!(err instanceof ServiceError && err.status === 409)) throw err;
      }
      const ds = requireDatasource(deps, 'ds');
      for (const u of users)
        assert.deepEqual(new Set(groupsOf(deps, 'ds', u)), bruteGroups(ds, u), `seed ${seed} step ${step} ${u}`);
    }
  }
});

test('a user in hundreds of nested groups resolves to all of them', async () => {
  // A chain of 300 groups plus a 3-level tree fanning out to 400 more, all reached from one direct membership.
  const state: IndexingState = indexingPart.create();
  const at = '2026-01-01T00:00:00.000Z';
  applyIndexingEvent(state, {
    type: 'indexing.datasource_created',
    datasource: {
      name: 'ds',
      display_name: 'DS',
      icon_base64: null,
      subs: [],
      object_definitions: [],
      created_at: at,
      updated_at: at,
    },
  });
  const ev = (e: Parameters<typeof applyIndexingEvent>[1]) => applyIndexingEvent(state, e);
  ev({ type: 'indexing.user_created', datasource: 'ds', user: { email: 'deep@x.com', name: null } });
  for (let i = 0; i < 300; i++) ev({ type: 'indexing.group_created', datasource: 'ds', name: `c${i}` });
  for (let i = 1; i < 300; i++)
    ev({
      type: 'indexing.membership_created',
      datasource: 'ds',
      group: `c${i}`,
      member: { type: 'group', id: `c${i - 1}` },
    });
  for (let i = 0; i < 400; i++) {
    ev({ type: 'indexing.group_created', datasource: 'ds', name: `t${i}` });
    ev({
      type: 'indexing.membership_created',
      datasource: 'ds',
      group: `t${i}`,
      member: { type: 'group', id: i < 20 ? 'c299' : `t${Math.floor(i / 20) - 1}` },
    });
  }
  ev({
    type: 'indexing.membership_created',
    datasource: 'ds',
    group: 'c0',
    member: { type: 'user', id: 'deep@x.com' },
  });
  const ds = state.datasources.get('ds')!;
  const got = resolveGroups(ds, 'deep@x.com');
  assert.equal(got.size, 700);
  assert.deepEqual(new Set(got), bruteGroups(ds, 'deep@x.com'));
  assert.equal(membershipPath(ds, 'deep@x.com', 't399')!.length, 300 + 2);
});
