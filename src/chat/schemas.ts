/**
 * The strict request body of POST /chat/completions (spec: `messages`,
 * `model`, `stream`, `temperature`, `metadata`, `tools`; roles `system`,
 * `user`, `assistant`, plus `developer` read as `system`), with the other
 * request fields of the compatible API that clients send
 * (compatible-fields.ts; any other field is 422), validated with valibot and
 * reported like every other 422 of the service, then shown in the compatible
 * error shape by the route.
 * `null` counts as omitted for optional fields. Message content may be a
 * string or a list of text parts (joined); the empty fields of an answered
 * message (`refusal`, `tool_calls`, ...) are accepted and ignored.
 */
import * as v from 'valibot';
import { pyIssue } from '../validation/pydantic.ts';
import { WEB_SEARCH_MODES } from '../websearch/types.ts';
import { TOOL_NAMES } from './tools.ts';
import { CompatibleFields } from './compatible-fields.ts';

export const MAX_MESSAGES = 500;
export const MAX_CONTENT_CHARS = 200_000;
export const MAX_FILES = 20;

const TextPart = v.object({ type: v.literal('text'), text: v.string() });

const TextParts = v.array(TextPart);
const Text = v.string();

// A list is checked as a list of parts (its errors name the part), anything else as a string.
const Content = v.pipe(
  v.lazy((input) => (Array.isArray(input) ? TextParts : Text)),
  v.transform((c) => (typeof c === 'string' ? c : c.map((p) => p.text).join('\n'))),
  v.maxLength(MAX_CONTENT_CHARS),
);

const Message = v.strictObject({
  // `developer` is the compatible API's newer name for `system`.
  role: v.pipe(
    v.picklist(['system', 'developer', 'user', 'assistant']),
    v.transform((r) => (r === 'developer' ? 'system' : r)),
  ),
  content: Content,
  name: v.optional(v.string()),
  // Fields of an answered assistant message, accepted when empty (ignored), so a client can append
  // the message it received to the conversation as it is.
  refusal: v.nullish(v.string()),
  tool_calls: v.nullish(
    v.pipe(
      v.array(v.unknown()),
      v.check(
        (calls) => calls.length === 0,
        pyIssue(
          'value_error',
          'Value error, tool calls in messages are not supported; the service runs the tools itself',
          { error: {} },
        ),
      ),
    ),
  ),
  function_call: v.nullish(v.null()),
  audio: v.nullish(v.null()),
});

const Tool = v.object({
  type: v.optional(v.literal('function')),
  function: v.object({ name: v.picklist(TOOL_NAMES) }),
});

const Metadata = v.strictObject({
  agent_id: v.nullish(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  files: v.nullish(v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(100))), v.maxLength(MAX_FILES))),
  web_search_mode: v.nullish(v.union([v.literal(''), v.picklist(WEB_SEARCH_MODES)])),
  language: v.nullish(v.picklist(['de', 'en'])),
});

export const CompletionBody = v.strictObject({
  messages: v.pipe(
    v.array(Message),
    v.minLength(1),
    v.maxLength(MAX_MESSAGES),
    v.check(
      (ms) => ms.some((m) => m.role === 'user'),
      pyIssue('value_error', 'Value error, messages must contain a user message', { error: {} }),
    ),
  ),
  model: v.nullish(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  stream: v.nullish(v.boolean()),
  temperature: v.nullish(v.pipe(v.number(), v.minValue(0), v.maxValue(2))),
  metadata: v.nullish(Metadata),
  tools: v.nullish(v.pipe(v.array(Tool), v.maxLength(2))),
  ...CompatibleFields,
});

export type CompletionBodyOutput = v.InferOutput<typeof CompletionBody>;
