/**
 * Chat benchmark: time to first token (TTFT) the service adds beyond the
 * upstream model and the search it runs, and token pass-through.
 *
 * A fake OpenAI-compatible upstream on 127.0.0.1 streams N tokens with a
 * fixed delay D before each event. The official `openai` client measures,
 * from request start to the first content token:
 *   direct   the upstream alone;
 *   service  the same completion through POST /api/beta/serviceai/chat/completions;
 *   tools    through the service with serviceSearch: upstream round 1 is a
 *            tool call, the search takes a fixed S ms (a stub), round 2 streams;
 *            its baseline is a direct tool-call round + S + a direct TTFT.
 * Pass-through: the gaps between tokens at the client (should be ~D each, not
 * batched) and the time of the last token (should be ~N*D).
 *
 * Run: cd bench && node --import tsx chat/ttft.ts
 * Knobs: CHAT_BENCH_RUNS (40), CHAT_BENCH_TOKENS (20), CHAT_BENCH_DELAY_MS (15), CHAT_BENCH_SEARCH_MS (20).
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import OpenAI from 'openai';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { openMemoryState } from '../../src/open-state.ts';

const RUNS = Number(process.env.CHAT_BENCH_RUNS ?? 40);
const TOKENS = Number(process.env.CHAT_BENCH_TOKENS ?? 20);
const DELAY = Number(process.env.CHAT_BENCH_DELAY_MS ?? 15);
const SEARCH_MS = Number(process.env.CHAT_BENCH_SEARCH_MS ?? 20);
const MASTER = 'bench-master-key-0123456789';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Fake upstream: a request whose last message is a user message and that offers tools gets a tool call; otherwise tokens.
const upstream = createServer(async (req, res) => {
  let raw = '';
  for await (const c of req) raw += c;
  const body = JSON.parse(raw);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = async (delta: unknown, finish: string | null = null) => {
    await sleep(DELAY);
    res.write(
      `data: ${JSON.stringify({ id: 'u', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  };
  const last = body.messages[body.messages.length - 1];
  if (body.tools && last.role === 'user') {
    await send({
      tool_calls: [
        { index: 0, id: 'c1', type: 'function', function: { name: 'serviceSearch', arguments: '{"query":"travel"}' } },
      ],
    });
    await send({}, 'tool_calls');
  } else {
    for (let i = 0; i < TOKENS; i++) await send({ content: `tok${i} ` });
    await send({}, 'stop');
  }
  res.end('data: [DONE]\n\n');
});
upstream.listen(0, '127.0.0.1');
await once(upstream, 'listening');
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;

const dir = await mkdtemp(join(tmpdir(), 'chat-bench-'));
const config = loadConfig({
  ADMIN_KEY: MASTER,
  DATA_DIR: dir,
  LLM_BASE_URL: upstreamUrl,
  LLM_MODELS: 'bench-model',
  LOG_LEVEL: 'silent',
});
const state = await openMemoryState();
const app = createApp({
  config,
  log: silentLogger,
  state,
  now: () => Date.now(),
  chatSearch: async () => {
    await sleep(SEARCH_MS);
    return [
      {
        id: 'd1',
        title: 'Travel policy',
        path_preview: 'wiki/travel',
        datasource: 'wikitool',
        text: 'Employees book trains.',
      },
    ];
  },
});
const admin = async (path: string, body: unknown) => {
  const res = await app.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as any;
};
await admin('/api/admin/accounts', { email: 'bench@example.com' });
const { key } = await admin('/api/admin/accounts/bench%40example.com/keys', {});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
if (!server.listening) await once(server, 'listening');
const serviceUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/beta/serviceai`;

const direct = new OpenAI({ apiKey: 'x', baseURL: upstreamUrl, maxRetries: 0 });
const service = new OpenAI({ apiKey: key, baseURL: serviceUrl, maxRetries: 0 });

interface Timing {
  first: number;
  last: number;
  gaps: number[];
}

async function timeStream(client: OpenAI, withTools: boolean): Promise<Timing> {
  const t0 = performance.now();
  const stream = await client.chat.completions.create({
    model: 'bench-model',
    stream: true,
    messages: [{ role: 'user', content: 'How do I travel?' }],
    ...(withTools ? { tools: [{ type: 'function' as const, function: { name: 'serviceSearch' } }] } : {}),
  });
  let first = -1;
  let prev = -1;
  const gaps: number[] = [];
  for await (const chunk of stream) {
    if (!chunk.choices[0]?.delta.content) continue;
    const t = performance.now() - t0;
    if (first < 0) first = t;
    else gaps.push(t - prev);
    prev = t;
  }
  return { first, last: prev, gaps };
}

/** A direct tool-call round (what the service's first round costs upstream). */
async function timeToolRound(): Promise<number> {
  const t0 = performance.now();
  const stream = await direct.chat.completions.create({
    model: 'bench-model',
    stream: true,
    messages: [{ role: 'user', content: 'How do I travel?' }],
    tools: [{ type: 'function', function: { name: 'serviceSearch', parameters: { type: 'object' } } }],
  });
  for await (const _ of stream) void _;
  return performance.now() - t0;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f = (x: number) => x.toFixed(1);

for (let i = 0; i < 5; i++) {
  await timeStream(direct, false);
  await timeStream(service, false);
  await timeStream(service, true);
  await timeToolRound();
}
const d: Timing[] = [];
const s: Timing[] = [];
const t: Timing[] = [];
const rounds: number[] = [];
for (let i = 0; i < RUNS; i++) {
  d.push(await timeStream(direct, false));
  s.push(await timeStream(service, false));
  t.push(await timeStream(service, true));
  rounds.push(await timeToolRound());
}

const dFirst = d.map((x) => x.first);
const sFirst = s.map((x) => x.first);
const tFirst = t.map((x) => x.first);
const toolBaseline = mean(rounds) + SEARCH_MS + mean(dFirst);
console.log(
  `\n## Chat TTFT (runs ${RUNS}, ${TOKENS} tokens, ${DELAY} ms per upstream event, search stub ${SEARCH_MS} ms)\n`,
);
console.log('| path | TTFT mean ms | p50 | p90 | added mean ms | added p50 |');
console.log('|---|---|---|---|---|---|');
console.log(`| upstream direct | ${f(mean(dFirst))} | ${f(pct(dFirst, 50))} | ${f(pct(dFirst, 90))} | | |`);
console.log(
  `| service, no tools | ${f(mean(sFirst))} | ${f(pct(sFirst, 50))} | ${f(pct(sFirst, 90))} | ${f(mean(sFirst) - mean(dFirst))} | ${f(pct(sFirst, 50) - pct(dFirst, 50))} |`,
);
console.log(
  `| service, serviceSearch round | ${f(mean(tFirst))} | ${f(pct(tFirst, 50))} | ${f(pct(tFirst, 90))} | ${f(mean(tFirst) - toolBaseline)} | ${f(pct(tFirst, 50) - (pct(rounds, 50) + SEARCH_MS + pct(dFirst, 50)))} |`,
);
console.log(
  `\nbaseline of the tool path: direct tool round ${f(mean(rounds))} + search ${SEARCH_MS} + direct TTFT ${f(mean(dFirst))} = ${f(toolBaseline)} ms`,
);
const sGaps = s.flatMap((x) => x.gaps);
const dGaps = d.flatMap((x) => x.gaps);
console.log('\n| pass-through | direct | service |');
console.log('|---|---|---|');
console.log(
  `| gap between tokens mean / p50 / max ms | ${f(mean(dGaps))} / ${f(pct(dGaps, 50))} / ${f(Math.max(...dGaps))} | ${f(mean(sGaps))} / ${f(pct(sGaps, 50))} / ${f(Math.max(...sGaps))} |`,
);
console.log(
  `| last token mean ms (ideal ~${TOKENS * DELAY}) | ${f(mean(d.map((x) => x.last)))} | ${f(mean(s.map((x) => x.last)))} |`,
);
const batched = sGaps.filter((g) => g < DELAY / 3).length;
console.log(
  `| gaps shorter than D/3 (tokens batched) | ${dGaps.filter((g) => g < DELAY / 3).length} of ${dGaps.length} | ${batched} of ${sGaps.length} |`,
);

(server as unknown as { closeAllConnections(): void }).closeAllConnections();
server.close();
upstream.closeAllConnections();
upstream.close();
await state.close();
await rm(dir, { recursive: true, force: true });
