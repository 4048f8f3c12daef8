/**
 * The embedded default model of a fresh install (`extractive`, no upstream):
 * it searches with the offered tools, quotes the best-matching passages with
 * [n] citations (and the `citations` field), says plainly that it does not
 * generate free text, answers in the requested language, and streams.
 */
import type OpenAI from 'openai';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chatHarness, textDoc, type ChatHarness } from '../../support/chat.ts';
import type { SearchPassage } from '../../../src/chat/tools.ts';

let h: ChatHarness;
before(async () => {
  h = await chatHarness();
  await h.index(
    'handbook',
    ['alice@example.com'],
    [
      textDoc(
        'travel',
        'Travel policy',
        'Employees book trains for trips under 500 km. Flights need approval by the manager. The canteen opens at noon.',
      ),
      textDoc('holidays', 'Holiday rules', 'Holidays must be requested two weeks in advance.'),
    ],
  );
});
after(() => h.close());

const tools = [{ type: 'function' as const, function: { name: 'serviceSearch' } }];

describe('extractive default model', () => {
  it('answers from retrieved passages with citations, and says it does not generate free text', async () => {
    const client = await h.client();
    const r = await client.chat.completions.create({
      model: 'extractive',
      messages: [{ role: 'user', content: 'Which trips do employees book trains for?' }],
      tools,
      metadata: { language: 'en' },
    });
    const text = r.choices[0].message.content ?? '';
    assert.match(text, /do not generate free text/);
    assert.match(text, /> Employees book trains for trips under 500 km\. \[1\]/);
    assert.doesNotMatch(text, /canteen/, 'only matching sentences are quoted');
    const citations = (r as any).citations;
    assert.equal(citations[0].number, 1);
    assert.equal(citations[0].title, 'Travel policy');
    assert.equal(r.model, 'extractive');
  });

  it('is the default model: a request without model is answered by it, in German by default', async () => {
    const res = await h.fetch('/api/beta/serviceai/chat/completions', {
      method: 'POST',
      key: await h.personal('alice@example.com'),
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Holidays requested' }], tools }),
    });
    const body = await res.json();
    assert.equal(res.status, 200);
    assert.equal(body.model, 'extractive');
    assert.match(body.choices[0].message.content, /formuliere keinen freien Text/);
    assert.match(body.choices[0].message.content, /two weeks in advance\. \[1\]/);
  });

  it('without tools or files it has nothing to quote, and says so', async () => {
    const client = await h.client();
    const r = await client.chat.completions.create({
      model: 'extractive',
      messages: [{ role: 'user', content: 'trains' }],
      metadata: { language: 'en' },
    });
    assert.match(r.choices[0].message.content ?? '', /nothing to quote from/);
    assert.deepEqual((r as any).citations, []);
  });

  it('says when the search found nothing', async () => {
    const client = await h.client();
    const r = await client.chat.completions.create({
      model: 'extractive',
      messages: [{ role: 'user', content: 'quantum chromodynamics' }],
      tools,
      metadata: { language: 'en' },
    });
    assert.match(r.choices[0].message.content ?? '', /found no matching passage/);
  });

  it('streams its answer in several chunks with the citations on the last one', async () => {
    const client = await h.client();
    const stream = await client.chat.completions.create({
      model: 'extractive',
      stream: true,
      messages: [{ role: 'user', content: 'flights approval manager' }],
      tools,
      metadata: { language: 'en' },
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    assert.ok(chunks.length > 5);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    assert.match(text, /Flights need approval by the manager\. \[1\]/);
    assert.equal((chunks[chunks.length - 1] as any).citations[0].title, 'Travel policy');
  });
});

describe('extractive quotes of texts with their own bracketed numbers', () => {
  it('footnote markers inside a quoted sentence are not taken for citations of other sources', async () => {
    const passages: SearchPassage[] = [
      {
        id: 'paris',
        title: 'France',
        path_preview: 'wiki/france',
        datasource: 'wikitool',
        text: 'Paris is the largest city of France.',
      },
      {
        id: 'berlin',
        title: 'Germany',
        path_preview: 'wiki/germany',
        datasource: 'wikitool',
        text: 'Berlin is the capital[1] of Germany.[2]',
      },
    ];
    const f = await chatHarness({ services: { chatSearch: async () => passages } });
    try {
      const client = await f.client();
      const r = await client.chat.completions.create({
        model: 'extractive',
        messages: [{ role: 'user', content: 'capital of Germany' }],
        tools,
        metadata: { language: 'en' },
      });
      const text = r.choices[0].message.content ?? '';
      assert.match(text, /> Berlin is the capital of Germany\. \[1\]/);
      assert.deepEqual(
        (r as any).citations.map((c: { id: string }) => c.id),
        ['berlin'],
        'only the quoted source is cited',
      );
    } finally {
      await f.close();
    }
  });
});
