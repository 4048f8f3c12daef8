/**
 * The connectors admin API: create, list, get, update, delete, pause, resume, run, status;
 * validation of the type's settings (422 under body.settings); credentials sealed, answered
 * masked and never echoed; 503 for credentials without CONNECTOR_SECRET; one connector per
 * datasource; 409 for a run while one runs or while paused; administrators only.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, MASTER, tempDir, writeTree, type ConnectorHarness } from '../../support/connectors.ts';

let h: ConnectorHarness;
let root: string;
before(async () => {
  h = await connectorHarness({ onDisk: true });
  root = await tempDir('admin-connectors-');
  await writeTree(root, { 'a.txt': 'alpha', 'b.txt': 'beta' });
});
after(async () => {
  await h.close(true);
  await rm(root, { recursive: true, force: true });
});

const files = (over: Record<string, unknown> = {}) => ({
  name: 'Drive',
  type: 'fileshares',
  datasource: 'drive',
  interval_minutes: null,
  settings: { root },
  ...over,
});

describe('connectors admin API', () => {
  it('lists the connector types', async () => {
    const res = await h.admin('GET', '/connector-types');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.types[0], {
      type: 'fileshares',
      category: 'fileshares',
      description: res.body.types[0].description,
      takes_credentials: false,
    });
  });

  it('creates, lists, gets, updates and deletes a connector', async () => {
    const created = await h.admin('POST', '/connectors', files({ interval_minutes: 30 }));
    assert.equal(created.status, 201, created.text);
    const c = created.body;
    assert.match(c.id, /^conn_[0-9a-f]{24}$/);
    assert.equal(c.category, 'fileshares');
    assert.equal(c.credentials, null);
    assert.equal(c.interval_minutes, 30);
    assert.equal(c.settings.root, root);
    assert.deepEqual(c.settings.include, [], 'defaults are filled in');
    assert.equal(c.status.state, 'idle');
    assert.equal(c.status.next_run_at, c.created_at, 'due at once after creation');
    assert.deepEqual(
      (await h.admin('GET', '/connectors')).body.connectors.map((x: any) => x.id),
      [c.id],
    );
    assert.equal((await h.admin('GET', `/connectors/${c.id}`)).body.name, 'Drive');
    const updated = await h.admin('PATCH', `/connectors/${c.id}`, { name: 'Drive 2', interval_minutes: null });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.name, 'Drive 2');
    assert.equal(updated.body.status.next_run_at, null, 'on demand only');
    const deleted = await h.admin('DELETE', `/connectors/${c.id}`);
    assert.deepEqual(deleted.body, { id: c.id, deleted: true });
    assert.equal((await h.admin('GET', `/connectors/${c.id}`)).status, 404);
    assert.equal((await h.admin('DELETE', `/connectors/${c.id}`)).status, 404);
  });

  it('validates the type settings under body.settings', async () => {
    const res = await h.admin('POST', '/connectors', files({ settings: { root: 'relative/path', include: [''] } }));
    assert.equal(res.status, 422);
    const locs = res.body.detail.map((d: any) => d.loc.join('.'));
    assert.deepEqual(locs.sort(), ['body.settings.include.0', 'body.settings.root']);
    const unknown = await h.admin('POST', '/connectors', files({ type: 'gopher' }));
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.detail[0].type, 'literal_error');
    const extra = await h.admin('POST', '/connectors', files({ settings: { root, colour: 'red' } }));
    assert.deepEqual(extra.body.detail[0].loc, ['body', 'settings', 'colour']);
    const badDs = await h.admin('POST', '/connectors', files({ datasource: 'Not A Slug' }));
    assert.deepEqual(badDs.body.detail[0].loc, ['body', 'datasource']);
  });

  it('refuses credentials for a type that takes none, without echoing them', async () => {
    const res = await h.admin('POST', '/connectors', files({ credentials: { password: 'hunter2-secret' } }));
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'credentials']);
    assert.doesNotMatch(res.text, /hunter2/);
  });

  it('allows one connector per datasource', async () => {
    const a = await h.admin('POST', '/connectors', files({ datasource: 'one_only' }));
    assert.equal(a.status, 201);
    const b = await h.admin('POST', '/connectors', files({ datasource: 'one_only' }));
    assert.equal(b.status, 409);
    assert.match(b.body.detail, /already the target of connector/);
    await h.admin('DELETE', `/connectors/${a.body.id}`);
  });

  it('runs, refuses a second run while one runs, pauses and resumes', async () => {
    const c = (await h.admin('POST', '/connectors', files({ datasource: 'runs' }))).body;
    const started = await h.admin('POST', `/connectors/${c.id}/run`);
    assert.equal(started.status, 202);
    assert.equal(started.body.run.state, 'running');
    const again = await h.admin('POST', `/connectors/${c.id}/run`);
    assert.equal(again.status, 409);
    const end = await h.scheduler.whenIdle(c.id);
    assert.equal(end?.state, 'completed');
    const paused = await h.admin('POST', `/connectors/${c.id}/pause`);
    assert.equal(paused.body.paused, true);
    assert.equal(paused.body.status.state, 'paused');
    assert.equal((await h.admin('POST', `/connectors/${c.id}/run`)).status, 409, 'a paused connector does not run');
    const resumed = await h.admin('POST', `/connectors/${c.id}/resume`);
    assert.equal(resumed.body.paused, false);
    const after = await h.scheduler.whenIdle(c.id);
    assert.equal(after?.trigger, 'resume');
    assert.equal(after?.counts.unchanged, 2);
    const status = await h.admin('GET', `/connectors/${c.id}/status`);
    assert.equal(status.body.last_run.run, 2);
    await h.admin('DELETE', `/connectors/${c.id}`);
  });

  it('answers 404 for unknown ids and 403 for a personal key without the administrator role', async () => {
    assert.equal((await h.admin('GET', '/connectors/conn_000000000000000000000000')).status, 404);
    assert.equal((await h.admin('GET', '/connectors/nope')).status, 404);
    await h.admin('POST', '/accounts', { email: 'dev@example.com', roles: ['developer'] });
    const pk = (await h.admin('POST', '/accounts/dev@example.com/keys', {})).body.key;
    assert.equal((await h.call('GET', '/api/admin/connectors', pk)).status, 403);
    assert.equal((await h.call('GET', '/api/admin/connectors', null)).status, 401);
    assert.equal((await h.call('GET', '/api/admin/connectors', MASTER)).status, 200);
  });
});
