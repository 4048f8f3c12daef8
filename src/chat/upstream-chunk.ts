/**
 * One event of an OpenAI-compatible upstream stream, parsed and checked
 * before the upstream client (upstream.ts) reads it: a JSON object whose
 * `choices[0].delta` has string `content`, a list of tool-call deltas with
 * small integer indexes and string names and arguments, a string
 * `finish_reason`, numeric `usage`, or an `error`. Anything else is a
 * ChatError 502 `upstream_error` naming what was malformed, so a broken
 * upstream never shows as a JavaScript error text, as "[object Object]" in
 * the answer, or as a huge sparse list of tool calls.
 */
import { ChatError } from './errors.ts';
import type { TokenUsage } from './types.ts';

/** Tool calls one round may ask for (tool-call `index` 0 up to this, exclusive). */
export const MAX_TOOL_CALLS = 128;

export interface ToolCallDelta {
  index?: number;
  id?: string;
  name?: string;
  arguments?: string;
}

export interface UpstreamChunk {
  /** The upstream's own error message, when the event reports a failure. */
  error?: string;
  content?: string;
  toolCalls: ToolCallDelta[];
  finishReason?: string;
  usage?: TokenUsage;
}

type Json = Record<string, unknown>;

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

function malformed(what: string): ChatError {
  return new ChatError(
    502,
    'upstream_error',
    'upstream_error',
    `The language model upstream sent a malformed event: ${what}`,
  );
}

/** An optional field of `o` that must be a string when present (null counts as absent). */
function optString(o: Json, key: string, where: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw malformed(`${where}${key} is not a string`);
  return v;
}

/** An optional field of `o` that must be an object when present (null counts as absent). */
function optObject(o: Json, key: string, where: string): Json | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw malformed(`${where}${key} is not an object`);
  return v;
}

function toolCallDelta(d: unknown, n: number): ToolCallDelta {
  const where = `tool_calls[${n}].`;
  if (!isObject(d)) throw malformed(`tool_calls[${n}] is not an object`);
  const index = d.index;
  if (
    index !== undefined &&
    index !== null &&
    !(Number.isInteger(index) && (index as number) >= 0 && (index as number) < MAX_TOOL_CALLS)
  ) {
    throw malformed(`${where}index is not an integer from 0 to ${MAX_TOOL_CALLS - 1}`);
  }
  const fn = optObject(d, 'function', where);
  // Some servers send the arguments as a JSON object instead of its text.
  const args =
    fn && isObject(fn.arguments)
      ? JSON.stringify(fn.arguments)
      : fn
        ? optString(fn, 'arguments', `${where}function.`)
        : undefined;
  return {
    index: typeof index === 'number' ? index : undefined,
    id: optString(d, 'id', where),
    name: fn ? optString(fn, 'name', `${where}function.`) : undefined,
    arguments: args,
  };
}

function usageOf(u: Json): TokenUsage {
  const num = (key: string): number | undefined => {
    const v = u[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw malformed(`usage.${key} is not a number`);
    return v;
  };
  const p = num('prompt_tokens') ?? 0;
  const c = num('completion_tokens') ?? 0;
  return { prompt_tokens: p, completion_tokens: c, total_tokens: num('total_tokens') ?? p + c };
}

/** Parse and check the `data` of one event (not `[DONE]`). */
export function parseChunk(data: string): UpstreamChunk {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw malformed('not JSON');
  }
  if (!isObject(json)) throw malformed('not a JSON object');
  if (json.error !== undefined && json.error !== null && json.error !== false) {
    const e = json.error;
    const message =
      typeof e === 'string' ? e : isObject(e) && typeof e.message === 'string' ? e.message : 'unknown error';
    return { error: message, toolCalls: [] };
  }
  const choices = json.choices;
  if (choices !== undefined && choices !== null && !Array.isArray(choices)) throw malformed('choices is not a list');
  const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
  if (choice !== undefined && !isObject(choice)) throw malformed('choices[0] is not an object');
  const delta = choice ? optObject(choice, 'delta', 'choices[0].') : undefined;
  const rawCalls = delta?.tool_calls;
  if (rawCalls !== undefined && rawCalls !== null && !Array.isArray(rawCalls))
    throw malformed('tool_calls is not a list');
  const usage = optObject(json, 'usage', '');
  return {
    content: delta ? optString(delta, 'content', 'delta.') : undefined,
    toolCalls: Array.isArray(rawCalls) ? rawCalls.map(toolCallDelta) : [],
    finishReason: choice ? optString(choice, 'finish_reason', 'choices[0].') : undefined,
    usage: usage ? usageOf(usage) : undefined,
  };
}
