/**
 * The indexing state part: replaying the journal and restoring a snapshot
 * give the same state as the live one; listeners hear committed events
 * (the hook the documents pipeline uses to drop a deleted datasource's documents).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addSub,
  createDatasource,
  createGroup,
  createMembership,
  createUser,
  deleteDatasource,
  deleteSub,
  groupsOf,
  indexingPart,
  listDatasources,
  listGroups,
  listUsers,
  onIndexingEvent,
  renameGroup,
  updateDatasource,
  updateUser,
  type IndexingEvent,
} from '../../../src/controlplane/index.ts';
import { stateParts } from '../../../src/open-state.ts';
import { MemoryJournal, StateStore } from '../../../src/state/store.ts';

async function populate(deps: { state: StateStore; now: () => number }) {
  await createDatasource(deps, {
    name: 'ds',
    display_name: 'DS',
    icon_base64: 'AAAA',
    subs: [{ name: 'Human Resources' }, { name: 'Payroll', parent_key: 'human_resources' }],
    object_definitions: [
      {
        name: 'page',
        property_definitions: [{ name: 'p', display_label: 'P', is_searchable: true, property_type: 'TEXT' }],
      },
    ],
  });
  await createDatasource(deps, {
    name: 'other',
    display_name: 'O',
    icon_base64: null,
    subs: [],
    object_definitions: [],
  });
  await addSub(deps, 'ds', { name: 'Eng' });
  await deleteSub(deps, 'ds', 'payroll');
  await updateDatasource(deps, 'ds', { display_name: 'DS 2' });
  for (const e of ['a@x.com', 'b@x.com']) await createUser(deps, 'ds', { email: e, name: null });
  await updateUser(deps, 'ds', 'a@x.com', 'Alice');
  for (const g of ['top', 'mid', 'low']) await createGroup(deps, 'ds', g);
  await createMembership(deps, 'ds', { group_name: 'top', member_group_name: 'mid' });
  await createMembership(deps, 'ds', { group_name: 'mid', member_group_name: 'low' });
  await createMembership(deps, 'ds', { group_name: 'low', member_email: 'a@x.com' });
  await renameGroup(deps, 'ds', 'mid', 'middle');
  await createUser(deps, 'other', { email: 'z@x.com' });
  await deleteDatasource(deps, 'other');
}

function view(deps: { state: StateStore }) {
  return {
    datasources: listDatasources(deps),
    users: listUsers(deps, 'ds'),
    groups: listGroups(deps, 'ds'),
    a: [...groupsOf(deps, 'ds', 'a@x.com')].sort(),
  };
}

test('replaying the journal rebuilds the same state, reverse indexes included', async () => {
  const journal = new MemoryJournal();
  const live = await StateStore.open(journal, stateParts);
  const deps = { state: live, now: () => Date.parse('2026-02-03T04:05:06.000Z') };
  await populate(deps);
  const expected = view(deps);
  assert.deepEqual(expected.a, ['low', 'middle', 'top']);
  assert.deepEqual(
    expected.datasources.map((d) => d.name),
    ['ds'],
  );
  assert.deepEqual(
    expected.datasources[0].subs.map((s) => s.key),
    ['human_resources', 'eng'],
  );

  const replayed = await StateStore.open(journal, stateParts);
  assert.deepEqual(view({ state: replayed }), expected);
  assert.deepEqual(replayed.snapshot(), live.snapshot());
});

test('a snapshot (toJSON -> JSON text -> fromJSON) restores the same state', async () => {
  const live = await StateStore.open(new MemoryJournal(), stateParts);
  const deps = { state: live, now: () => 0 };
  await populate(deps);
  const journal = new MemoryJournal();
  await journal.compact(JSON.parse(JSON.stringify(live.snapshot())));
  const restored = await StateStore.open(journal, stateParts);
  assert.deepEqual(view({ state: restored }), view(deps));
  assert.deepEqual(indexingPart.toJSON(restored.get(indexingPart)), indexingPart.toJSON(live.get(indexingPart)));
});

test('listeners hear each committed event after it is applied; a failing listener surfaces but the change stands', async () => {
  const state = await StateStore.open(new MemoryJournal(), stateParts);
  const deps = { state, now: () => 0 };
  const heard: IndexingEvent[] = [];
  const stop = onIndexingEvent(state, (e) => {
    heard.push(e);
    if (e.type === 'indexing.datasource_deleted')
      assert.deepEqual(listDatasources(deps), [], 'applied before listeners run');
  });
  await createDatasource(deps, { name: 'ds', display_name: 'DS', icon_base64: null, subs: [], object_definitions: [] });
  await deleteDatasource(deps, 'ds');
  assert.deepEqual(
    heard.map((e) => e.type),
    ['indexing.datasource_created', 'indexing.datasource_deleted'],
  );
  stop();
  onIndexingEvent(state, () => {
    throw new Error('documents store unavailable');
  });
  await assert.rejects(
    createDatasource(deps, { name: 'x', display_name: 'X', icon_base64: null, subs: [], object_definitions: [] }),
    /documents store unavailable/,
  );
  assert.deepEqual(
    listDatasources(deps).map((d) => d.name),
    ['x'],
  );
  assert.equal(heard.length, 2, 'unsubscribed listener no longer hears events');
});

test('through the file journal: state survives a restart and a compaction', async () => {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { openState } = await import('../../../src/open-state.ts');
  const { silentLogger } = await import('../../../src/log.ts');
  const dir = await mkdtemp(join(tmpdir(), 'indexing-state-'));
  try {
    const config = { dataDir: dir, stateCompactBytes: 4096 };
    const first = await openState(config, silentLogger);
    const deps = { state: first, now: () => 0 };
    await populate(deps);
    // Enough events to pass the compaction threshold at least once.
    for (let i = 0; i < 60; i++) await createUser(deps, 'ds', { email: `bulk${i}@example.com`, name: 'x'.repeat(50) });
    const expected = view(deps);
    await first.close();
    const { readdir } = await import('node:fs/promises');
    const files = await readdir(join(dir, 'state'));
    assert.ok(
      files.some((f) => f.startsWith('snapshot-')),
      `compacted: ${files.join(', ')}`,
    );
    const second = await openState(config, silentLogger);
    assert.deepEqual(view({ state: second }), expected);
    await second.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
