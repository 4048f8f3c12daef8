/**
 * Agents: the admin API (/api/admin/agents: create, list, get, update,
 * delete; validation; admin-only), persistence across a restart of the
 * control-plane state, and completions run with `metadata.agent_id`
 * (instructions, model, allowed tools, datasource scope).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createAgent, getAgent } from '../../../src/agents/agents.ts';
import { MASTER_KEY, openTestState } from '../../support/app.ts';
import { chatHarness, startFakeUpstream, textDoc, type ChatHarness, type FakeUpstream } from '../../support/chat.ts';

let h: ChatHarness;
let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
  h = await chatHarness({ upstream: up.url });
  await h.index(
    'handbook',
    ['alice@example.com'],
    [textDoc('travel', 'Travel policy', 'Employees book trains for trips under 500 km.')],
  );
  await h.index(
    'engineering',
    ['alice@example.com'],
    [textDoc('trains', 'Train scheduler', 'The trains service schedules build jobs.')],
  );
});
after(async () => {
  await h.close();
  await up.close();
});
beforeEach(() => {
  up.requests.length = 0;
  up.script = [];
});

const admin = (method: string, path: string, body?: unknown) => h.call(method, path, MASTER_KEY, body);

describe('admin API', () => {
  it('creates, lists, gets, updates and deletes an agent', async () => {
    const created = await admin('POST', '/api/admin/agents', {
      name: 'HR helper',
      instructions: 'Be kind.',
      tools: ['serviceSearch'],
      datasources: ['handbook'],
    });
    assert.equal(created.status, 201);
    const a = created.body;
    assert.match(a.id, /^agent_[0-9a-f]{24}$/);
    assert.deepEqual(
      { ...a, id: 0, created_at: 0, updated_at: 0 },
      {
        id: 0,
        name: 'HR helper',
        description: '',
        instructions: 'Be kind.',
        model: null,
        tools: ['serviceSearch'],
        datasources: ['handbook'],
        created_at: 0,
        updated_at: 0,
      },
    );
    assert.ok((await admin('GET', '/api/admin/agents')).body.agents.some((x: { id: string }) => x.id === a.id));
    assert.deepEqual((await admin('GET', `/api/admin/agents/${a.id}`)).body, a);
    const updated = await admin('PATCH', `/api/admin/agents/${a.id}`, { model: 'org/fake-large', datasources: null });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.model, 'org/fake-large');
    assert.equal(updated.body.datasources, null);
    assert.equal(updated.body.instructions, 'Be kind.', 'a partial update keeps the other fields');
    assert.deepEqual(await admin('DELETE', `/api/admin/agents/${a.id}`).then((r) => r.body), {
      id: a.id,
      deleted: true,
    });
    assert.equal((await admin('GET', `/api/admin/agents/${a.id}`)).status, 404);
  });

  it('404 for unknown ids on get, update and delete', async () => {
    for (const [m, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const r = await admin(m, '/api/admin/agents/agent_ffffffffffffffffffffffff', body);
      assert.equal(r.status, 404);
      assert.match(r.body.detail, /does not exist/);
    }
  });

  it('422 for invalid bodies', async () => {
    for (const [body, loc] of [
      [{}, 'name'],
      [{ name: ' ' }, 'name'],
      [{ name: 'a', tools: ['codeInterpreter'] }, 'tools'],
      [{ name: 'a', tools: ['webSearch', 'webSearch'] }, 'tools'],
      [{ name: 'a', datasources: [] }, 'datasources'],
      [{ name: 'a', datasources: ['bad name!'] }, 'datasources'],
      [{ name: 'a', colour: 'red' }, 'colour'],
    ] as const) {
      const r = await admin('POST', '/api/admin/agents', body);
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.equal(r.body.detail[0].loc[1], loc, JSON.stringify(r.body));
    }
  });

  it('needs administrator access', async () => {
    const key = await h.personal('alice@example.com');
    assert.equal((await h.call('GET', '/api/admin/agents', key)).status, 403);
    assert.equal((await h.call('GET', '/api/admin/agents', null)).status, 401);
  });

  it('agents survive a restart of the control-plane state', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agents-'));
    try {
      let state = await openTestState(dir);
      const a = await createAgent(
        { state, now: () => 0 },
        { name: 'Kept', description: '', instructions: 'i', model: null, tools: ['webSearch'], datasources: null },
      );
      await state.close();
      state = await openTestState(dir);
      assert.deepEqual(getAgent({ state, now: () => 0 }, a.id), a);
      await state.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('completions with metadata.agent_id', () => {
  it("uses the agent's instructions and model", async () => {
    const a = (
      await admin('POST', '/api/admin/agents', {
        name: 'Pirate',
        instructions: 'Talk like a pirate.',
        model: 'org/fake-large',
        tools: [],
      })
    ).body;
    const client = await h.client();
    const r = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'hi' }],
      metadata: { agent_id: a.id },
    });
    assert.equal(r.model, 'org/fake-large');
    assert.equal(up.requests[0].model, 'org/fake-large');
    assert.match(up.requests[0].messages[0].content, /Talk like a pirate\./);
    assert.equal(up.requests[0].tools, undefined, 'an agent without tools offers none');
  });

  it("offers the agent's tools when the request names none, and only allowed ones when it does", async () => {
    const a = (await admin('POST', '/api/admin/agents', { name: 'Search only', tools: ['serviceSearch'] })).body;
    const client = await h.client();
    await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'hi' }],
      metadata: { agent_id: a.id },
    });
    assert.deepEqual(
      up.requests[0].tools.map((t: any) => t.function.name),
      ['serviceSearch'],
    );
    await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'hi' }],
      metadata: { agent_id: a.id },
      tools: [{ function: { name: 'webSearch' } } as any],
    });
    assert.equal(up.requests[1].tools, undefined, 'webSearch is not allowed for this agent');
  });

  it("limits serviceSearch to the agent's datasources", async () => {
    const scoped = (
      await admin('POST', '/api/admin/agents', {
        name: 'Handbook',
        tools: ['serviceSearch'],
        datasources: ['handbook'],
      })
    ).body;
    const call = { toolCalls: [{ name: 'serviceSearch', arguments: JSON.stringify({ query: 'trains' }) }] };
    up.script = [call, { content: ['x'] }, call, { content: ['x'] }];
    const client = await h.client();
    const ask = (agent_id?: string) =>
      client.chat.completions.create({
        model: 'fake-model',
        messages: [{ role: 'user', content: 'trains' }],
        tools: [{ function: { name: 'serviceSearch' } } as any],
        ...(agent_id ? { metadata: { agent_id } } : {}),
      });
    await ask();
    const unscoped = up.requests[1].messages.find((m: any) => m.role === 'tool').content;
    assert.match(unscoped, /Travel policy/);
    assert.match(unscoped, /Train scheduler/);
    await ask(scoped.id);
    const limited = up.requests[3].messages.find((m: any) => m.role === 'tool').content;
    assert.match(limited, /Travel policy/);
    assert.doesNotMatch(limited, /Train scheduler/);
  });

  it('a scope naming a datasource that does not exist (deleted, not yet created) still searches the others, and never widens', async () => {
    const stale = (
      await admin('POST', '/api/admin/agents', {
        name: 'Stale scope',
        tools: ['serviceSearch'],
        datasources: ['handbook', 'retired'],
      })
    ).body;
    const gone = (
      await admin('POST', '/api/admin/agents', {
        name: 'Only gone',
        tools: ['serviceSearch'],
        datasources: ['retired'],
      })
    ).body;
    const call = (args: unknown) => ({ toolCalls: [{ name: 'serviceSearch', arguments: JSON.stringify(args) }] });
    up.script = [
      call({ query: 'trains' }),
      { content: ['x'] },
      call({ query: 'trains' }),
      { content: ['x'] },
      call({ query: 'trains', data_sources: ['engineering', 'wiki'] }),
      { content: ['x'] },
    ];
    const client = await h.client();
    const ask = (agent_id?: string) =>
      client.chat.completions.create({
        model: 'fake-model',
        messages: [{ role: 'user', content: 'trains' }],
        tools: [{ function: { name: 'serviceSearch' } } as any],
        ...(agent_id ? { metadata: { agent_id } } : {}),
      });
    const toolText = (i: number) => up.requests[i].messages.find((m: any) => m.role === 'tool').content as string;
    await ask(stale.id);
    assert.match(toolText(1), /Travel policy/);
    assert.doesNotMatch(toolText(1), /Train scheduler/);
    await ask(gone.id);
    assert.doesNotMatch(
      toolText(3),
      /Travel policy|Train scheduler/,
      'a scope of unknown names finds nothing, not everything',
    );
    await ask();
    assert.match(toolText(5), /Train scheduler/, 'an unknown name the model asked for does not drop the known one');
    assert.doesNotMatch(toolText(5), /Travel policy/);
  });
});
