/**
 * A scripted fake of an OpenAI-compatible language model on 127.0.0.1 (port 0):
 * streams text tokens and tool-call deltas turn by turn as scripted, or fails
 * as scripted (status, broken stream, hang), records every request and its
 * authorization, and counts clients that went away before the answer ended.
 * `GET /v1/models` lists `models` (the ids chat.ts configures, by default).
 * The hosted model cannot run here, so this is the one stand-in tests use.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedTurn {
  /** Text tokens streamed one event each. */
  content?: string[];
  /** Tool calls; their arguments are streamed in `argPieces` pieces (default 3). */
  toolCalls?: { id?: string; name: string; arguments: string }[];
  argPieces?: number;
  /** Answer with this HTTP status and an error body instead. */
  status?: number;
  /** Send an error event after the content. */
  errorAfter?: string;
  /** finish_reason of the last event (default stop, or tool_calls with tool calls). */
  finish?: string;
  /** Delay before every event (ms). */
  delayMs?: number;
  /** Stop writing after the content and never end the response (client-abort tests). */
  hang?: boolean;
  /** End the response right after the content: no finish_reason, no usage, no [DONE]. */
  truncate?: boolean;
  /** Answer 200 with this body as application/json instead of an event stream. */
  json?: unknown;
  /** Answer 200 with this body and content type instead of an event stream. */
  page?: { contentType: string; body: string };
  /** Raw `data:` payloads sent after the content instead of the normal end (malformed-stream tests). */
  rawEvents?: string[];
  /** Break the connection off right after the content. */
  breakOff?: boolean;
}

export interface FakeUpstream {
  url: string;
  /** Parsed request bodies, in order. */
  requests: any[];
  /** Authorization headers seen. */
  auth: (string | undefined)[];
  /** Model ids `GET /v1/models` lists. */
  models: string[];
  /** Turns still to play; when empty a default answer "ok" is streamed. */
  script: ScriptedTurn[];
  /** Requests whose client went away before the response ended. */
  disconnects: number;
  /** Resolves once `n` clients in all have gone away before their response ended. */
  waitForDisconnects(n?: number): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const state = {
    requests: [] as any[],
    auth: [] as (string | undefined)[],
    script: [] as ScriptedTurn[],
    disconnects: 0,
    models: ['fake-model', 'org/fake-large'],
  };
  const disconnectWaiters: { n: number; resolve: () => void }[] = [];
  const disconnected = () => {
    state.disconnects++;
    for (const w of disconnectWaiters.splice(0)) {
      if (state.disconnects >= w.n) w.resolve();
      else disconnectWaiters.push(w);
    }
  };
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method === 'GET' && req.url === '/v1/models') {
      state.auth.push(req.headers.authorization);
      const data = state.models.map((id) => ({ id, object: 'model', created: 1, owned_by: 'fake' }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no such route"}}');
      return;
    }
    const body = JSON.parse(raw);
    state.requests.push(body);
    state.auth.push(req.headers.authorization);
    const turn = state.script.shift() ?? { content: ['ok'] };
    if (turn.status) {
      res
        .writeHead(turn.status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `scripted failure ${turn.status}` } }));
      return;
    }
    if (turn.page) {
      res.writeHead(200, { 'content-type': turn.page.contentType }).end(turn.page.body);
      return;
    }
    if (turn.json !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(turn.json));
      return;
    }
    let finished = false;
    res.on('close', () => {
      if (!finished) disconnected();
    });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const base = { id: 'up-1', object: 'chat.completion.chunk', created: 1, model: body.model };
    const send = async (delta: unknown, finish: string | null = null, extra: Record<string, unknown> = {}) => {
      if (turn.delayMs) await sleep(turn.delayMs);
      res.write(
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
      );
    };
    await send({ role: 'assistant', content: '' });
    for (const t of turn.content ?? []) await send({ content: t });
    if (turn.hang) return;
    if (turn.breakOff) {
      // Once what was written has left, the connection is cut without ending the response.
      await new Promise((resolve) => res.write(': flush\n\n', resolve));
      res.socket?.destroy();
      return;
    }
    if (turn.truncate || turn.rawEvents) {
      for (const data of turn.rawEvents ?? []) res.write(`data: ${data}\n\n`);
      res.end();
      finished = true;
      return;
    }
    if (turn.errorAfter) {
      res.end(`data: ${JSON.stringify({ error: { message: turn.errorAfter } })}\n\n`);
      finished = true;
      return;
    }
    for (const [index, call] of (turn.toolCalls ?? []).entries()) {
      await send({
        tool_calls: [
          { index, id: call.id ?? `call_${index}`, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      });
      const pieces = turn.argPieces ?? 3;
      const size = Math.ceil(call.arguments.length / pieces) || 1;
      for (let i = 0; i < call.arguments.length; i += size) {
        await send({ tool_calls: [{ index, function: { arguments: call.arguments.slice(i, i + size) } }] });
      }
    }
    await send({}, turn.finish ?? (turn.toolCalls?.length ? 'tool_calls' : 'stop'));
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
    finished = true;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    get auth() {
      return state.auth;
    },
    get script() {
      return state.script;
    },
    set script(s) {
      state.script = s;
    },
    get disconnects() {
      return state.disconnects;
    },
    get models() {
      return state.models;
    },
    set models(m) {
      state.models = m;
    },
    waitForDisconnects(n = 1) {
      if (state.disconnects >= n) return Promise.resolve();
      return new Promise<void>((resolve) => disconnectWaiters.push({ n, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
