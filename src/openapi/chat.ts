/**
 * OpenAPI operations of the chat-completion API (base /api/beta/serviceai:
 * models, one model, chat completions as JSON or server-sent events; request
 * body CompletionBody, the handler's validator) and of the chat file upload
 * (POST /api/beta/files/upload, multipart). Every error under the chat base
 * path has the compatible shape `{error: {message, type, param, code}, detail}`;
 * the operations the compatible API has but the service does not run answer
 * 400 `unsupported_operation` and are not listed.
 */
import * as v from 'valibot';
import { CompletionBody } from '../chat/schemas.ts';
import type { Operation } from './operations.ts';
import type { SchemaRegistry } from './schema.ts';

/** The base path of the chat-completion API (routes/chat.ts). */
const CHAT_BASE = '/api/beta/serviceai';

const ModelSchema = v.object({
  id: v.string(),
  object: v.literal('model'),
  created: v.pipe(v.number(), v.integer(), v.description('Unix seconds.')),
  owned_by: v.string(),
});

const Usage = v.object({
  prompt_tokens: v.pipe(v.number(), v.integer()),
  completion_tokens: v.pipe(v.number(), v.integer()),
  total_tokens: v.pipe(v.number(), v.integer()),
});

const CitationSchema = v.object({
  number: v.pipe(v.number(), v.integer(), v.description('The `[n]` marker in the answer.')),
  id: v.string(),
  title: v.string(),
  url: v.optional(v.string()),
  path_preview: v.optional(v.string()),
  datasource: v.pipe(v.string(), v.description('Datasource name, `web` or `file`.')),
});

const FinishReason = v.picklist(['stop', 'length', 'content_filter']);

const CompletionSchema = v.object({
  id: v.string(),
  object: v.literal('chat.completion'),
  created: v.pipe(v.number(), v.integer()),
  model: v.string(),
  system_fingerprint: v.null(),
  choices: v.array(
    v.object({
      index: v.pipe(v.number(), v.integer()),
      message: v.object({ role: v.literal('assistant'), content: v.string(), refusal: v.null() }),
      logprobs: v.null(),
      finish_reason: FinishReason,
    }),
  ),
  usage: v.optional(Usage),
  citations: v.array(CitationSchema),
});

const ChunkSchema = v.pipe(
  v.object({
    id: v.string(),
    object: v.literal('chat.completion.chunk'),
    created: v.pipe(v.number(), v.integer()),
    model: v.string(),
    choices: v.array(
      v.object({
        index: v.pipe(v.number(), v.integer()),
        delta: v.object({ role: v.optional(v.literal('assistant')), content: v.optional(v.string()) }),
        finish_reason: v.nullable(FinishReason),
      }),
    ),
    usage: v.nullish(Usage),
    citations: v.optional(v.array(CitationSchema)),
  }),
  v.description(
    'One `data:` event of the stream. The first carries the role, the last `finish_reason`, `citations` and `usage`; with `stream_options.include_usage` a chunk without choices carries the usage; then `data: [DONE]`. An error after the stream started is sent as `data: {"error": ...}`.',
  ),
);

const StoredFileSchema = v.object({
  id: v.pipe(v.string(), v.description('File id for `metadata.files` of a chat completion.')),
  object: v.literal('file'),
  filename: v.string(),
  bytes: v.pipe(v.number(), v.integer()),
  media_type: v.string(),
  created_at: v.pipe(v.number(), v.integer(), v.description('Unix seconds.')),
  chars: v.pipe(v.number(), v.integer(), v.description('Characters of extracted text.')),
  title: v.nullable(v.string()),
  language: v.nullable(v.picklist(['de', 'en'])),
  truncated: v.boolean(),
  purpose: v.literal('chat'),
  status: v.literal('processed'),
});

export function chatOperations(r: SchemaRegistry): Operation[] {
  r.named('Model', ModelSchema);
  r.named('Citation', CitationSchema);
  r.named('ChatCompletion', CompletionSchema);
  r.named('ChatCompletionRequest', CompletionBody);
  r.named('StoredFile', StoredFileSchema);
  const chat = { tag: 'Chat', access: 'personal', envelope: 'chat' } as const;
  return [
    {
      ...chat,
      method: 'get',
      path: `${CHAT_BASE}/models`,
      id: 'list_models',
      summary: 'List models',
      ok: {
        description: 'The model catalogue',
        schema: v.object({ object: v.literal('list'), data: v.array(ModelSchema) }),
      },
    },
    {
      ...chat,
      method: 'get',
      path: `${CHAT_BASE}/models/{model}`,
      id: 'retrieve_model',
      summary: 'Retrieve a model',
      pathParams: { model: 'Model id (may contain `/`).' },
      errors: [404],
      ok: { description: 'The model', schema: ModelSchema },
    },
    {
      ...chat,
      method: 'post',
      path: `${CHAT_BASE}/chat/completions`,
      id: 'create_chat_completion',
      summary: 'Create a chat completion',
      description:
        'Answers from the documents the caller may see (tools `serviceSearch`, `webSearch`), citing them. With `stream: true` the answer is a stream of server-sent events.',
      body: CompletionBody,
      errors: [400, 404, 502, 503, 504],
      ok: {
        description: 'The completion (JSON), or its server-sent events when `stream` is true',
        media: {
          'application/json': { schema: r.ref('ChatCompletion') },
          'text/event-stream': {
            schema: {
              type: 'string',
              description: 'Events `data: <ChatCompletionChunk JSON>`, ending with `data: [DONE]`.',
            },
            'x-item-schema': r.convert(ChunkSchema),
          },
        },
      },
    },
    {
      method: 'post',
      path: '/api/beta/files/upload',
      id: 'upload_file',
      summary: 'Upload a file for chat',
      description: 'Extracts the text of a file (PDF, Office, HTML, text, ...) and stores it for `metadata.files`.',
      tag: 'Chat',
      access: 'personal',
      bodyMedia: 'multipart/form-data',
      body: {
        type: 'object',
        properties: {
          file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file.' },
        },
        required: ['file'],
      },
      ok: { description: "The stored file's metadata", schema: StoredFileSchema },
    },
  ];
}
