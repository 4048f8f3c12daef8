/**
 * One chat completion, independent of HTTP: `prepareCompletion` resolves
 * everything that can fail before an answer starts (agent, model, attached
 * files; ChatError 404), then `run()` streams the answer:
 *
 * 1. System instructions in the completion's language, the agent's
 *    instructions and the relevant parts of attached files (numbered sources),
 *    with the client's leading system messages, as one system message.
 * 2. Tool loop: each round offers the allowed tools as functions; the model's
 *    text deltas are passed on at once (citation markers renumbered, never
 *    split), its tool calls are executed in parallel and fed back (a call of
 *    a tool not offered is answered as unavailable, never run; at most
 *    MAX_CALLS_PER_ROUND calls of a round run, the others are answered as
 *    not run); after
 *    `maxToolRounds` rounds the model must answer without tools.
 * 3. A final `done` event with the cited sources and the token usage (the
 *    upstream's counts when it reports them, else about four characters per token).
 */
import { findAgent } from '../agents/agents.ts';
import type { AgentRecord } from '../agents/state.ts';
import type { FileStoreReader, StoredFileWithText } from '../files/store.ts';
import { selectRelevant, type SelectPassagesFn } from '../passages/select.ts';
import type { StateStore } from '../state/store.ts';
import type { WebSearchMode, WebSearchService } from '../websearch/types.ts';
import { CitationWriter } from './citations.ts';
import { ChatError } from './errors.ts';
import type { ModelCatalog } from './models.ts';
import type { Logger } from '../log.ts';
import { systemPrompt } from './prompt.ts';
import { analysisLanguage } from '../passages/relevance.ts';
import {
  MAX_CALLS_PER_ROUND,
  notOffered,
  notRun,
  runTool,
  SourceRegistry,
  TOOL_SPECS,
  type ChatSearchFn,
  type ToolName,
} from './tools.ts';
import type { ChatModel, Citation, GenerationOptions, Language, ModelMessage, TokenUsage } from './types.ts';

export interface ChatDeps {
  models: ModelCatalog;
  state: StateStore;
  files: FileStoreReader;
  search?: ChatSearchFn;
  webSearch?: WebSearchService;
  maxToolRounds: number;
  searchResults: number;
  filesContextChars: number;
  /** Where long attached files are cut to their relevant passages (default: selectRelevant on this thread). */
  selectPassages?: SelectPassagesFn;
}

export interface CompletionInput {
  accountId: string;
  email: string;
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  model?: string;
  temperature?: number;
  /** The compatible API's generation options (max_tokens, stop, ...), handed to every round. */
  options?: GenerationOptions;
  tools: ToolName[];
  agentId?: string;
  files: string[];
  webSearchMode?: WebSearchMode;
  language: Language;
  /** The request's logger (its searches log budget cuts and refusals on it). */
  log?: Logger;
}

export type CompletionEvent =
  | { type: 'text'; text: string }
  | { type: 'done'; finishReason: 'stop' | 'length' | 'content_filter'; citations: Citation[]; usage: TokenUsage };

export interface PreparedCompletion {
  model: ChatModel;
  run(signal: AbortSignal): AsyncGenerator<CompletionEvent>;
}

export async function prepareCompletion(deps: ChatDeps, input: CompletionInput): Promise<PreparedCompletion> {
  let agent: AgentRecord | undefined;
  if (input.agentId !== undefined) {
    agent = findAgent(deps, input.agentId);
    if (!agent)
      throw new ChatError(
        404,
        'not_found_error',
        'agent_not_found',
        `Agent ${input.agentId} does not exist`,
        'metadata.agent_id',
      );
  }
  const modelId = agent?.model ?? input.model ?? deps.models.defaultId;
  const model = deps.models.get(modelId);
  if (!model) {
    throw new ChatError(
      404,
      'not_found_error',
      'model_not_found',
      `The model ${JSON.stringify(modelId)} does not exist; GET /models lists the available models`,
      agent?.model ? 'metadata.agent_id' : 'model',
    );
  }
  const files: StoredFileWithText[] = [];
  for (const id of new Set(input.files)) {
    const file = await deps.files.read(input.accountId, id);
    if (!file)
      throw new ChatError(404, 'not_found_error', 'file_not_found', `File ${id} does not exist`, 'metadata.files');
    files.push(file);
  }
  const tools = agent
    ? input.tools.length > 0
      ? input.tools.filter((t) => agent.tools.includes(t))
      : (agent.tools as ToolName[])
    : input.tools;
  const question = [...input.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const language = input.language;

  return {
    model,
    async *run(signal) {
      const registry = new SourceRegistry();
      const queryLanguage = analysisLanguage(question, language);
      const share = Math.floor(deps.filesContextChars / Math.max(1, files.length));
      // A file within its share is given whole; a longer one is cut where deps say (a search worker).
      const select = deps.selectPassages;
      const texts = await Promise.all(
        files.map((f) =>
          select === undefined || f.text.length <= share
            ? selectRelevant(f.text, question, share, queryLanguage)
            : select(f.text, question, share, queryLanguage).catch(() =>
                selectRelevant(f.text, question, share, queryLanguage),
              ),
        ),
      );
      const fileSources = files.map((f, i) =>
        registry.add({ id: f.id, title: f.filename, path_preview: f.filename, datasource: 'file', text: texts[i] }),
      );
      // The client's leading system messages join the service's instructions: one system message,
      // as the chat templates of many served models (e.g. Mistral's) accept no second one.
      let firstOther = input.messages.findIndex((m) => m.role !== 'system');
      if (firstOther < 0) firstOther = input.messages.length;
      const clientSystem = input.messages.slice(0, firstOther).map((m) => m.content);
      // The answer language is the question's (metadata.language decides only for very short inputs, as for the search).
      const system = [
        systemPrompt({ language: queryLanguage, tools, agentInstructions: agent?.instructions, files: fileSources }),
        ...clientSystem,
      ].join('\n\n');
      const messages: ModelMessage[] = [{ role: 'system', content: system }, ...input.messages.slice(firstOther)];
      const writer = new CitationWriter((key) => registry.get(key));
      const toolDeps = {
        email: input.email,
        search: deps.search,
        webSearch: deps.webSearch,
        webSearchMode: input.webSearchMode,
        scope: agent?.datasources ?? undefined,
        language: queryLanguage,
        searchResults: deps.searchResults,
        registry,
        signal,
        log: input.log,
      };
      const offered = tools.map((t) => TOOL_SPECS[t]);
      let reported: TokenUsage | undefined;
      let finishReason: 'stop' | 'length' | 'content_filter' = 'stop';
      let promptChars = 0;
      let answerChars = 0;
      for (let round = 0; ; round++) {
        const roundTools = round < deps.maxToolRounds ? offered : [];
        promptChars += messages.reduce((n, m) => n + m.content.length, 0);
        let text = '';
        const calls = [];
        // The answer's finish_reason is the one of the round that ended it.
        finishReason = 'stop';
        const context = { sources: registry.all(), question, language: queryLanguage };
        for await (const ev of model.round({
          messages,
          tools: roundTools,
          temperature: input.temperature,
          options: input.options,
          context,
          signal,
        })) {
          if (ev.type === 'text') {
            text += ev.text;
            const out = writer.write(ev.text);
            if (out) yield { type: 'text', text: out };
          } else if (ev.type === 'tool_call') {
            // In the round without tools, calls are ignored: the model must answer.
            if (roundTools.length > 0) calls.push(ev.call);
          } else if (ev.type === 'usage') {
            reported = add(reported, ev.usage);
          } else {
            finishReason = ev.reason;
          }
        }
        answerChars += text.length;
        if (calls.length === 0) break;
        messages.push({ role: 'assistant', content: text, tool_calls: calls });
        const results = await Promise.all(
          calls.map((call, i) =>
            i >= MAX_CALLS_PER_ROUND
              ? notRun()
              : roundTools.some((t) => t.name === call.name)
                ? runTool(call, toolDeps)
                : notOffered(call.name, roundTools),
          ),
        );
        calls.forEach((call, i) => messages.push({ role: 'tool', tool_call_id: call.id, content: results[i] }));
      }
      const rest = writer.end();
      if (rest) yield { type: 'text', text: rest };
      const usage = reported ?? estimate(promptChars, answerChars);
      yield { type: 'done', finishReason, citations: writer.citations(), usage };
    },
  };
}

function add(a: TokenUsage | undefined, b: TokenUsage): TokenUsage {
  if (!a) return { ...b };
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

function estimate(promptChars: number, answerChars: number): TokenUsage {
  const p = Math.ceil(promptChars / 4);
  const c = Math.ceil(answerChars / 4);
  return { prompt_tokens: p, completion_tokens: c, total_tokens: p + c };
}
