/**
 * Saved chat conversations: their documented limits, the shapes the API
 * answers, and the strict request bodies of /api/conversations (valibot,
 * reported as 422 like every other body of the service).
 *
 * Limits (README, Limits): at most MAX_CONVERSATIONS per account,
 * MAX_MESSAGES per conversation, MAX_MESSAGE_CHARS per message, and
 * MAX_ACCOUNT_BYTES of stored records per account (deleted conversations do
 * not count). A body beyond a field limit is 422; an append that would pass a
 * count or the byte limit is 409 (delete conversations first).
 */
import * as v from 'valibot';

export const MAX_CONVERSATIONS = 200;
export const MAX_MESSAGES = 200;
export const MAX_MESSAGE_CHARS = 100_000;
export const MAX_TITLE_CHARS = 200;
export const MAX_CITATIONS = 100;
export const MAX_FILES = 20;
export const MAX_ACCOUNT_BYTES = 32 * 1024 * 1024;

export const CONVERSATION_ID = /^conv_[0-9a-f]{24}$/;

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));

const Citation = v.strictObject({
  number: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000)),
  id: text(4096),
  title: text(2000),
  url: v.optional(text(4096)),
  path_preview: v.optional(text(4096)),
  datasource: text(200),
});

const AttachedFile = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  filename: text(255),
});

export const MessageInput = v.strictObject({
  role: v.picklist(['user', 'assistant']),
  content: text(MAX_MESSAGE_CHARS),
  citations: v.optional(v.pipe(v.array(Citation), v.maxLength(MAX_CITATIONS))),
  files: v.optional(v.pipe(v.array(AttachedFile), v.maxLength(MAX_FILES))),
});

const Title = v.pipe(v.string(), v.trim(), v.maxLength(MAX_TITLE_CHARS));
const Messages = v.pipe(v.array(MessageInput), v.maxLength(MAX_MESSAGES));

export const CreateConversationBody = v.strictObject({
  title: v.optional(Title, ''),
  messages: v.optional(Messages, []),
});

export const AppendMessagesBody = v.strictObject({
  messages: v.pipe(Messages, v.minLength(1)),
  /** Keep only the first `replace_from` messages before appending (regenerate); default: keep all. */
  replace_from: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

export const RenameConversationBody = v.strictObject({ title: Title });

export type MessageInput = v.InferOutput<typeof MessageInput>;
export type CreateConversationInput = v.InferOutput<typeof CreateConversationBody>;
export type AppendMessagesInput = v.InferOutput<typeof AppendMessagesBody>;

/** A stored message: the input plus the time it was saved. */
export type StoredMessage = MessageInput & { created_at: string };

/** A conversation in the list. */
export interface ConversationSummary {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  message_count: number;
}

export interface Conversation extends ConversationSummary {
  messages: StoredMessage[];
}
