/**
 * Shared types of the chat layer: messages as the models see them, tool calls,
 * the model interface both the upstream client and the embedded extractive
 * model implement, and the sources the answer cites.
 */
import type { Language } from '../../engine/index.ts';

export type { Language };

/** A call the model asked for; `arguments` is the raw JSON text the model produced. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A message in the conversation handed to a model (OpenAI wire roles). */
export type ModelMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string };

/** A function offered to the model (JSON schema parameters). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Something a completion can cite, numbered per completion in order of retrieval (`key`). */
export interface Source {
  /** Retrieval number shown to the model (`[key]`); the answer is renumbered by first use. */
  key: number;
  id: string;
  title: string;
  /** Web page address (web results). */
  url?: string;
  /** Human-readable location (search results, files). */
  path_preview?: string;
  /** `wikitool`, ..., `web` for web results, `file` for attached files. */
  datasource: string;
  /** The text the model receives for it. */
  text: string;
}

/** One element of the documented `citations` field: a cited source under its answer number. */
export interface Citation {
  number: number;
  id: string;
  title: string;
  url?: string;
  path_preview?: string;
  datasource: string;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** What a model produces while it streams one round. */
export type ModelEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: TokenUsage }
  /** Only when the model stopped for another reason than the end of its answer. */
  | { type: 'finish'; reason: 'length' | 'content_filter' };

/** Context the service gives every round; the upstream model sees it only through `messages`. */
export interface RoundContext {
  /** Every source retrieved so far (files first, then tool results), by key. */
  sources: readonly Source[];
  /** The last user message. */
  question: string;
  language: Language;
}

/**
 * Generation options of the compatible chat API a request gave (src/chat/compatible-fields.ts):
 * an upstream receives them as they are; the extractive model honours only the token caps.
 */
export interface GenerationOptions {
  max_tokens?: number;
  max_completion_tokens?: number;
  stop?: string | string[];
  top_p?: number;
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  user?: string;
}

export interface RoundRequest {
  messages: ModelMessage[];
  /** Empty: the model must answer without tools. */
  tools: ToolSpec[];
  temperature?: number;
  /** Applies to each round (each call of an upstream). */
  options?: GenerationOptions;
  context: RoundContext;
  signal: AbortSignal;
}

export interface ChatModel {
  readonly id: string;
  readonly ownedBy: string;
  /** Stream one round: text deltas as they arrive, then any complete tool calls. */
  round(request: RoundRequest): AsyncIterable<ModelEvent>;
}
