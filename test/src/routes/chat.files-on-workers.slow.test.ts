/**
 * The relevant passages of a long attached file are picked on a search worker thread
 * (search/pool.ts selectPassages) when the server has search threads, not on the thread that
 * serves HTTP; the model gets the same passages as selectRelevant picks on this thread.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { SearchPool } from '../../../src/search/pool.ts';
import { selectRelevant } from '../../../src/passages/select.ts';
import { chatHarness, startFakeUpstream, type ChatHarness, type FakeUpstream } from '../../support/chat.ts';

let h: ChatHarness;
let up: FakeUpstream;
let pool: SearchPool;
const calls: number[] = [];

const FILLER =
  'The quarterly report lists the office supplies, the coffee machine and the printer paper of every team. ';
const FILE =
  FILLER.repeat(40) +
  'The parking garage closes at 22:00 on weekdays and stays closed on Sundays. ' +
  FILLER.repeat(40);
const QUESTION = 'When does the parking garage close on weekdays?';

before(async () => {
  up = await startFakeUpstream();
  const base = await chatHarness({ upstream: up.url, env: { FILES_CONTEXT_CHARS: '600' } });
  pool = new SearchPool(base.services.documents!.index, 1);
  await base.close();
  h = await chatHarness({
    upstream: up.url,
    env: { FILES_CONTEXT_CHARS: '600' },
    services: {
      searchRunner: {
        runJson: (plan, runFor) => pool.runJson(plan, runFor),
        selectPassages: (text, question, budget, language) => {
          calls.push(text.length);
          return pool.selectPassages(text, question, budget, language);
        },
      },
    },
  });
});
after(async () => {
  await h.close();
  await pool.close();
  await up.close();
});

it('a search worker picks the same passages of a long file as this thread would', async () => {
  assert.equal(await pool.selectPassages(FILE, QUESTION, 600, 'en'), selectRelevant(FILE, QUESTION, 600, 'en'));
});

it('a chat completion with a long attached file has its passages picked on the workers', async () => {
  const form = new FormData();
  form.append('file', new Blob([FILE], { type: 'text/plain' }), 'facilities.txt');
  const res = await h.fetch('/api/beta/files/upload', {
    method: 'POST',
    key: await h.personal('alice@example.com'),
    body: form,
  });
  assert.equal(res.status, 200);
  const { id } = (await res.json()) as { id: string };
  const client = await h.client();
  await client.chat.completions.create({
    model: 'fake-model',
    messages: [{ role: 'user', content: QUESTION }],
    metadata: { files: [id] },
  } as never);
  assert.deepEqual(calls, [FILE.length], 'one selection, on the pool');
  const system = up.requests[0].messages[0].content as string;
  assert.match(system, /parking garage closes at 22:00/);
  assert.ok(system.includes(selectRelevant(FILE, QUESTION, 600, 'en')), 'the passages this thread would pick');
});
