/**
 * The request fields of the compatible chat API beyond the six the spec lists,
 * as POST /chat/completions accepts them (README: "Chat clients: request
 * fields", docs/adr/0019), so that chat clients work unmodified:
 *
 * - honoured: `stream_options.include_usage` (a usage chunk before `[DONE]`),
 *   `max_tokens` / `max_completion_tokens` (passed to the upstream; the
 *   extractive model caps its answer), `n` (only 1);
 * - passed to the upstream (the extractive model ignores them): `stop`,
 *   `top_p`, `seed`, `presence_penalty`, `frequency_penalty`, `user`;
 * - accepted and ignored: `parallel_tool_calls`, `store`, `service_tier`,
 *   `prompt_cache_key`, `safety_identifier`, `stream_options.include_obfuscation`;
 * - accepted only at their default, since the service cannot give anything
 *   else: `logprobs` false, `response_format` text, `modalities` text.
 *
 * Every other field (client-defined functions, audio, log probabilities, ...)
 * stays 422 `extra_forbidden`. `null` counts as omitted.
 */
import * as v from 'valibot';
import { pyIssue } from '../validation/pydantic.ts';
import type { GenerationOptions } from './types.ts';

export const MAX_STOP_SEQUENCES = 4;
const MAX_OUTPUT_TOKENS = 1_000_000;

const onlyDefault = (field: string, what: string) =>
  pyIssue('value_error', `Value error, ${field} is not supported by this service: it ${what}`, { error: {} });

const Tokens = v.nullish(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_OUTPUT_TOKENS)));
const Penalty = v.nullish(v.pipe(v.number(), v.minValue(-2), v.maxValue(2)));
const StopText = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
const StopList = v.pipe(v.array(StopText), v.maxLength(MAX_STOP_SEQUENCES));
const Label = v.nullish(v.pipe(v.string(), v.maxLength(512)));

export const CompatibleFields = {
  stream_options: v.nullish(
    v.strictObject({
      include_usage: v.nullish(v.boolean()),
      include_obfuscation: v.nullish(v.boolean()),
    }),
  ),
  max_tokens: Tokens,
  max_completion_tokens: Tokens,
  n: v.nullish(
    v.pipe(
      v.number(),
      v.integer(),
      v.check((n) => n === 1, onlyDefault('n other than 1', 'returns one choice per completion')),
    ),
  ),
  // A list is checked as a list (its errors name the entry), anything else as one sequence.
  stop: v.nullish(v.lazy((input) => (Array.isArray(input) ? StopList : StopText))),
  top_p: v.nullish(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
  seed: v.nullish(v.pipe(v.number(), v.integer(), v.safeInteger())),
  presence_penalty: Penalty,
  frequency_penalty: Penalty,
  user: Label,
  parallel_tool_calls: v.nullish(v.boolean()),
  store: v.nullish(v.boolean()),
  service_tier: Label,
  prompt_cache_key: Label,
  safety_identifier: Label,
  logprobs: v.nullish(
    v.pipe(
      v.boolean(),
      v.check((b) => !b, onlyDefault('logprobs', 'does not return log probabilities')),
    ),
  ),
  response_format: v.nullish(
    v.pipe(
      v.looseObject({ type: v.string() }),
      v.check((f) => f.type === 'text', onlyDefault('response_format', 'answers in text only')),
    ),
  ),
  modalities: v.nullish(
    v.pipe(
      v.array(v.string()),
      v.check((m) => m.every((x) => x === 'text'), onlyDefault('modalities', 'answers in text only')),
    ),
  ),
};

type Parsed = { [K in keyof typeof CompatibleFields]?: v.InferOutput<(typeof CompatibleFields)[K]> };

/** The generation options of a validated body that reach the model (only those given). */
export function generationOptions(body: Parsed): GenerationOptions {
  const out: GenerationOptions = {};
  const keys = [
    'max_tokens',
    'max_completion_tokens',
    'stop',
    'top_p',
    'seed',
    'presence_penalty',
    'frequency_penalty',
    'user',
  ] as const;
  for (const key of keys) {
    const value = body[key];
    if (value !== undefined && value !== null) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** The cap on the answer's tokens a request asked for, if any. */
export function answerTokenCap(options: GenerationOptions): number | undefined {
  return options.max_completion_tokens ?? options.max_tokens;
}
