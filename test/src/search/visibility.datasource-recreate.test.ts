/**
 * A datasource deleted and created again under the same name starts empty for every reader:
 * until the old datasource's documents are removed from the committed index (the drop's commit),
 * searches (results, related lists, chat) and check-access of users registered on the new
 * datasource must not see them; the name is created again only once the drop is queued.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc } from '../../support/documents.ts';
import { stateParts } from '../../../src/open-state.ts';
import { MemoryJournal, StateStore, type StateEvent } from '../../../src/state/store.ts';
import { searchHarness } from '../../support/search.ts';

const DS = { name: 'wiki', display_name: 'Wiki' };
const ids = (r: { body: { results: { id: string }[] } }) => r.body.results.map((x) => x.id);

test("the deleted datasource's documents stay invisible to the re-created datasource's users until the drop is committed", async () => {
  const h = await searchHarness();
  try {
    assert.equal((await h.api('POST', '/datasources', DS)).status, 200);
    await h.register('wiki', 'ann@x.org');
    await h.push([doc({ id: 'old-plan', title: 'Merger plan', permissions: { allow_anonymous_access: true } })]);
    await h.commit();
    assert.deepEqual(ids(await h.search({ email: 'ann@x.org' }, { query: 'merger' })), ['wiki:old-plan']);

    assert.equal((await h.api('DELETE', '/datasources/wiki')).status, 200);
    assert.equal((await h.api('POST', '/datasources', DS)).status, 200);
    await h.register('wiki', 'bob@x.org');
    // No commit yet: the old document is still in the committed index.
    assert.deepEqual(ids(await h.search({ email: 'bob@x.org' }, { query: 'merger' })), []);
    assert.deepEqual(ids(await h.search({ email: 'bob@x.org' }, { query: ' ' })), []);
    const check = await h.api('POST', '/documents/check-access', {
      datasource: 'wiki',
      document_id: 'old-plan',
      user_email: 'bob@x.org',
    });
    assert.equal(check.status, 404, JSON.stringify(check.body));

    // Documents of the new datasource appear with the commit that also removes the old ones.
    await h.push([doc({ id: 'new-plan', title: 'Merger plan v2' })]);
    assert.deepEqual(ids(await h.search({ email: 'bob@x.org' }, { query: 'merger' })), []);
    await h.commit();
    assert.deepEqual(ids(await h.search({ email: 'bob@x.org' }, { query: 'merger' })), ['wiki:new-plan']);
    const after = await h.api('POST', '/documents/check-access', {
      datasource: 'wiki',
      document_id: 'new-plan',
      user_email: 'bob@x.org',
    });
    assert.equal(after.body.has_access, true);
  } finally {
    await h.close();
  }
});

/** A journal whose appends can be held back (the deletion applied, not yet durable). */
class GatedJournal extends MemoryJournal {
  held = 0;
  private gate: Promise<void> | null = null;
  private open: () => void = () => {};
  hold(): void {
    this.gate = new Promise((r) => (this.open = r));
  }
  release(): void {
    this.gate = null;
    this.open();
  }
  override async append(event: StateEvent): Promise<void> {
    const gate = this.gate;
    if (gate) {
      this.held++;
      await gate;
    }
    return super.append(event);
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setImmediate(r));
}

test('while the deletion is still being made durable, the name is not created again and shows nothing', async () => {
  const journal = new GatedJournal();
  const h = await searchHarness({ state: await StateStore.open(journal, stateParts) });
  try {
    assert.equal((await h.api('POST', '/datasources', DS)).status, 200);
    await h.register('wiki', 'ann@x.org');
    await h.push([doc({ id: 'old-plan', title: 'Merger plan' })]);
    await h.commit();
    await h.personal('ann@x.org');
    // The deletion is applied at once and durable only when the journal lets it through; the old
    // datasource's drop is queued after that. The re-creation waits for the drop.
    journal.hold();
    const deleting = h.api('DELETE', '/datasources/wiki');
    await until(() => journal.held === 1);
    const creating = h.api('POST', '/datasources', DS);
    assert.equal((await h.api('POST', '/users', { datasource: 'wiki', user: { email: 'ann@x.org' } })).status, 404);
    assert.equal((await h.api('GET', '/datasources/wiki')).status, 404);
    assert.deepEqual(ids(await h.search({ email: 'ann@x.org' }, { query: 'merger' })), []);
    journal.release();
    assert.equal((await deleting).status, 200);
    assert.equal((await creating).status, 200);
    await h.register('wiki', 'ann@x.org');
    assert.deepEqual(ids(await h.search({ email: 'ann@x.org' }, { query: 'merger' })), []);
  } finally {
    await h.close();
  }
});
