/**
 * Widely used chat clients work unmodified against POST /chat/completions,
 * streaming and not, with an upstream model (the scripted fake) and with the
 * embedded extractive model: LangChain's ChatOpenAI, the Vercel `ai` SDK with
 * `@ai-sdk/openai` (chat provider) and with `@ai-sdk/openai-compatible`, and
 * the official `openai` client. Each sends fields beyond the spec's six
 * (stream_options, max_tokens, ...); the answer text and the usage arrive,
 * and the generation options reach the upstream.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ChatOpenAI } from '@langchain/openai';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText, type LanguageModel } from 'ai';
import { chatHarness, startFakeUpstream, type ChatHarness, type FakeUpstream } from '../../support/chat.ts';

let h: ChatHarness;
let up: FakeUpstream;
let key: string;
let baseURL: string;
before(async () => {
  up = await startFakeUpstream();
  h = await chatHarness({ upstream: up.url });
  key = await h.personal('alice@example.com');
  baseURL = `${h.baseUrl}/api/beta/serviceai`;
});
after(async () => {
  await h.close();
  await up.close();
});
beforeEach(() => {
  up.requests.length = 0;
  up.script = [];
});

const EXTRACTIVE_START = /^I am the built-in extractive model/;
const lastRequest = () => up.requests[up.requests.length - 1];

describe("LangChain's ChatOpenAI", () => {
  const model = (name: string, extra: Record<string, unknown> = {}) =>
    new ChatOpenAI({ model: name, apiKey: key, configuration: { baseURL }, maxRetries: 0, ...extra });

  it('invoke() with an upstream model passes max_tokens, top_p, stop and the penalties on', async () => {
    up.script = [{ content: ['Hello', ' there.'] }];
    const llm = model('fake-model', {
      maxTokens: 40,
      topP: 0.5,
      stop: ['END'],
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
    });
    const answer = await llm.invoke('Say hello');
    assert.equal(answer.content, 'Hello there.');
    assert.ok((answer.usage_metadata?.total_tokens ?? 0) > 0);
    const sent = lastRequest();
    assert.equal(sent.max_tokens ?? sent.max_completion_tokens, 40);
    assert.equal(sent.top_p, 0.5);
    assert.deepEqual(sent.stop, ['END']);
    assert.equal(sent.presence_penalty, 0.1);
    assert.equal(sent.frequency_penalty, 0.2);
  });

  it('stream() with an upstream model streams the text and reports the usage', async () => {
    up.script = [{ content: ['One', ' two', ' three.'] }];
    let text = '';
    let total = 0;
    for await (const chunk of await model('fake-model').stream('Count')) {
      text += String(chunk.content);
      total += chunk.usage_metadata?.total_tokens ?? 0;
    }
    assert.equal(text, 'One two three.');
    assert.ok(total > 0, 'the usage chunk arrives');
  });

  it('invoke() and stream() with the extractive model', async () => {
    const answer = await model('extractive').invoke('What does the travel policy say about trains?');
    assert.match(String(answer.content), EXTRACTIVE_START);
    let text = '';
    for await (const chunk of await model('extractive').stream('What does the travel policy say about trains?'))
      text += String(chunk.content);
    assert.equal(text, answer.content);
  });
});

/** Both Vercel providers, each through generateText and streamText. */
function vercelCases(name: string, provider: (model: string) => LanguageModel) {
  describe(`the Vercel ai SDK with ${name}`, () => {
    it('generateText() with an upstream model passes maxOutputTokens, topP and seed on', async () => {
      up.script = [{ content: ['Hello', ' there.'] }];
      const r = await generateText({
        model: provider('fake-model'),
        prompt: 'Say hello',
        maxOutputTokens: 30,
        topP: 0.4,
        seed: 7,
        maxRetries: 0,
      });
      assert.equal(r.text, 'Hello there.');
      assert.ok((r.usage.totalTokens ?? 0) > 0);
      const sent = lastRequest();
      assert.equal(sent.max_tokens ?? sent.max_completion_tokens, 30);
      assert.equal(sent.top_p, 0.4);
      assert.equal(sent.seed, 7);
    });

    it('streamText() with an upstream model streams the text and reports the usage', async () => {
      up.script = [{ content: ['One', ' two', ' three.'] }];
      const errors: unknown[] = [];
      const r = streamText({
        model: provider('fake-model'),
        prompt: 'Count',
        maxRetries: 0,
        onError: ({ error }) => void errors.push(error),
      });
      let text = '';
      for await (const t of r.textStream) text += t;
      assert.deepEqual(errors, []);
      assert.equal(text, 'One two three.');
      assert.ok(((await r.usage).totalTokens ?? 0) > 0, 'the usage arrives');
      assert.equal(await r.finishReason, 'stop');
    });

    it('generateText() and streamText() with the extractive model, capped by maxOutputTokens', async () => {
      const full = await generateText({
        model: provider('extractive'),
        prompt: 'What does the travel policy say about trains?',
        maxRetries: 0,
      });
      assert.match(full.text, EXTRACTIVE_START);
      const capped = await generateText({
        model: provider('extractive'),
        prompt: 'What does the travel policy say about trains?',
        maxOutputTokens: 5,
        maxRetries: 0,
      });
      assert.ok(capped.text.length > 0 && capped.text.length <= 20, `at most 5 tokens: ${JSON.stringify(capped.text)}`);
      assert.ok(full.text.startsWith(capped.text.trimEnd()));
      assert.equal(capped.finishReason, 'length');
      const r = streamText({
        model: provider('extractive'),
        prompt: 'What does the travel policy say about trains?',
        maxRetries: 0,
      });
      let text = '';
      for await (const t of r.textStream) text += t;
      assert.equal(text, full.text);
    });
  });
}

vercelCases('@ai-sdk/openai', (m) => createOpenAI({ apiKey: key, baseURL }).chat(m));
vercelCases('@ai-sdk/openai-compatible', (m) =>
  createOpenAICompatible({ name: 'enterprise-search', apiKey: key, baseURL, includeUsage: true })(m),
);

describe('the official openai client', () => {
  it('create() with the fields of the compatible API it types', async () => {
    up.script = [{ content: ['Fine.'] }];
    const client = await h.client();
    const r = await client.chat.completions.create({
      model: 'fake-model',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'How are you?' },
      ],
      max_completion_tokens: 20,
      n: 1,
      seed: 3,
      stop: 'END',
      user: 'u-1',
      parallel_tool_calls: true,
      store: false,
      logprobs: false,
      response_format: { type: 'text' },
    });
    assert.equal(r.choices[0].message.content, 'Fine.');
    const sent = lastRequest();
    assert.equal(sent.max_completion_tokens, 20);
    assert.equal(sent.seed, 3);
    assert.equal(sent.stop, 'END');
    assert.equal(sent.user, 'u-1');
    assert.match(sent.messages[0].content, /Be brief\.$/, 'a developer message joins the system message');
    for (const ignored of ['n', 'parallel_tool_calls', 'store', 'logprobs', 'response_format'])
      assert.equal(sent[ignored], undefined, `${ignored} is not passed on`);
  });

  it('a stream with include_usage ends with a usage chunk without choices before [DONE]', async () => {
    up.script = [{ content: ['A', 'B'] }];
    const client = await h.client();
    const chunks = [];
    const stream = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const c of stream) chunks.push(c);
    const last = chunks[chunks.length - 1];
    assert.deepEqual(last.choices, []);
    assert.ok(last.usage && last.usage.total_tokens > 0);
    assert.equal(chunks[chunks.length - 2].choices[0].finish_reason, 'stop');
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), 'AB');
  });

  it('a stream without include_usage has no chunk without choices (as before)', async () => {
    const client = await h.client();
    const stream = await client.chat.completions.create({
      model: 'extractive',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
      max_tokens: 8,
    });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    assert.ok(chunks.every((c) => c.choices.length === 1));
    const last = chunks[chunks.length - 1];
    assert.equal(last.choices[0].finish_reason, 'length');
    assert.ok(last.usage && last.usage.completion_tokens <= 8);
  });
});
