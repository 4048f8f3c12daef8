/**
 * Benchmark child process: the real HTTP app (createApp + @hono/node-server)
 * with an in-memory state, one personal key and the web search service
 * configured from the environment (BRAVE_BASE_URL etc., set by latency.ts).
 * Reports `{port, key}` over IPC when listening; answers `{type: 'mem'}` with
 * its memory after a full GC (run with --expose-gc); exits on `{type: 'exit'}`.
 */
import { serve } from '@hono/node-server';
import { createAccount, createPersonalKey } from '../../src/accounts/accounts.ts';
import { accountsPart } from '../../src/accounts/state.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { MemoryJournal, StateStore } from '../../src/state/store.ts';
import { createWebSearchService } from '../../src/websearch/service.ts';

const config = loadConfig(process.env);
const state = await StateStore.open(new MemoryJournal(), [accountsPart]);
const now = () => Date.now();
await createAccount({ state, now }, { email: 'bench@example.com' }, 'master');
const { key } = await createPersonalKey({ state, now }, 'bench@example.com', null, 'master');
const webSearch = createWebSearchService({ config: config.webSearch, log: silentLogger });
const app = createApp({ config, log: silentLogger, state, now, webSearch });

const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', (msg: { type: string }) => {
  if (msg.type === 'exit') process.exit(0); // graceful, so --cpu-prof (BENCH_CHILD_ARGS) can write its profile
  if (msg.type !== 'mem') return;
  for (let i = 0; i < 3; i++) gc?.();
  const m = process.memoryUsage();
  process.send!({ type: 'mem', rss: m.rss, heapUsed: m.heapUsed, external: m.external, gc: Boolean(gc) });
});
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  process.send!({ type: 'ready', port: info.port, key }),
);
