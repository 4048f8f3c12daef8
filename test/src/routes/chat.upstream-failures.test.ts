/**
 * Failures of the language model upstream as the official client sees them:
 * HTTP errors, an unreachable upstream, streams that stop early or carry
 * malformed events, answers that are no event stream (JSON, an HTML page),
 * failures before the first answer text (an HTTP status, also when
 * streaming) and in the middle of a stream (an error event).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import OpenAI from 'openai';
import { chatHarness, startFakeUpstream, type ChatHarness, type FakeUpstream } from '../../support/chat.ts';

let h: ChatHarness;
let up: FakeUpstream;
let key: string;
before(async () => {
  up = await startFakeUpstream();
  h = await chatHarness({ upstream: up.url });
  key = await h.personal('alice@example.com');
});
after(async () => {
  await h.close();
  await up.close();
});
beforeEach(() => {
  up.script = [];
});

function assertShape(body: any, code: string) {
  assert.equal(typeof body.error.message, 'string');
  assert.equal(typeof body.error.type, 'string');
  assert.ok('param' in body.error);
  assert.equal(body.error.code, code);
  assert.ok('detail' in body);
}

describe('upstream failures', () => {
  it('an upstream HTTP error is 502 with its message', async () => {
    up.script = [{ status: 500 }];
    const client = await h.client();
    await assert.rejects(
      client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'x' }] }),
      (err: any) => {
        assert.equal(err.status, 502);
        assert.equal(err.code, 'upstream_error');
        assert.match(err.message, /scripted failure 500/);
        return true;
      },
    );
  });
  it('an unreachable upstream is 502 upstream_unreachable', async () => {
    const dead = await chatHarness({ upstream: 'http://127.0.0.1:9/v1' });
    try {
      const client = await dead.client();
      await assert.rejects(
        client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'x' }] }),
        (err: any) => err.status === 502 && err.code === 'upstream_unreachable',
      );
    } finally {
      await dead.close();
    }
  });
  it('an upstream that breaks the connection off mid-answer is 502 upstream_error saying so, not "unreachable"', async () => {
    up.script = [{ content: ['The first half'], breakOff: true }];
    const client = await h.client();
    await assert.rejects(
      client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'x' }] }),
      (err: any) => {
        assert.equal(err.status, 502);
        assert.equal(err.code, 'upstream_error');
        assert.match(err.message, /broke off/);
        return true;
      },
    );
  });
  it('an upstream answer that ends without finish_reason or [DONE] is an error, not a complete answer', async () => {
    const client = await h.client();
    up.script = [{ content: ['The first half'], truncate: true }];
    await assert.rejects(
      client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'x' }] }),
      (err: any) => {
        assert.equal(err.status, 502);
        assert.equal(err.code, 'upstream_error');
        assert.match(err.message, /ended the stream before/);
        return true;
      },
    );
    up.script = [{ content: ['The first half'], truncate: true }];
    const stream = await client.chat.completions.create({
      model: 'fake-model',
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
    });
    const finishes: unknown[] = [];
    await assert.rejects(
      (async () => {
        for await (const c of stream) finishes.push(c.choices[0]?.finish_reason);
      })(),
      (err: any) => err instanceof OpenAI.APIError && /ended the stream before/.test(err.message),
    );
    assert.ok(!finishes.includes('stop'), 'no chunk claims the answer is complete');
  });
  it('an upstream that answers JSON instead of an event stream is 502 with its message', async () => {
    const client = await h.client();
    up.script = [{ json: { error: { message: 'streaming is disabled on this gateway' } } }];
    await assert.rejects(
      client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'x' }] }),
      (err: any) => {
        assert.equal(err.status, 502);
        assert.equal(err.code, 'upstream_error');
        assert.match(err.message, /streaming is disabled on this gateway/);
        return true;
      },
    );
    up.script = [
      {
        json: {
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }],
        },
      },
    ];
    await assert.rejects(
      client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'x' }] }),
      (err: any) => err.status === 502 && /event stream/.test(err.message),
    );
  });
  it('an upstream that answers an HTML page (LLM_BASE_URL pointing at a web UI) is 502 saying so', async () => {
    const client = await h.client();
    up.script = [
      { page: { contentType: 'text/html; charset=utf-8', body: '<!doctype html><html><body>Chat UI</body></html>' } },
    ];
    await assert.rejects(
      client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'x' }] }),
      (err: any) => {
        assert.equal(err.status, 502);
        assert.equal(err.code, 'upstream_error');
        assert.match(err.message, /HTML page instead of an event stream/);
        assert.match(err.message, /LLM_BASE_URL/);
        return true;
      },
    );
  });
  it('a malformed upstream event is 502 upstream_error naming it, not a JavaScript error text or "[object Object]" in the answer', async () => {
    const client = await h.client();
    const tools = [{ function: { name: 'serviceSearch' } } as any];
    for (const event of [
      'null',
      '[1, 2]',
      '{"choices": [{"delta": {"content": {"text": "hi"}}}]}',
      '{"choices": [{"delta": {"tool_calls": {"index": 0}}}]}',
      '{"choices": [{"delta": {"tool_calls": [null]}}]}',
      '{"choices": [{"delta": {"tool_calls": [{"index": 1000000, "id": "c", "function": {"name": "serviceSearch", "arguments": "{}"}}]}}]}',
      '{"choices": "none"}',
    ]) {
      up.script = [{ rawEvents: [event, '{"choices": [{"delta": {}, "finish_reason": "stop"}]}', '[DONE]'] }];
      await assert.rejects(
        client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'x' }], tools }),
        (err: any) => {
          assert.equal(err.status, 502, event);
          assert.equal(err.code, 'upstream_error', event);
          assert.match(err.message, /malformed event/, event);
          assert.doesNotMatch(err.message, /Cannot read|not iterable|undefined/, event);
          return true;
        },
      );
    }
  });
  it('tool-call arguments sent as a JSON object instead of its text are taken as that object', async () => {
    up.script = [
      {
        rawEvents: [
          '{"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "serviceSearch", "arguments": {"query": "trains"}}}]}, "finish_reason": "tool_calls"}]}',
          '[DONE]',
        ],
      },
      { content: ['ok'] },
    ];
    const client = await h.client();
    const r = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ function: { name: 'serviceSearch' } } as any],
    });
    assert.equal(r.choices[0].message.content, 'ok');
    const assistant = up.requests[up.requests.length - 1].messages.find((m: any) => m.role === 'assistant');
    assert.equal(assistant.tool_calls[0].function.arguments, '{"query":"trains"}');
  });
  it('a streamed completion whose upstream fails before any answer text keeps the HTTP status (the client can tell 502 from 504 and retry)', async () => {
    const client = await h.client();
    up.script = [{ status: 503 }];
    await assert.rejects(
      client.chat.completions.create({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: 'x' }] }),
      (err: any) => {
        assert.ok(err instanceof OpenAI.APIError);
        assert.equal(err.status, 502);
        assert.equal(err.code, 'upstream_error');
        assert.match(err.message, /scripted failure 503/);
        return true;
      },
    );
    // Also after a tool round that produced no text yet.
    up.script = [{ toolCalls: [{ name: 'serviceSearch', arguments: '{"query": "x"}' }] }, { status: 500 }];
    const res = await h.fetch('/api/beta/serviceai/chat/completions', {
      method: 'POST',
      key,
      body: JSON.stringify({
        model: 'fake-model',
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
        tools: [{ function: { name: 'serviceSearch' } }],
      }),
    });
    assert.equal(res.status, 502);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assertShape(await res.json(), 'upstream_error');
  });
  it('an error in the middle of a stream reaches the streaming client as an error', async () => {
    up.script = [{ content: ['partial'], errorAfter: 'model crashed' }];
    const client = await h.client();
    const stream = await client.chat.completions.create({
      model: 'fake-model',
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
    });
    let text = '';
    await assert.rejects(
      (async () => {
        for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
      })(),
      (err: any) => err instanceof OpenAI.APIError && /model crashed/.test(err.message),
    );
    assert.equal(text, 'partial');
  });
});
