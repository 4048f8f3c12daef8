/**
 * "Test now" for the upstreams the server depends on (domain, no HTTP): one
 * small real call each, bounded by CHECK_TIMEOUT_MS (and the LLM's own
 * timeout, when shorter). The chat upstream lists its models (`GET
 * {LLM_BASE_URL}/models`, with LLM_API_KEY) and every id of LLM_MODELS must
 * be among them; a web-search provider answers one query for one hit. A
 * check never throws for the upstream's failure: it answers `ok: false` with
 * the reason (status, timeout, unreachable, unexpected answer). Secrets are
 * sent to the upstream they belong to and never appear in the answer.
 */
import type { Config } from '../config.ts';
import { getJson, isRecord } from '../websearch/providers/http-json.ts';
import { createBraveProvider } from '../websearch/providers/brave.ts';
import { createSearxngProvider } from '../websearch/providers/searxng.ts';
import { ProviderError, type WebSearchProvider } from '../websearch/providers/types.ts';
import type { UpstreamId } from './settings.ts';

/** Longest a check may take. */
export const CHECK_TIMEOUT_MS = 10_000;
/** The query a web-search check sends. */
const PROBE_QUERY = 'enterprise search';

export interface CheckResult {
  target: UpstreamId;
  ok: boolean;
  message: string;
  checked_at: string;
  ms: number;
}

async function listModels(chat: Config['chat'], signal: AbortSignal): Promise<string> {
  const base = chat.llmBaseUrl!;
  const url = new URL(`${base.replace(/\/+$/, '')}/models`);
  const headers: Record<string, string> = chat.llmApiKey ? { authorization: `Bearer ${chat.llmApiKey}` } : {};
  const body = await getJson(url, headers, 'The LLM upstream', signal);
  if (!isRecord(body) || !Array.isArray(body.data))
    throw new ProviderError('BAD_RESPONSE', 'The LLM upstream answered GET /models without a data list');
  const served = new Set(body.data.filter(isRecord).map((m) => String(m.id)));
  const missing = chat.llmModels.filter((m) => !served.has(m));
  if (missing.length > 0) {
    throw new ProviderError(
      'BAD_RESPONSE',
      `The LLM upstream does not list ${missing.join(', ')} (LLM_MODELS) among its ${served.size} models`,
    );
  }
  return `The LLM upstream answered and lists every model of LLM_MODELS (${chat.llmModels.join(', ')})`;
}

async function probe(provider: WebSearchProvider, signal: AbortSignal): Promise<string> {
  const hits = await provider.search({ query: PROBE_QUERY, count: 1, extraSnippets: false }, signal);
  return `${provider.name} answered a search for “${PROBE_QUERY}” with ${hits.length} result${hits.length === 1 ? '' : 's'}`;
}

/** The call of one upstream, or undefined when it is not configured. */
function callOf(config: Config, target: UpstreamId): ((signal: AbortSignal) => Promise<string>) | undefined {
  const web = config.webSearch;
  if (target === 'llm') return config.chat.llmBaseUrl ? (s) => listModels(config.chat, s) : undefined;
  if (target === 'brave')
    return web.braveApiKey
      ? (s) => probe(createBraveProvider({ apiKey: web.braveApiKey!, baseUrl: web.braveBaseUrl }), s)
      : undefined;
  return web.searxngBaseUrl ? (s) => probe(createSearxngProvider({ baseUrl: web.searxngBaseUrl! }), s) : undefined;
}

export async function checkUpstream(config: Config, target: UpstreamId, now: () => number): Promise<CheckResult> {
  const started = performance.now();
  const done = (ok: boolean, message: string): CheckResult => ({
    target,
    ok,
    message,
    checked_at: new Date(now()).toISOString(),
    ms: Math.round(performance.now() - started),
  });
  const call = callOf(config, target);
  if (!call) return done(false, 'not configured');
  const limit = target === 'llm' ? Math.min(CHECK_TIMEOUT_MS, config.chat.llmTimeoutMs) : CHECK_TIMEOUT_MS;
  const signal = AbortSignal.timeout(limit);
  try {
    return done(true, await call(signal));
  } catch (err) {
    if (err instanceof ProviderError && err.code === 'TIMEOUT') return done(false, `no answer within ${limit} ms`);
    if (err instanceof ProviderError) return done(false, err.message);
    if (signal.aborted) return done(false, `no answer within ${limit} ms`);
    throw err;
  }
}
