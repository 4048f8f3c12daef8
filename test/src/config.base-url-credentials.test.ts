/**
 * Upstream base URLs with credentials (`https://user:password@host`, the usual way to write
 * basic auth for a SearXNG or LLM gateway): the standard fetch refuses such URLs and its error
 * message quotes the whole URL. The password must never reach a response or a log line: either
 * the configuration refuses the URL (without echoing it), or every failure message leaves it out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ModelCatalog } from '../../src/chat/models.ts';
import { ConfigError, loadConfig, type Config } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { createWebSearchService } from '../../src/websearch/service.ts';

const SECRET = 'pw-9f3c1e77aa';

/** The configuration, or undefined when it is refused (the refusal must not quote the secret). */
function configOrRefusal(env: Record<string, string>): Config | undefined {
  try {
    return loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    assert.ok(!err.message.includes(SECRET), `the configuration error quotes the password: ${err.message}`);
    return undefined;
  }
}

for (const [variable, mode, extra] of [
  ['SEARXNG_BASE_URL', 'engine2', {}],
  ['BRAVE_BASE_URL', 'search', { BRAVE_API_KEY: 'brave-key-0123456789' }],
] as const) {
  test(`${variable} with credentials: no web search answer or log line carries the password`, async () => {
    const config = configOrRefusal({ [variable]: `http://svc:${SECRET}@127.0.0.1:9/`, ...extra });
    if (!config) return;
    const lines: string[] = [];
    const service = createWebSearchService({
      config: config.webSearch,
      log: createLogger('debug', (line) => lines.push(line)),
    });
    let message = '';
    try {
      await service.search({ queries: ['anything'], mode, timeout: 5 });
    } catch (err) {
      message = (err as Error).message;
    }
    assert.ok(message !== '', 'the provider call fails');
    assert.ok(!message.includes(SECRET), `the error answered to the client quotes the password: ${message}`);
    for (const line of lines) assert.ok(!line.includes(SECRET), `a log line quotes the password: ${line}`);
  });
}

test('LLM_BASE_URL with credentials: no chat error carries the password', async () => {
  const config = configOrRefusal({ LLM_BASE_URL: `http://svc:${SECRET}@127.0.0.1:9/v1`, LLM_MODELS: 'm1' });
  if (!config) return;
  const model = new ModelCatalog(config.chat, 0).get('m1')!;
  let message = '';
  try {
    for await (const _ of model.round({
      messages: [{ role: 'user', content: 'hi' }],
      tools: [],
      context: { sources: [], question: 'hi', language: 'en' },
      signal: new AbortController().signal,
    })) {
      // no events expected
    }
  } catch (err) {
    message = (err as Error).message;
  }
  assert.ok(message !== '', 'the upstream call fails');
  assert.ok(!message.includes(SECRET), `the error answered to the client quotes the password: ${message}`);
});
