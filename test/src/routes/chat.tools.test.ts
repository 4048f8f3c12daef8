/**
 * The tool loop against a fake upstream that scripts tool calls (streamed as
 * tool-call deltas): serviceSearch over really indexed documents, filtered by
 * the key's account; citations renumbered by first use with the `citations`
 * field; webSearch unconfigured and configured (with web_search_mode); the
 * bound on tool rounds; markers never split across streamed chunks.
 */
import type OpenAI from 'openai';
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { MAX_CALLS_PER_ROUND } from '../../../src/chat/tools.ts';
import type { WebSearchRequest, WebSearchService } from '../../../src/websearch/types.ts';
import { chatHarness, startFakeUpstream, textDoc, type ChatHarness, type FakeUpstream } from '../../support/chat.ts';

let h: ChatHarness;
let up: FakeUpstream;
const webRequests: WebSearchRequest[] = [];
const web: WebSearchService = {
  async search(req) {
    webRequests.push(req);
    return [
      {
        url: 'https://example.org/trains',
        metadata: { title: 'Trains', description: '' },
        content: 'Night trains run daily.',
      },
    ];
  },
};

before(async () => {
  up = await startFakeUpstream();
  h = await chatHarness({ upstream: up.url, env: { CHAT_MAX_TOOL_ROUNDS: '2' } });
  await h.index(
    'handbook',
    ['alice@example.com', 'bob@example.com'],
    [
      textDoc('travel', 'Travel policy', 'Employees book trains for trips under 500 km.'),
      textDoc('secret', 'Salary bands', 'Salary bands are reviewed every March.', {
        permissions: { allowed_users: [{ email: 'alice@example.com' }] },
      }),
    ],
  );
});
after(async () => {
  await h.close();
  await up.close();
});
beforeEach(() => {
  up.requests.length = 0;
  up.script = [];
  webRequests.length = 0;
});

const search = (query: string) => ({ name: 'serviceSearch', arguments: JSON.stringify({ query }) });

function toolMessages(req: any): string[] {
  return req.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
}

/** The retrieval key the tool message gave a document title. */
function keyOf(toolText: string, title: string): number {
  const m = new RegExp(`\\[(\\d+)\\] ${title}`).exec(toolText);
  assert.ok(m, `${title} in ${toolText}`);
  return Number(m[1]);
}

describe('serviceSearch', () => {
  it('offers the tool, runs the streamed call as a permission-filtered search and cites the result', async () => {
    up.script = [{ toolCalls: [search('trains trips')], argPieces: 4 }, { content: ['Book trains [', '1', '].'] }];
    const client = await h.client('alice@example.com');
    const r = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'How do I travel?' }],
      tools: [{ type: 'function', function: { name: 'serviceSearch' } }],
    });
    assert.equal(up.requests.length, 2);
    assert.deepEqual(
      up.requests[0].tools.map((t: { function: { name: string } }) => t.function.name),
      ['serviceSearch'],
    );
    const second = up.requests[1];
    const assistant = second.messages.find((m: { role: string }) => m.role === 'assistant');
    assert.equal(assistant.tool_calls[0].function.name, 'serviceSearch');
    assert.equal(
      assistant.tool_calls[0].function.arguments,
      JSON.stringify({ query: 'trains trips' }),
      'argument deltas joined',
    );
    const [tool] = toolMessages(second);
    assert.match(tool, /\[1\] Travel policy/);
    assert.match(tool, /500 km/);
    assert.equal(r.choices[0].message.content, 'Book trains [1].');
    const citations = (r as any).citations;
    assert.equal(citations.length, 1);
    assert.deepEqual(
      {
        number: citations[0].number,
        id: citations[0].id,
        title: citations[0].title,
        datasource: citations[0].datasource,
      },
      { number: 1, id: 'handbook:travel', title: 'Travel policy', datasource: 'handbook' },
    );
    assert.equal(typeof citations[0].path_preview, 'string');
  });

  it("searches only what the key's account may see", async () => {
    up.script = [
      { toolCalls: [search('salary bands')] },
      { content: ['-'] },
      { toolCalls: [search('salary bands')] },
      { content: ['-'] },
    ];
    const tools = [{ type: 'function' as const, function: { name: 'serviceSearch' } }];
    const messages = [{ role: 'user' as const, content: 'salary bands' }];
    await (await h.client('alice@example.com')).chat.completions.create({ model: 'fake-model', messages, tools });
    assert.match(toolMessages(up.requests[1])[0], /Salary bands/);
    await (await h.client('bob@example.com')).chat.completions.create({ model: 'fake-model', messages, tools });
    assert.doesNotMatch(toolMessages(up.requests[3])[0], /Salary bands/);
    assert.match(toolMessages(up.requests[3])[0], /No internal documents match/);
  });

  it('numbers citations by first use and lists the cited sources in that order', async () => {
    up.script = [{ toolCalls: [search('trains'), search('salary')] }];
    const client = await h.client('alice@example.com');
    // The second round's answer is scripted after the first request shows the keys.
    const first = client.chat.completions.create({
      model: 'fake-model',
      stream: true,
      messages: [{ role: 'user', content: 'both' }],
      tools: [{ function: { name: 'serviceSearch' } } as any],
    });
    // Keys: travel and salary are found by separate calls, in call order.
    up.script.push({ content: ['Salary [2', '] and trains [1]', ', again [2].'] });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const c of await first) chunks.push(c);
    const tools = toolMessages(up.requests[1]);
    assert.equal(keyOf(tools[0], 'Travel policy'), 1);
    assert.equal(keyOf(tools[1], 'Salary bands'), 2);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    assert.equal(text, 'Salary [1] and trains [2], again [1].');
    for (const c of chunks)
      assert.doesNotMatch(c.choices[0]?.delta.content ?? '', /\[\d*$/, 'no chunk ends inside a marker');
    const cited = (chunks[chunks.length - 1] as any).citations;
    assert.deepEqual(
      cited.map((c: { number: number; id: string }) => [c.number, c.id]),
      [
        [1, 'handbook:secret'],
        [2, 'handbook:travel'],
      ],
    );
  });

  it('without tools in the request nothing is offered and nothing is searched', async () => {
    up.script = [{ content: ['plain'] }];
    const client = await h.client();
    const r = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'trains?' }],
    });
    assert.equal(up.requests[0].tools, undefined);
    assert.equal(r.choices[0].message.content, 'plain');
  });

  it('bounds the tool rounds: after CHAT_MAX_TOOL_ROUNDS the model must answer without tools', async () => {
    up.script = [
      { toolCalls: [search('a')] },
      { toolCalls: [search('b')] },
      { toolCalls: [search('c')] },
      { content: ['never used'] },
    ];
    const client = await h.client();
    const r = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'loop' }],
      tools: [{ function: { name: 'serviceSearch' } } as any],
    });
    assert.equal(up.requests.length, 3);
    assert.ok(up.requests[0].tools && up.requests[1].tools);
    assert.equal(up.requests[2].tools, undefined, 'last round without tools');
    assert.equal(r.choices[0].finish_reason, 'stop');
    assert.equal(r.choices[0].message.content, '', 'the tool calls of the tool-less round are ignored');
  });

  it('finish_reason is the one of the round that answered: a tool round cut by the token limit does not mark the final answer as cut', async () => {
    up.script = [
      { toolCalls: [{ name: 'serviceSearch', arguments: '{"query": "tra' }], finish: 'length' },
      { content: ['Book trains.'] },
    ];
    const client = await h.client();
    const tools = [{ function: { name: 'serviceSearch' } } as any];
    const r = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'x' }],
      tools,
    });
    assert.equal(r.choices[0].message.content, 'Book trains.');
    assert.equal(r.choices[0].finish_reason, 'stop');
    up.script = [{ toolCalls: [search('trains')] }, { content: ['Book'], finish: 'length' }];
    const cut = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'x' }],
      tools,
    });
    assert.equal(cut.choices[0].finish_reason, 'length', 'a cut final answer still says so');
  });

  it('bad tool arguments are reported to the model, not to the client', async () => {
    up.script = [{ toolCalls: [{ name: 'serviceSearch', arguments: '{"query": ' }] }, { content: ['sorry'] }];
    const client = await h.client();
    const r = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ function: { name: 'serviceSearch' } } as any],
    });
    assert.match(toolMessages(up.requests[1])[0], /not valid JSON/);
    assert.equal(r.choices[0].message.content, 'sorry');
  });
});

describe('tools that are not offered', () => {
  it('the system instructions describe only the tools offered', async () => {
    const client = await h.client();
    for (const [name, other] of [
      ['serviceSearch', 'webSearch'],
      ['webSearch', 'serviceSearch'],
    ]) {
      up.requests.length = 0;
      await client.chat.completions.create({
        model: 'fake-model',
        messages: [{ role: 'user', content: 'x' }],
        tools: [{ function: { name } } as any],
        metadata: { language: 'en' },
      });
      const system: string = up.requests[0].messages[0].content;
      assert.match(system, new RegExp(name));
      assert.doesNotMatch(system, new RegExp(other), `${other} is not offered`);
    }
  });

  it('a call of a tool that was not offered is answered to the model as unavailable (never run), and the model still answers', async () => {
    const w = await chatHarness({ upstream: up.url, services: { webSearch: web } });
    try {
      up.script = [
        { toolCalls: [{ name: 'webSearch', arguments: JSON.stringify({ queries: ['trains'] }) }] },
        { content: ['From what I know: trains.'] },
      ];
      const client = await w.client();
      const r = await client.chat.completions.create({
        model: 'fake-model',
        messages: [{ role: 'user', content: 'x' }],
        tools: [{ function: { name: 'serviceSearch' } } as any],
      });
      assert.equal(webRequests.length, 0, 'webSearch was not offered, so it is not run');
      assert.equal(up.requests.length, 2);
      assert.match(toolMessages(up.requests[1])[0], /webSearch is not available/);
      assert.equal(r.choices[0].message.content, 'From what I know: trains.');
    } finally {
      await w.close();
    }
  });
});

describe('tool calls per round', () => {
  it('runs at most MAX_CALLS_PER_ROUND calls of one round; the model is told the others were not run', async () => {
    const w = await chatHarness({ upstream: up.url, services: { webSearch: web } });
    try {
      const calls = Array.from({ length: MAX_CALLS_PER_ROUND + 3 }, (_, i) => ({
        name: 'webSearch',
        arguments: JSON.stringify({ queries: [`q${i}`] }),
      }));
      up.script = [{ toolCalls: calls }, { content: ['done'] }];
      const client = await w.client();
      const r = await client.chat.completions.create({
        model: 'fake-model',
        messages: [{ role: 'user', content: 'x' }],
        tools: [{ function: { name: 'webSearch' } } as any],
      });
      assert.equal(webRequests.length, MAX_CALLS_PER_ROUND);
      const results = toolMessages(up.requests[1]);
      assert.equal(results.length, calls.length, 'every call gets an answer');
      assert.equal(results.filter((t) => /not run/.test(t)).length, 3);
      assert.equal(r.choices[0].message.content, 'done');
    } finally {
      await w.close();
    }
  });
});

describe('webSearch', () => {
  it('says web search is not configured when the server has no web search service', async () => {
    up.script = [
      { toolCalls: [{ name: 'webSearch', arguments: JSON.stringify({ queries: ['trains'] }) }] },
      { content: ['ok'] },
    ];
    const client = await h.client();
    await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ function: { name: 'webSearch' } } as any],
    });
    assert.match(toolMessages(up.requests[1])[0], /Web search is not configured/);
  });

  it("the model sees web texts without bracketed numbers of their own (a context summary's source list, footnotes), so only the tool's own keys look like sources", async () => {
    const summary: WebSearchService = {
      async search() {
        return [
          {
            url: 'https://search.example/?q=trains',
            metadata: { title: 'Summary: trains', description: '' },
            content:
              'Summary of 1 grounded source:\n- Night trains run daily. [1]\n\nSources:\n[1] Trains (https://example.org/trains)',
          },
          {
            url: 'https://example.org/trains',
            metadata: { title: 'Trains', description: '' },
            content: 'Night trains[2] run daily.',
          },
        ];
      },
    };
    const w = await chatHarness({ upstream: up.url, services: { webSearch: summary } });
    try {
      up.script = [
        { toolCalls: [{ name: 'webSearch', arguments: JSON.stringify({ queries: ['trains'] }) }] },
        { content: ['ok'] },
      ];
      const client = await w.client();
      await client.chat.completions.create({
        model: 'fake-model',
        messages: [{ role: 'user', content: 'x' }],
        tools: [{ function: { name: 'webSearch' } } as any],
      });
      const tool = toolMessages(up.requests[1])[0];
      const markers = tool.match(/\[\d+\]/g);
      assert.deepEqual(markers, ['[1]', '[2]'], tool);
      assert.match(tool, /^\[1\] Summary: trains \(https:\/\/search\.example\/\?q=trains\)\n/);
      assert.match(tool, /\n\[2\] Trains \(https:\/\/example\.org\/trains\)\nNight trains run daily\./);
    } finally {
      await w.close();
    }
  });

  it('runs the web search service with metadata.web_search_mode and cites web results by url', async () => {
    const w = await chatHarness({ upstream: up.url, services: { webSearch: web } });
    try {
      up.script = [
        { toolCalls: [{ name: 'webSearch', arguments: JSON.stringify({ queries: ['night trains'] }) }] },
        { content: ['Daily [1].'] },
      ];
      const client = await w.client();
      const r = await client.chat.completions.create({
        model: 'fake-model',
        messages: [{ role: 'user', content: 'x' }],
        tools: [{ function: { name: 'webSearch' } } as any],
        metadata: { web_search_mode: 'context' },
      });
      assert.deepEqual(
        webRequests.map((q) => [q.queries, q.mode]),
        [[['night trains'], 'context']],
      );
      assert.match(
        toolMessages(up.requests[1])[0],
        /\[1\] Trains \(https:\/\/example.org\/trains\)\nNight trains run daily\./,
      );
      assert.deepEqual((r as any).citations, [
        {
          number: 1,
          id: 'https://example.org/trains',
          title: 'Trains',
          url: 'https://example.org/trains',
          datasource: 'web',
        },
      ]);
    } finally {
      await w.close();
    }
  });
});
