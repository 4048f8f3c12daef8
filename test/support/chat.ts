/**
 * The chat harness: the real app on a real socket (port 0) over the search
 * harness (real engine and pipeline), with personal keys, official `openai`
 * clients and a helper that indexes documents for given people. The language
 * model is the scripted fake of fake-llm.ts, re-exported here.
 */
import OpenAI from 'openai';
import { createApp } from '../../src/app.ts';
import type { Services } from '../../src/services.ts';
import { serveApp } from './app.ts';
import { searchHarness } from './search.ts';

export { startFakeUpstream, type FakeUpstream, type ScriptedTurn } from './fake-llm.ts';

export interface ChatHarnessOptions {
  env?: Record<string, string>;
  /** Upstream base URL (sets LLM_BASE_URL, LLM_API_KEY and LLM_MODELS `fake-model,org/fake-large`). */
  upstream?: string;
  /** Replace or add services (webSearch, chatSearch). */
  services?: Partial<Services>;
}

export async function chatHarness(opts: ChatHarnessOptions = {}) {
  const env: Record<string, string> = { ...opts.env };
  if (opts.upstream)
    Object.assign(
      env,
      { LLM_BASE_URL: opts.upstream, LLM_API_KEY: 'upstream-secret', LLM_MODELS: 'fake-model,org/fake-large' },
      opts.env,
    );
  const h = await searchHarness({ env });
  const services: Services = { ...h.services, ...opts.services };
  const app = createApp(services);
  const server = await serveApp(app);
  const baseUrl = server.baseUrl;

  return {
    ...h,
    services,
    baseUrl,
    /** An official client for `email`'s personal key (no retries). */
    async client(email = 'alice@example.com'): Promise<OpenAI> {
      return new OpenAI({ apiKey: await h.personal(email), baseURL: `${baseUrl}/api/beta/serviceai`, maxRetries: 0 });
    },
    /** Raw fetch against the server with `key`. */
    fetch(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
      const headers = new Headers(init.headers);
      if (init.key) headers.set('authorization', `Bearer ${init.key}`);
      if (init.body && !headers.has('content-type') && typeof init.body === 'string')
        headers.set('content-type', 'application/json');
      return fetch(`${baseUrl}${path}`, { ...init, headers });
    },
    /** Create a datasource `name`, register `emails`, push `docs` into it and commit. */
    async index(name: string, emails: string[], docs: Record<string, unknown>[]) {
      const ds = await h.api('POST', '/datasources', { name, display_name: name });
      if (ds.status !== 200) throw new Error(`datasource: ${ds.status} ${JSON.stringify(ds.body)}`);
      await h.register(name, ...emails);
      await h.push(
        docs.map((d) => ({ datasource: name, file_type: 'wiki', last_modified: '2026-01-01T00:00:00Z', ...d })),
      );
      await h.commit();
    },
    async close() {
      await server.close();
      await h.close();
    },
  };
}

export type ChatHarness = Awaited<ReturnType<typeof chatHarness>>;

/** A text document for `index()`. */
export const textDoc = (id: string, title: string, text: string, extra: Record<string, unknown> = {}) => ({
  id,
  title,
  body: { mime_type: 'text/plain', text_content: text },
  ...extra,
});
