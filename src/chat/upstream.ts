/**
 * A model served by an OpenAI-compatible upstream (hosted API, vLLM,
 * llama.cpp server, Ollama): `POST {base}/chat/completions` with
 * `stream: true`, tools offered as functions. Text deltas are yielded the
 * moment their event arrives; tool-call deltas are assembled by index and
 * yielded whole at the end of the round. The request's generation options
 * (max_tokens, stop, top_p, seed, penalties, user) are passed on unchanged. The request is aborted with the
 * caller's signal (client gone) or after `timeoutMs`. Failures are ChatError
 * 502/504 with the upstream's own message where it gave one. A round is
 * complete only when the stream says so (a `finish_reason` or `[DONE]`); a
 * stream that just stops, or a JSON answer instead of a stream, is a 502.
 */
import { ChatError } from './errors.ts';
import { sseData } from './sse.ts';
import { MAX_TOOL_CALLS, parseChunk } from './upstream-chunk.ts';
import type { ChatModel, ModelEvent, RoundRequest, ToolCall } from './types.ts';

export interface UpstreamOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  /** Injected fetch (default the global one). */
  fetch?: typeof fetch;
}

export function upstreamModel(id: string, options: UpstreamOptions): ChatModel {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const doFetch = options.fetch ?? fetch;
  return {
    id,
    ownedBy: 'upstream',
    async *round(req: RoundRequest): AsyncGenerator<ModelEvent> {
      const body: Record<string, unknown> = {
        model: id,
        messages: req.messages.map(wireMessage),
        stream: true,
        stream_options: { include_usage: true },
      };
      if (req.temperature !== undefined) body.temperature = req.temperature;
      // The client's generation options go as they are (the upstream validates and honours them).
      Object.assign(body, req.options);
      if (req.tools.length > 0) {
        body.tools = req.tools.map((t) => ({
          type: 'function',
          function: { name: t.name, description: t.description, parameters: t.parameters },
        }));
      }
      const signal = AbortSignal.any([req.signal, AbortSignal.timeout(options.timeoutMs)]);
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      let res: Response;
      try {
        res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
      } catch (err) {
        throw failure(err, req.signal);
      }
      if (!res.ok || !res.body) {
        const text = await res.text().catch(() => '');
        throw new ChatError(
          502,
          'upstream_error',
          'upstream_error',
          `The language model upstream answered HTTP ${res.status}: ${upstreamMessage(text)}`,
        );
      }
      const type = (res.headers.get('content-type') ?? '').toLowerCase();
      if (type.includes('application/json')) {
        const text = await res.text().catch(() => '');
        throw new ChatError(
          502,
          'upstream_error',
          'upstream_error',
          `The language model upstream answered with JSON instead of an event stream: ${upstreamMessage(text)}`,
        );
      }
      if (type.includes('text/html')) {
        await res.body.cancel().catch(() => {});
        throw new ChatError(
          502,
          'upstream_error',
          'upstream_error',
          'The language model upstream answered with an HTML page instead of an event stream; LLM_BASE_URL must be the API base (e.g. ending in /v1)',
        );
      }
      const calls: { id: string; name: string; arguments: string }[] = [];
      let finish: string | null | undefined;
      let done = false;
      try {
        for await (const data of sseData(res.body)) {
          if (data.trim() === '[DONE]') {
            done = true;
            break;
          }
          const chunk = parseChunk(data);
          if (chunk.error !== undefined)
            throw new ChatError(
              502,
              'upstream_error',
              'upstream_error',
              `The language model upstream failed: ${chunk.error}`,
            );
          finish = chunk.finishReason ?? finish;
          if (chunk.content) yield { type: 'text', text: chunk.content };
          for (const d of chunk.toolCalls) {
            const i = d.index ?? calls.length;
            if (i >= MAX_TOOL_CALLS)
              throw new ChatError(
                502,
                'upstream_error',
                'upstream_error',
                `The language model upstream sent a malformed event: more than ${MAX_TOOL_CALLS} tool calls`,
              );
            const call = (calls[i] ??= { id: '', name: '', arguments: '' });
            if (d.id) call.id = d.id;
            if (d.name) call.name += d.name;
            if (d.arguments) call.arguments += d.arguments;
          }
          if (chunk.usage) yield { type: 'usage', usage: chunk.usage };
        }
      } catch (err) {
        throw failure(err, req.signal, true);
      }
      if (!done && !finish) {
        throw new ChatError(
          502,
          'upstream_error',
          'upstream_error',
          'The language model upstream ended the stream before the answer was complete (no finish_reason, no [DONE])',
        );
      }
      if (finish === 'length' || finish === 'content_filter') yield { type: 'finish', reason: finish };
      for (const [i, call] of calls.entries()) {
        if (!call || !call.name) continue;
        const done: ToolCall = { id: call.id || `call_${i}`, name: call.name, arguments: call.arguments };
        yield { type: 'tool_call', call: done };
      }
    },
  };
}

function wireMessage(m: RoundRequest['messages'][number]): Record<string, unknown> {
  if (m.role === 'assistant' && m.tool_calls && m.tool_calls.length > 0) {
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.tool_calls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
  return { ...m };
}

function upstreamMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: string } | string; detail?: string; message?: string };
    const m = typeof j.error === 'string' ? j.error : (j.error?.message ?? j.detail ?? j.message);
    if (m) return String(m).slice(0, 500);
  } catch {
    // not JSON
  }
  return text.slice(0, 200) || 'no message';
}

/** The ChatError for a failed call; `answering`: the upstream had started its answer (reading the stream). */
function failure(err: unknown, clientSignal: AbortSignal, answering = false): Error {
  if (err instanceof ChatError) return err;
  if (clientSignal.aborted) return err instanceof Error ? err : new Error(String(err));
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return new ChatError(
      504,
      'upstream_error',
      'upstream_timeout',
      'The language model upstream did not answer in time',
    );
  }
  const reason = err instanceof Error ? err.message : String(err);
  if (answering)
    return new ChatError(
      502,
      'upstream_error',
      'upstream_error',
      `The language model upstream broke off its answer: ${reason}`,
    );
  return new ChatError(
    502,
    'upstream_error',
    'upstream_unreachable',
    `The language model upstream is unreachable: ${reason}`,
  );
}
