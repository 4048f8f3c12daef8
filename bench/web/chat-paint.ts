/**
 * Chat page paint benchmark: "the chat page paints each streamed chunk within
 * 50 ms of its arrival".
 *
 * The real server (real assets, state, chat API) with a fake OpenAI-compatible
 * upstream on 127.0.0.1 that streams CHUNKS text events, DELAY ms apart (a few
 * words each, a paragraph break every 20 events and a list now and then, so
 * the answer grows to about 10,000 characters of Markdown). Debian's Chromium
 * (playwright-core) signs in and asks on /chat, RUNS times. In the page, an
 * init script wraps ReadableStreamDefaultReader.read: a read that brings a
 * text delta is stamped with performance.now() when the reader receives it;
 * a MutationObserver on the message log sees the DOM update that follows and
 * asks for the next animation frame, where the time is taken again:
 *   dom    = the DOM update seen by the observer - arrival   (the page's own work: parse, render)
 *   frame  = rAF callback time - arrival       (the frame that paints the update starts)
 *   after  = first task after that frame - arrival   (the frame, with style, layout and paint, is done)
 *   base   = a frame requested at arrival without any work: the browser's own frame latency under the
 *            same load, in the same page at the same time (the A/B for `frame`)
 * Reported: p50 / p95 / max and the share over 50 ms, over every text chunk,
 * also for the first and the last 100 chunks of each answer (rendering cost
 * must not grow with the answer).
 *
 * Run (from the repository root, whose tsconfig compiles the pages' JSX):
 *   node --import tsx bench/web/chat-paint.ts
 * Knobs: CHAT_PAINT_RUNS (3), CHAT_PAINT_CHUNKS (600), CHAT_PAINT_DELAY_MS (10), CHROMIUM_PATH.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { chromium } from 'playwright-core';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { openMemoryState } from '../../src/open-state.ts';
import { loadWebAssets } from '../../src/web/assets/store.ts';
import { machineLine } from '../lib/machine.ts';

const RUNS = Number(process.env.CHAT_PAINT_RUNS ?? 3);
const CHUNKS = Number(process.env.CHAT_PAINT_CHUNKS ?? 600);
const DELAY = Number(process.env.CHAT_PAINT_DELAY_MS ?? 10);
const MASTER = 'bench-master-key-0123456789';
const PASSWORD = 'bench password 0123';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const WORDS = 'the travel policy says that trains are booked for trips under five hundred km and receipts go in'.split(
  ' ',
);
/** Text event i of an answer: a few words, now and then a citation, a paragraph break or a list item. */
function piece(i: number): string {
  const words = Array.from({ length: 3 }, (_, k) => WORDS[(i * 3 + k) % WORDS.length]).join(' ');
  if (i % 60 === 40) return `\n\n- **${words}** [1]\n- ${words}`;
  if (i % 20 === 19) return ` ${words} [1].\n\n`;
  return ` ${words}`;
}

const upstream = createServer(async (req, res) => {
  for await (const _ of req) void _;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (delta: unknown, finish: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ id: 'u', object: 'chat.completion.chunk', created: 1, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  send({ role: 'assistant', content: '' });
  for (let i = 0; i < CHUNKS; i++) {
    await sleep(DELAY);
    send({ content: piece(i) });
  }
  send({}, 'stop');
  res.end('data: [DONE]\n\n');
});
upstream.listen(0, '127.0.0.1');
await once(upstream, 'listening');

const dir = await mkdtemp(join(tmpdir(), 'chat-paint-'));
const config = loadConfig({
  ADMIN_KEY: MASTER,
  DATA_DIR: dir,
  LLM_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
  LLM_MODELS: 'bench-model',
  LOG_LEVEL: 'silent',
});
const app = createApp({
  config,
  log: silentLogger,
  state: await openMemoryState(),
  now: () => Date.now(),
  webAssets: await loadWebAssets(),
});
const admin = (method: string, path: string, body: unknown) =>
  app.request(path, {
    method,
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
await admin('POST', '/api/admin/accounts', { email: 'bench@example.com' });
await admin('PUT', '/api/admin/accounts/bench%40example.com/password', { password: PASSWORD });
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
if (!server.listening) await once(server, 'listening');
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});
const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' })).newPage();
// Plain JavaScript source: a compiled function would carry the TypeScript loader's helpers into the page.
await page.addInitScript(`
  window.__paint = { base: [], dom: [], frame: [], after: [] };
  window.__waiting = [];
  const decoder = new TextDecoder();
  const read = ReadableStreamDefaultReader.prototype.read;
  ReadableStreamDefaultReader.prototype.read = function () {
    return read.call(this).then((r) => {
      const at = performance.now();
      if (!r.done && r.value instanceof Uint8Array && /"delta":\\{"content":"[^"]/.test(decoder.decode(r.value))) {
        window.__waiting.push(at);
        requestAnimationFrame(() => window.__paint.base.push(performance.now() - at));
      }
      return r;
    });
  };
  document.addEventListener('DOMContentLoaded', () => {
    const log = document.getElementById('chat-log');
    if (!log) return;
    new MutationObserver(() => {
      const arrived = window.__waiting.splice(0);
      if (arrived.length === 0) return;
      const updated = performance.now();
      for (const t of arrived) window.__paint.dom.push(updated - t);
      requestAnimationFrame(() => {
        const frame = performance.now();
        for (const t of arrived) window.__paint.frame.push(frame - t);
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          const after = performance.now();
          for (const t of arrived) window.__paint.after.push(after - t);
        };
        channel.port2.postMessage(null);
      });
    }).observe(log, { childList: true, subtree: true, characterData: true });
  });
`);

await page.goto(`${base}/signin?next=/chat`);
await page.fill('#email', 'bench@example.com');
await page.fill('#password', PASSWORD);
await Promise.all([page.waitForURL(/\/chat$/), page.click('button[type=submit].primary')]);
await page.uncheck('#chat-internal');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const row = (name: string, xs: number[]) =>
  `| ${name} | ${xs.length} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 95).toFixed(1)} | ${Math.max(...xs).toFixed(1)} | ${((100 * xs.filter((x) => x > 50).length) / xs.length).toFixed(1)}% |`;

const all = {
  base: [] as number[],
  dom: [] as number[],
  frame: [] as number[],
  after: [] as number[],
  firstFrame: [] as number[],
  lastFrame: [] as number[],
};
let chars = 0;
for (let run = 0; run < RUNS; run++) {
  await page.click('#chat-new');
  await page.evaluate('window.__paint = { base: [], dom: [], frame: [], after: [] }; window.__waiting = [];');
  await page.fill('#chat-prompt', `How do I travel? (${run})`);
  await page.press('#chat-prompt', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('.msg-assistant .msg-actions:not([hidden])').length > 0, {
    timeout: 120_000,
  });
  await sleep(100);
  const got = (await page.evaluate('window.__paint')) as {
    base: number[];
    dom: number[];
    frame: number[];
    after: number[];
  };
  chars = (await page.locator('.msg-assistant .msg-body').innerText()).length;
  all.base.push(...got.base);
  all.dom.push(...got.dom);
  all.frame.push(...got.frame);
  all.after.push(...got.after);
  all.firstFrame.push(...got.frame.slice(0, 100));
  all.lastFrame.push(...got.frame.slice(-100));
}

console.log(
  `\n## Chat page paint (runs ${RUNS}, ${CHUNKS} text events ${DELAY} ms apart, answer ~${chars} characters)\n`,
);
console.log('| arrival -> | chunks | p50 ms | p95 ms | max ms | over 50 ms |');
console.log('|---|---|---|---|---|---|');
console.log(row('baseline: a frame asked for at arrival, no work', all.base));
console.log(row('DOM updated', all.dom));
console.log(row('next animation frame', all.frame));
console.log(row('end of that frame', all.after));
console.log(row('next frame, first 100 chunks', all.firstFrame));
console.log(row('next frame, last 100 chunks', all.lastFrame));
console.log(`\n${machineLine()}`);

await browser.close();
server.close();
upstream.close();
await rm(dir, { recursive: true, force: true });
process.exit(0);
