/** GET /models and GET /models/{model} through the official client: the extractive default, upstream models, unknown ids. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { chatHarness, startFakeUpstream, type ChatHarness, type FakeUpstream } from '../../support/chat.ts';

describe('a fresh install (no upstream)', () => {
  let h: ChatHarness;
  before(async () => {
    h = await chatHarness();
  });
  after(() => h.close());

  it('lists only the embedded extractive model', async () => {
    const client = await h.client();
    const page = await client.models.list();
    assert.deepEqual(
      page.data.map((m) => m.id),
      ['extractive'],
    );
    assert.equal(page.data[0].object, 'model');
    assert.equal(page.data[0].owned_by, 'system');
    assert.equal(typeof page.data[0].created, 'number');
  });

  it('retrieves a model, and 404 in the compatible shape for an unknown one', async () => {
    const client = await h.client();
    assert.equal((await client.models.retrieve('extractive')).id, 'extractive');
    await assert.rejects(client.models.retrieve('gpt-nope'), (err: unknown) => {
      assert.ok(err instanceof OpenAI.NotFoundError);
      assert.equal(err.status, 404);
      assert.equal(err.code, 'model_not_found');
      assert.match(err.message, /gpt-nope/);
      return true;
    });
  });
});

describe('with an upstream', () => {
  let h: ChatHarness;
  let up: FakeUpstream;
  before(async () => {
    up = await startFakeUpstream();
    h = await chatHarness({ upstream: up.url });
  });
  after(async () => {
    await h.close();
    await up.close();
  });

  it('lists the configured models first, then extractive', async () => {
    const client = await h.client();
    const ids = (await client.models.list()).data.map((m) => m.id);
    assert.deepEqual(ids, ['fake-model', 'org/fake-large', 'extractive']);
  });

  it('retrieves a model id that contains a slash', async () => {
    const client = await h.client();
    const m = await client.models.retrieve('org/fake-large');
    assert.equal(m.id, 'org/fake-large');
    assert.equal(m.owned_by, 'upstream');
  });

  it('deleting a model is an unsupported operation (400, compatible shape)', async () => {
    const client = await h.client();
    await assert.rejects(client.models.delete('fake-model'), (err: unknown) => {
      assert.ok(err instanceof OpenAI.BadRequestError);
      assert.equal(err.code, 'unsupported_operation');
      return true;
    });
  });
});
