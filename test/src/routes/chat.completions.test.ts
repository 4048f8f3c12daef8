/**
 * POST /chat/completions against a fake upstream, through the official
 * client: non-streaming and streaming answers, the wire format of the stream
 * (role first, finish_reason last, [DONE], events ended by a blank line),
 * tokens passed through as they arrive, what the upstream receives (system
 * instructions in the requested language, temperature, key), and the abort of
 * the upstream call when the client disconnects.
 */
import type OpenAI from 'openai';
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { chatHarness, startFakeUpstream, type ChatHarness, type FakeUpstream } from '../../support/chat.ts';
import { within } from '../../support/wait.ts';

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
beforeEach(() => {
  up.requests.length = 0;
  up.script = [];
});

describe('non-streaming', () => {
  it('returns a chat.completion with the upstream text, usage and an empty citations list', async () => {
    up.script = [{ content: ['Hello', ', ', 'world.'] }];
    const client = await h.client();
    const r = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    assert.equal(r.object, 'chat.completion');
    assert.match(r.id, /^chatcmpl-/);
    assert.equal(r.model, 'fake-model');
    assert.equal(r.choices.length, 1);
    assert.equal(r.choices[0].message.role, 'assistant');
    assert.equal(r.choices[0].message.content, 'Hello, world.');
    assert.equal(r.choices[0].finish_reason, 'stop');
    assert.equal(r.choices[0].logprobs, null);
    assert.deepEqual(r.usage, { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    assert.deepEqual((r as unknown as { citations: unknown[] }).citations, []);
  });

  it('a conversation can go on with the returned message appended as it is (the usual client pattern)', async () => {
    up.script = [{ content: ['Hello.'] }, { content: ['Again.'] }];
    const client = await h.client();
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hi' }];
    const first = await client.chat.completions.create({ model: 'fake-model', messages });
    messages.push(first.choices[0].message, { role: 'user', content: 'And again?' });
    const second = await client.chat.completions.create({ model: 'fake-model', messages });
    assert.equal(second.choices[0].message.content, 'Again.');
    const sent = up.requests[1].messages.slice(1);
    assert.deepEqual(sent, [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'And again?' },
    ]);
  });

  it('sends the upstream the model, the system instructions (German by default), the messages, temperature and its key', async () => {
    const client = await h.client();
    await client.chat.completions.create({
      model: 'org/fake-large',
      temperature: 0.3,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Again' },
      ],
    });
    const req = up.requests[0];
    assert.equal(req.model, 'org/fake-large');
    assert.equal(req.temperature, 0.3);
    assert.equal(req.stream, true);
    assert.equal(req.tools, undefined, 'no tools offered without tools in the request');
    assert.equal(req.messages[0].role, 'system');
    assert.match(req.messages[0].content, /Antworte auf Deutsch/);
    // One system message: chat templates of many served models (e.g. Mistral's) reject a second one.
    assert.match(
      req.messages[0].content,
      /\n\nBe brief\.$/,
      "the client's system message follows the service's instructions",
    );
    assert.deepEqual(
      req.messages.slice(1).map((m: { role: string }) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(up.auth[up.auth.length - 1], 'Bearer upstream-secret');
  });

  it('metadata.language en switches the instructions to English', async () => {
    const client = await h.client();
    await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'Hi' }],
      metadata: { language: 'en' },
    });
    assert.match(up.requests[0].messages[0].content, /Answer in English/);
  });

  it('a question long enough to tell its language is answered in it; metadata.language decides for very short ones (spec: it matters for very short inputs)', async () => {
    const client = await h.client();
    await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'What is the travel expense policy for trips abroad this year?' }],
    });
    assert.match(
      up.requests[0].messages[0].content,
      /Answer in English/,
      'an English question with the default hint de',
    );
    await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'Wie beantrage ich Urlaub für die Woche nach Ostern?' }],
      metadata: { language: 'en' },
    });
    assert.match(up.requests[1].messages[0].content, /Antworte auf Deutsch/, 'a German question with the hint en');
    await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'Reisekosten' }],
      metadata: { language: 'en' },
    });
    assert.match(up.requests[2].messages[0].content, /Answer in English/, 'a one-word question follows the hint');
  });

  it('passes finish_reason length on when the upstream ran out of tokens', async () => {
    up.script = [{ content: ['cut'], finish: 'length' }];
    const client = await h.client();
    const r = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'long story' }],
    });
    assert.equal(r.choices[0].finish_reason, 'length');
  });

  it('uses the first configured model when the request names none', async () => {
    const res = await h.fetch('/api/beta/serviceai/chat/completions', {
      method: 'POST',
      key: await h.personal('alice@example.com'),
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hi' }] }),
    });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).model, 'fake-model');
  });
});

describe('streaming', () => {
  it('streams chat.completion.chunk objects: role first, the tokens, finish_reason and citations last', async () => {
    up.script = [{ content: ['One', ' two', ' three'] }];
    const client = await h.client();
    const stream = await client.chat.completions.create({
      model: 'fake-model',
      stream: true,
      messages: [{ role: 'user', content: 'Count' }],
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.ok(
      chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'fake-model' && c.id === chunks[0].id),
    );
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    assert.equal(text, 'One two three');
    const last = chunks[chunks.length - 1];
    assert.equal(last.choices[0].finish_reason, 'stop');
    assert.ok(chunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null));
    assert.deepEqual((last as unknown as { citations: unknown[] }).citations, []);
    assert.equal(last.usage?.total_tokens, 18);
    assert.ok(chunks.length >= 5, 'one chunk per upstream token');
  });

  it('the raw stream is text/event-stream, every event ends with a blank line, and it ends with data: [DONE]', async () => {
    up.script = [{ content: ['A', 'B'] }];
    const res = await h.fetch('/api/beta/serviceai/chat/completions', {
      method: 'POST',
      key: await h.personal('alice@example.com'),
      body: JSON.stringify({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const raw = await res.text();
    assert.ok(raw.endsWith('data: [DONE]\n\n'));
    const events = raw.split('\n\n').filter(Boolean);
    for (const e of events) assert.match(e, /^data: /);
    assert.equal(events.length, 5, 'role, A, B, final, [DONE]');
  });

  it('passes each token on before the upstream sends the next one', async () => {
    up.script = [{ content: ['first', ' second'], hang: true }];
    const controller = new AbortController();
    const res = await h.fetch('/api/beta/serviceai/chat/completions', {
      method: 'POST',
      key: await h.personal('alice@example.com'),
      body: JSON.stringify({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: 'x' }] }),
      signal: controller.signal,
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    while (!seen.includes('" second"')) {
      const { value, done } = await reader.read();
      assert.ok(!done, 'the stream must not end while the upstream hangs');
      seen += value;
    }
    assert.ok(!seen.includes('[DONE]'));
    controller.abort();
    await reader.cancel().catch(() => {});
    // The upstream request is aborted once the client has gone.
    await within(up.waitForDisconnects(1), 5_000, 'the upstream request aborted');
    assert.equal(up.disconnects, 1);
  });
});
