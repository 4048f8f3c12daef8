/**
 * metadata.language: the analysis language of the search the chat runs
 * (the hint for very short inputs, detection for longer ones; default de),
 * and the language of the system instructions and of the extractive answer.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { ChatSearchParams } from '../../../src/chat/tools.ts';
import { chatHarness, type ChatHarness } from '../../support/chat.ts';

let h: ChatHarness;
const calls: ChatSearchParams[] = [];
before(async () => {
  h = await chatHarness({
    services: {
      chatSearch: async (_email, params) => {
        calls.push(params);
        return [
          {
            id: 'd1',
            title: 'Urlaubsregeln',
            path_preview: 'wiki/urlaub',
            datasource: 'wikitool',
            text: 'Urlaub wird zwei Wochen vorher beantragt.',
          },
        ];
      },
    },
  });
});
after(() => h.close());
beforeEach(() => {
  calls.length = 0;
});

const ask = async (content: string, language?: 'de' | 'en') => {
  const client = await h.client();
  return client.chat.completions.create({
    model: 'extractive',
    messages: [{ role: 'user', content }],
    tools: [{ type: 'function', function: { name: 'serviceSearch' } }],
    ...(language ? { metadata: { language } } : {}),
  });
};

describe('metadata.language', () => {
  it('a very short input is analysed in the hint language (default de)', async () => {
    await ask('Urlaub');
    await ask('Urlaub', 'en');
    assert.deepEqual(
      calls.map((c) => c.language),
      ['de', 'en'],
    );
  });

  it('a longer input is analysed in its detected language whatever the hint', async () => {
    await ask('Wie beantrage ich meinen Urlaub bei der Personalabteilung?', 'en');
    await ask('How do I request my holidays from the personnel department?', 'de');
    assert.deepEqual(
      calls.map((c) => c.language),
      ['de', 'en'],
    );
  });

  it('sets the language of the answer', async () => {
    const de = (await ask('Urlaub beantragen')).choices[0].message.content ?? '';
    const en = (await ask('Urlaub beantragen', 'en')).choices[0].message.content ?? '';
    assert.match(de, /extraktive Modell/);
    assert.match(en, /extractive model/);
    for (const text of [de, en]) assert.match(text, /Urlaub wird zwei Wochen vorher beantragt\. \[1\]/);
  });
});
