/**
 * The search threads' scheduler (src/search/scheduler.ts): the per-account limit queues an
 * account's searches beyond it, cheap searches never wait behind expensive ones, expensive
 * searches run on at most their threads and are not starved, and searches start in arrival
 * order. Asserted on the order of starts, never on time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queryWords, SearchScheduler, type Lane } from '../../../src/search/scheduler.ts';

/** A scheduler whose jobs record where they started; `end(name)` finishes one. */
function harness(threads: number, perAccount: number, depth = 1) {
  const s = new SearchScheduler({ threads, perAccount, expensiveThreads: Math.max(1, threads - 1), depth });
  const started: string[] = [];
  const where = new Map<string, { thread: number; account: string | null; lane: Lane }>();
  const submit = (name: string, account: string | null, lane: Lane = 'cheap') =>
    s.submit({
      account,
      lane,
      start: (thread) => {
        started.push(name);
        where.set(name, { thread, account, lane });
      },
      cancel: () => started.push(`cancelled ${name}`),
    });
  const end = (name: string) => {
    const w = where.get(name)!;
    where.delete(name);
    s.finish(w.thread, w.account, w.lane);
  };
  return { s, started, where, submit, end };
}

test("an account's searches beyond its limit wait, and others' start meanwhile", () => {
  const h = harness(2, 1);
  h.submit('a1', 'ann');
  h.submit('a2', 'ann');
  h.submit('a3', 'ann');
  h.submit('b1', 'bob');
  assert.deepEqual(h.started, ['a1', 'b1'], 'one of ann at a time; bob is not queued behind her');
  assert.equal(h.s.runningOf('ann'), 1);
  assert.equal(h.s.queued, 2);
  h.end('a1');
  assert.deepEqual(h.started, ['a1', 'b1', 'a2']);
  h.end('b1');
  assert.deepEqual(h.started, ['a1', 'b1', 'a2'], 'ann is at her limit although a thread is free');
  h.end('a2');
  assert.deepEqual(h.started, ['a1', 'b1', 'a2', 'a3']);
  assert.equal(h.s.queued, 0);
});

test('one account never holds every thread under its limit', () => {
  const h = harness(4, 3);
  for (let i = 0; i < 10; i++) h.submit(`a${i}`, 'ann');
  assert.equal(h.s.runningOf('ann'), 3);
  h.submit('b', 'bob');
  assert.ok(h.started.includes('b'), "bob's search starts at once on the thread ann cannot take");
});

test('searches of one lane start in arrival order across accounts', () => {
  const h = harness(1, 2);
  h.submit('a1', 'ann'); // runs
  h.submit('b1', 'bob');
  h.submit('a2', 'ann');
  h.submit('c1', 'cid');
  h.submit('b2', 'bob');
  for (const name of ['a1', 'b1', 'a2', 'c1']) h.end(name);
  assert.deepEqual(h.started, ['a1', 'b1', 'a2', 'c1', 'b2']);
});

test('cheap searches never wait behind expensive ones, which keep to their threads', () => {
  const h = harness(2, 4);
  h.submit('e1', 'ann', 'expensive');
  h.submit('e2', 'bob', 'expensive');
  assert.deepEqual(h.started, ['e1'], 'expensive searches run on at most threads - 1 threads');
  h.submit('c1', 'cid');
  h.submit('c2', 'cid');
  assert.deepEqual(h.started, ['e1', 'c1'], 'a cheap search starts on the thread without the expensive one');
  assert.notEqual(h.where.get('c1')!.thread, h.where.get('e1')!.thread);
  h.end('c1');
  assert.deepEqual(h.started, ['e1', 'c1', 'c2'], 'waiting cheap searches go before waiting expensive ones');
  assert.notEqual(h.where.get('c2')!.thread, h.where.get('e1')!.thread);
  h.end('e1');
  assert.deepEqual(h.started, ['e1', 'c1', 'c2', 'e2'], 'the freed thread takes the next expensive search');
});

test('a steady stream of cheap searches does not starve a waiting expensive one', () => {
  const h = harness(2, 100, 2);
  for (let i = 0; i < 4; i++) h.submit(`c${i}`, `p${i}`);
  assert.equal(h.started.length, 4, 'two cheap searches in flight per thread');
  h.submit('e', 'ann', 'expensive');
  let next = 4;
  // as the cheap searches end, new ones keep arriving
  for (let round = 0; round < 6 && !h.started.includes('e'); round++) {
    const running = [...h.where.keys()].filter((n) => n.startsWith('c'));
    h.end(running[0]);
    h.submit(`c${next}`, `p${next++}`);
  }
  assert.ok(h.started.includes('e'), 'one thread drained for the expensive search');
  const e = h.where.get('e')!.thread;
  const sharing = [...h.where.entries()].filter(([n, w]) => n !== 'e' && w.thread === e);
  assert.deepEqual(sharing, [], 'the expensive search runs alone on its thread');
});

test('on one thread an expensive search runs in its turn', () => {
  const h = harness(1, 10);
  h.submit('c1', 'a');
  h.submit('e1', 'b', 'expensive');
  h.submit('c2', 'c');
  assert.deepEqual(h.started, ['c1']);
  h.end('c1');
  assert.deepEqual(h.started, ['c1', 'e1'], 'the thread is not given to later cheap searches first');
  h.end('e1');
  assert.deepEqual(h.started, ['c1', 'e1', 'c2']);
});

test('jobs still waiting are handed back when the scheduler is drained', () => {
  const h = harness(1, 1);
  h.submit('a1', 'ann');
  h.submit('a2', 'ann');
  h.submit('a3', 'ann', 'expensive');
  const waiting = h.s.drain();
  assert.equal(waiting.length, 2);
  assert.equal(h.s.queued, 0);
  for (const w of waiting) w.cancel(new Error('closed'));
  assert.deepEqual(h.started, ['a1', 'cancelled a2', 'cancelled a3']);
});

test('the words of a query count its letter and digit runs', () => {
  assert.equal(queryWords(''), 0);
  assert.equal(queryWords('  vacation policy '), 2);
  assert.equal(queryWords('ab* cd* "ef gh" +ij -kl'), 6);
  assert.equal(queryWords('IL-6 TNF-alpha'), 4);
  assert.equal(queryWords('Grüße aus Köln\u00a0und München'), 5);
  assert.equal(queryWords(Array.from({ length: 400 }, (_, i) => `w${i}*`).join(' ')), 400);
});
