/**
 * The chat-completion API (spec: Chat-completion API), base path
 * /api/beta/serviceai, personal account keys:
 *   GET  /models, GET /models/{model}      the model catalogue
 *   POST /chat/completions                  a completion, JSON or server-sent events
 * Every other operation of the compatible API answers 400 `unsupported_operation`,
 * unknown paths 404. Every error under the base path, including 401/403/422
 * from the shared middleware, has the compatible shape
 * `{error: {message, type, param, code}, detail}`.
 *
 * Streaming: `chat.completion.chunk` events, the role in the first delta, text
 * deltas written as they arrive, the last chunk with `finish_reason`,
 * `citations` and `usage`, with `stream_options.include_usage` a chunk with
 * no choices and the `usage`, then `data: [DONE]`. The stream starts with the
 * answer's first event, so an error before it (upstream down or timed out,
 * also after a tool round) is an HTTP error with its status; an error after
 * the stream started is sent as a `data: {"error": ...}` event. A client that
 * disconnects aborts the upstream call.
 */
import { Hono, type Context } from 'hono';
import { requirePersonal } from '../auth/middleware.ts';
import { ChatError, errorBody, toOpenAIError } from '../chat/errors.ts';
import { ModelCatalog } from '../chat/models.ts';
import { CompletionBody } from '../chat/schemas.ts';
import { generationOptions } from '../chat/compatible-fields.ts';
import { chatSearchFor } from '../chat/search-source.ts';
import { prepareCompletion, type ChatDeps, type CompletionEvent, type PreparedCompletion } from '../chat/service.ts';
import { FileStoreReader, filesDir } from '../files/store.ts';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';

export const CHAT_BASE = '/api/beta/serviceai';

const UNSUPPORTED: [string, string][] = [
  ['DELETE', '/models/:model{.+}'],
  ['GET', '/chat/completions'],
  ['GET', '/chat/completions/:id'],
  ['POST', '/chat/completions/:id'],
  ['DELETE', '/chat/completions/:id'],
  ['GET', '/chat/completions/:id/messages'],
];

export function chatRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = services;
  const deps: ChatDeps = {
    models: new ModelCatalog(config.chat, Math.floor(services.now() / 1000), services.chatFetch),
    state: services.state,
    files: new FileStoreReader(filesDir(config.dataDir)),
    search: chatSearchFor(services),
    webSearch: services.webSearch,
    maxToolRounds: config.chat.maxToolRounds,
    searchResults: config.chat.searchResults,
    filesContextChars: config.files.contextChars,
    selectPassages: services.searchRunner?.selectPassages?.bind(services.searchRunner),
  };

  // Rewrites every error answer under the base path into the compatible shape.
  app.use(`${CHAT_BASE}/*`, async (c, next) => {
    await next();
    const res = c.res;
    if (res.status < 400 || !(res.headers.get('content-type') ?? '').includes('application/json')) return;
    const body: unknown = await res
      .clone()
      .json()
      .catch(() => undefined);
    if (body && typeof body === 'object' && 'error' in body) return;
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    c.res = undefined;
    c.res = new Response(JSON.stringify(toOpenAIError(res.status, body)), { status: res.status, headers });
  });
  app.use(`${CHAT_BASE}/*`, requirePersonal(services));

  app.get(`${CHAT_BASE}/models`, (c) => c.json({ object: 'list', data: deps.models.list() }));
  app.get(`${CHAT_BASE}/models/:model{.+}`, (c) => {
    const id = c.req.param('model');
    const model = deps.models.get(id);
    if (!model)
      return fail(
        c,
        new ChatError(
          404,
          'not_found_error',
          'model_not_found',
          `The model ${JSON.stringify(id)} does not exist`,
          'model',
        ),
      );
    return c.json(deps.models.record(model));
  });

  app.post(`${CHAT_BASE}/chat/completions`, async (c) => {
    const body = await jsonBody(c, CompletionBody);
    const principal = c.get('principal');
    if (principal.kind !== 'account') throw new Error('requirePersonal lets only accounts through');
    const meta = body.metadata ?? {};
    let prepared: PreparedCompletion;
    try {
      prepared = await prepareCompletion(deps, {
        accountId: principal.accountId,
        email: principal.email,
        messages: body.messages.map((m) => ({ role: m.role, content: m.content })),
        model: body.model ?? undefined,
        temperature: body.temperature ?? undefined,
        options: generationOptions(body),
        tools: [...new Set((body.tools ?? []).map((t) => t.function.name))],
        agentId: meta.agent_id ?? undefined,
        files: meta.files ?? [],
        webSearchMode: meta.web_search_mode || undefined,
        language: meta.language ?? 'de',
        log: c.get('log'),
      });
    } catch (err) {
      if (err instanceof ChatError) return fail(c, err);
      throw err;
    }
    const id = `chatcmpl-${crypto.randomUUID().replaceAll('-', '')}`;
    const created = Math.floor(services.now() / 1000);
    const head = { id, created, model: prepared.model.id };
    if (body.stream) return await streamed(c, prepared, head, body.stream_options?.include_usage === true);

    const controller = new AbortController();
    const onAbort = () => controller.abort();
    c.req.raw.signal.addEventListener('abort', onAbort, { once: true });
    let content = '';
    let done: Extract<CompletionEvent, { type: 'done' }> | undefined;
    try {
      for await (const ev of prepared.run(controller.signal)) {
        if (ev.type === 'text') content += ev.text;
        else done = ev;
      }
    } catch (err) {
      if (err instanceof ChatError) return fail(c, err);
      // The client went away: nobody reads this answer, and it is not a server error.
      if (controller.signal.aborted)
        return fail(
          c,
          new ChatError(499, 'invalid_request_error', 'client_closed_request', 'The client closed the request'),
        );
      throw err;
    } finally {
      c.req.raw.signal.removeEventListener('abort', onAbort);
    }
    return c.json({
      ...head,
      object: 'chat.completion',
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null },
          logprobs: null,
          finish_reason: done?.finishReason ?? 'stop',
        },
      ],
      usage: done?.usage,
      citations: done?.citations ?? [],
    });
  });

  for (const [method, path] of UNSUPPORTED) {
    app.on(method, `${CHAT_BASE}${path}`, (c) =>
      fail(
        c,
        new ChatError(
          400,
          'invalid_request_error',
          'unsupported_operation',
          `${method} ${c.req.path} is not supported by this service; supported: GET /models, GET /models/{model}, POST /chat/completions`,
        ),
      ),
    );
  }
  app.all(`${CHAT_BASE}/*`, (c) =>
    fail(c, new ChatError(404, 'not_found_error', 'not_found', `No operation ${c.req.method} ${c.req.path}`)),
  );
  return app;
}

function fail(c: Context<AppEnv>, err: ChatError): Response {
  return c.json(errorBody(err), err.status as 400);
}

const encoder = new TextEncoder();

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

async function streamed(
  c: Context<AppEnv>,
  prepared: PreparedCompletion,
  head: { id: string; created: number; model: string },
  includeUsage: boolean,
): Promise<Response> {
  const controller = new AbortController();
  const requestSignal = c.req.raw.signal;
  const onAbort = () => controller.abort();
  requestSignal.addEventListener('abort', onAbort, { once: true });
  const event = (fields: Record<string, unknown>) =>
    encoder.encode(
      `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', system_fingerprint: null, ...fields })}\n\n`,
    );
  const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    event({ choices: [{ index: 0, logprobs: null, finish_reason: null, ...choice }], ...extra });
  const log = c.get('log');
  const events = prepared.run(controller.signal);
  // With stream_options.include_usage, the usage also comes as a chunk of its own without choices, before [DONE].
  const encode = (ev: CompletionEvent) =>
    ev.type === 'text'
      ? chunk({ delta: { content: ev.text } })
      : concat(
          chunk({ delta: {}, finish_reason: ev.finishReason }, { usage: ev.usage, citations: ev.citations }),
          includeUsage ? event({ choices: [], usage: ev.usage }) : new Uint8Array(),
        );

  // The stream starts with the first event: a failure before any answer (upstream down, timed out) keeps its HTTP status.
  let first: IteratorResult<CompletionEvent>;
  try {
    first = await events.next();
  } catch (err) {
    requestSignal.removeEventListener('abort', onAbort);
    if (err instanceof ChatError) return fail(c, err);
    if (controller.signal.aborted)
      return fail(
        c,
        new ChatError(499, 'invalid_request_error', 'client_closed_request', 'The client closed the request'),
      );
    throw err;
  }

  const body = new ReadableStream<Uint8Array>({
    start(out) {
      const pump = async () => {
        try {
          out.enqueue(chunk({ delta: { role: 'assistant', content: '' } }));
          if (!first.done) out.enqueue(encode(first.value));
          for await (const ev of events) {
            if (controller.signal.aborted) return;
            out.enqueue(encode(ev));
          }
          out.enqueue(encoder.encode('data: [DONE]\n\n'));
          out.close();
        } catch (err) {
          if (controller.signal.aborted) return;
          const chatErr =
            err instanceof ChatError
              ? err
              : new ChatError(
                  500,
                  'api_error',
                  'server_error',
                  'Internal error while streaming the answer; safe to retry',
                );
          if (!(err instanceof ChatError))
            log.error('chat stream failed', { error: err, stack: err instanceof Error ? err.stack : undefined });
          try {
            out.enqueue(encoder.encode(`data: ${JSON.stringify(errorBody(chatErr))}\n\n`));
            out.close();
          } catch {
            // the client is gone
          }
        } finally {
          requestSignal.removeEventListener('abort', onAbort);
        }
      };
      void pump();
    },
    cancel() {
      controller.abort();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'x-request-id': c.get('requestId'),
    },
  });
}
