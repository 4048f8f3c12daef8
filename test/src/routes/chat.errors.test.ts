/**
 * Every error of the chat-completion API in the compatible shape
 * `{error: {message, type, param, code}, detail}`, as the official client
 * sees it: authentication, body validation, unknown model/agent/file,
 * unsupported operations, unknown paths (upstream failures:
 * chat.upstream-failures.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import OpenAI from 'openai';
import { MASTER_KEY } from '../../support/app.ts';
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

async function post(body: unknown, k: string | null = key) {
  const res = await h.fetch('/api/beta/serviceai/chat/completions', {
    method: 'POST',
    key: k,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

function assertShape(body: any, code: string | RegExp) {
  assert.equal(typeof body.error.message, 'string');
  assert.equal(typeof body.error.type, 'string');
  assert.ok('param' in body.error);
  if (typeof code === 'string') assert.equal(body.error.code, code);
  else assert.match(body.error.code, code);
  assert.ok('detail' in body);
}

const user = [{ role: 'user', content: 'hi' }];

describe('authentication', () => {
  it('401 without a key and with an unknown key; 403 with a service-account key', async () => {
    let r = await post({ messages: user }, null);
    assert.equal(r.status, 401);
    assertShape(r.body, 'invalid_api_key');
    assert.equal(r.body.error.type, 'authentication_error');
    r = await post({ messages: user }, 'sk_unknown');
    assert.equal(r.status, 401);
    r = await post({ messages: user }, h.key);
    assert.equal(r.status, 403);
    assertShape(r.body, 'wrong_key_kind');
  });

  it('the official client raises AuthenticationError for a bad key', async () => {
    const client = new OpenAI({ apiKey: 'bad', baseURL: `${h.baseUrl}/api/beta/serviceai`, maxRetries: 0 });
    await assert.rejects(client.models.list(), OpenAI.AuthenticationError);
  });
});

describe('body validation (422)', () => {
  const cases: [string, unknown, string][] = [
    ['a field outside the compatible API', { messages: user, top_k: 40 }, 'top_k'],
    ['a compatible field the service lacks (client functions)', { messages: user, functions: [] }, 'functions'],
    ['n other than 1', { messages: user, n: 2 }, 'n'],
    ['logprobs requested', { messages: user, logprobs: true }, 'logprobs'],
    ['a structured response format', { messages: user, response_format: { type: 'json_object' } }, 'response_format'],
    ['max_tokens of 0', { messages: user, max_tokens: 0 }, 'max_tokens'],
    ['a fractional max_completion_tokens', { messages: user, max_completion_tokens: 1.5 }, 'max_completion_tokens'],
    ['five stop sequences', { messages: user, stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
    ['a stop sequence not a string', { messages: user, stop: [5] }, 'stop.0'],
    ['top_p above 1', { messages: user, top_p: 1.5 }, 'top_p'],
    ['presence_penalty below -2', { messages: user, presence_penalty: -3 }, 'presence_penalty'],
    [
      'an unknown stream option',
      { messages: user, stream: true, stream_options: { colour: 1 } },
      'stream_options.colour',
    ],
    ['no messages', { model: 'fake-model' }, 'messages'],
    ['empty messages', { messages: [] }, 'messages'],
    ['a tool role', { messages: [{ role: 'tool', content: 'x' }] }, 'messages.0.role'],
    ['content not a string', { messages: [{ role: 'user', content: 5 }] }, 'messages.0.content'],
    ['no user message', { messages: [{ role: 'system', content: 'x' }] }, 'messages'],
    ['stream not boolean', { messages: user, stream: 'yes' }, 'stream'],
    ['temperature above 2', { messages: user, temperature: 3 }, 'temperature'],
    [
      'an unknown tool',
      { messages: user, tools: [{ function: { name: 'codeInterpreter' } }] },
      'tools.0.function.name',
    ],
    ['an unknown metadata key', { messages: user, metadata: { color: 'red' } }, 'metadata.color'],
    ['an unknown language', { messages: user, metadata: { language: 'fr' } }, 'metadata.language'],
    [
      'an unknown web search mode',
      { messages: user, metadata: { web_search_mode: 'turbo' } },
      'metadata.web_search_mode',
    ],
    ['files not a list', { messages: user, metadata: { files: 'file-1' } }, 'metadata.files'],
  ];
  for (const [name, body, param] of cases) {
    it(`422 for ${name}`, async () => {
      const r = await post(body);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assertShape(r.body, /.+/);
      assert.equal(r.body.error.type, 'invalid_request_error');
      assert.equal(r.body.error.param, param);
      assert.ok(Array.isArray(r.body.detail));
    });
  }
  it('content given as a list of parts is checked as parts: the error names the offending part, not "a valid string"', async () => {
    let r = await post({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://example.org/a.png' } },
          ],
        },
      ],
    });
    assert.equal(r.status, 422);
    assert.equal(r.body.error.param, 'messages.0.content.1.type');
    assert.equal(r.body.error.code, 'literal_error');
    assert.match(r.body.error.message, /'text'/);
    r = await post({ messages: [{ role: 'user', content: [{ type: 'text' }] }] });
    assert.equal(r.status, 422);
    assert.equal(r.body.error.param, 'messages.0.content.0.text');
    assert.equal(r.body.error.code, 'missing');
    r = await post({ messages: [{ role: 'user', content: 5 }] });
    assert.equal(r.body.error.param, 'messages.0.content');
    assert.equal(r.body.error.code, 'string_type');
  });
  it('text parts are joined into the message the model sees', async () => {
    await post({
      model: 'fake-model',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'first' },
            { type: 'text', text: 'second' },
          ],
        },
      ],
    });
    const sent = up.requests[up.requests.length - 1].messages;
    assert.equal(sent[sent.length - 1].content, 'first\nsecond');
  });
  it('422 for invalid JSON', async () => {
    const r = await post('{"messages": [');
    assert.equal(r.status, 422);
    assertShape(r.body, 'json_invalid');
  });
  it('the official client raises UnprocessableEntityError', async () => {
    const client = await h.client();
    await assert.rejects(
      client.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], model: 'fake-model', n: 2 }),
      OpenAI.UnprocessableEntityError,
    );
  });
});

describe('unknown references (404)', () => {
  it('an unknown model', async () => {
    const client = await h.client();
    await assert.rejects(
      client.chat.completions.create({ model: 'nope', messages: [{ role: 'user', content: 'x' }] }),
      (err: any) => {
        assert.ok(err instanceof OpenAI.NotFoundError);
        assert.equal(err.code, 'model_not_found');
        assert.equal(err.param, 'model');
        return true;
      },
    );
  });
  it('an unknown agent id, also when streaming', async () => {
    const client = await h.client();
    for (const stream of [false, true]) {
      await assert.rejects(
        client.chat.completions.create({
          model: 'fake-model',
          stream,
          messages: [{ role: 'user', content: 'x' }],
          metadata: { agent_id: 'agent_000000000000000000000000' },
        } as any),
        (err: any) =>
          err instanceof OpenAI.NotFoundError && err.code === 'agent_not_found' && /agent_0+/.test(err.message),
      );
    }
  });
  it('an unknown or malformed file id', async () => {
    for (const id of ['file-0123456789abcdef01234567', '../../etc/passwd']) {
      const r = await post({ messages: user, metadata: { files: [id] } });
      assert.equal(r.status, 404);
      assertShape(r.body, 'file_not_found');
      assert.equal(r.body.error.param, 'metadata.files');
    }
  });
});

describe('other operations of the compatible API', () => {
  const ops: [string, string][] = [
    ['GET', '/chat/completions'],
    ['GET', '/chat/completions/chatcmpl-1'],
    ['POST', '/chat/completions/chatcmpl-1'],
    ['DELETE', '/chat/completions/chatcmpl-1'],
    ['GET', '/chat/completions/chatcmpl-1/messages'],
    ['DELETE', '/models/fake-model'],
  ];
  for (const [method, path] of ops) {
    it(`${method} ${path} answers 400 unsupported_operation`, async () => {
      const res = await h.fetch(`/api/beta/serviceai${path}`, {
        method,
        key,
        body: method === 'POST' ? '{}' : undefined,
      });
      assert.equal(res.status, 400);
      const body = await res.json();
      assertShape(body, 'unsupported_operation');
      assert.match(body.error.message, /not supported/);
    });
  }
  it('the official client raises for listing stored completions', async () => {
    const client = await h.client();
    await assert.rejects(client.chat.completions.list(), OpenAI.BadRequestError);
  });
  it('an unknown path answers 404 in the same shape', async () => {
    const res = await h.fetch('/api/beta/serviceai/embeddings', { method: 'POST', key, body: '{}' });
    assert.equal(res.status, 404);
    assertShape(await res.json(), 'not_found');
  });
});

describe('master key', () => {
  it('is not a personal key (403)', async () => {
    const r = await post({ messages: user }, MASTER_KEY);
    assert.equal(r.status, 403);
  });
});
