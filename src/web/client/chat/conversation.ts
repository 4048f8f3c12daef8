/**
 * The conversation being shown: its messages, the streamed answer, and
 * saving. Sending adds the user message and streams the answer from
 * POST /api/beta/serviceai/chat/completions (`stream: true`, the options of
 * the page), painting each text delta as it arrives; Stop aborts the request
 * and keeps what came. Regenerate replaces the last answer. After each answer
 * the messages not saved yet are saved (a new conversation is created on the
 * first answer, and the address becomes /chat/{id}); regenerated answers
 * replace the saved one (`replace_from`).
 */
import { api, ApiError, startCompletion, type Citation, type FileRef, type Message } from './api.ts';
import { feedbackRow } from './feedback.ts';
import { AssistantMessage, userMessage, type AnswerActions } from './message.ts';
import { completionEvent, sseData } from './sse.ts';
import { tr } from './text.ts';

/** What the page's options say for the next completion. */
export interface CompletionOptions {
  model: string;
  agentId: string;
  language: string;
  tools: string[];
  webSearchMode: string | undefined;
}

export interface ConversationView {
  log: HTMLElement;
  options(): CompletionOptions;
  status(text: string): void;
  busy(on: boolean): void;
  saved(id: string, created: boolean): void;
  actions: Pick<AnswerActions, 'cite' | 'copy'>;
}

const MAX_FILES = 20;
const TITLE_CHARS = 80;

export class Conversation {
  id: string | null = null;
  private messages: Message[] = [];
  private saved = 0;
  private answers: AssistantMessage[] = [];
  private controller: AbortController | undefined;
  /** Changes when another conversation is shown: an answer still finishing then leaves the new one alone. */
  private generation = 0;

  constructor(private readonly view: ConversationView) {}

  get streaming(): boolean {
    return this.controller !== undefined;
  }

  /** Show `messages` of conversation `id` (null: a new, empty conversation). */
  show(id: string | null, messages: Message[]): void {
    this.stop();
    this.generation++;
    this.id = id;
    this.messages = messages.map((m) => ({ ...m }));
    this.saved = messages.length;
    this.answers = [];
    this.view.log.replaceChildren();
    let question = '';
    for (const m of this.messages) {
      if (m.role === 'user') this.view.log.append(userMessage(m.content, m.files));
      else this.newAnswer(question).restore(m.content, m.citations ?? []);
      if (m.role === 'user') question = m.content;
    }
    this.updateRegenerate();
  }

  get isEmpty(): boolean {
    return this.messages.length === 0;
  }

  async send(text: string, files: FileRef[]): Promise<void> {
    if (this.messages.length === 0) this.view.log.replaceChildren();
    const message: Message = { role: 'user', content: text };
    if (files.length > 0) message.files = files;
    this.messages.push(message);
    this.view.log.append(userMessage(text, files));
    await this.answer();
  }

  async regenerate(): Promise<void> {
    if (this.streaming) return;
    if (this.messages.at(-1)?.role === 'assistant') {
      this.messages.pop();
      this.saved = Math.min(this.saved, this.messages.length);
    }
    // The answer element shown last (complete, stopped or failed) goes.
    this.answers.pop()?.el.remove();
    await this.answer();
  }

  stop(): void {
    this.controller?.abort();
  }

  /** A new answer element for `question` (what its feedback refers to). */
  private newAnswer(question: string): AssistantMessage {
    const answer: AssistantMessage = new AssistantMessage({
      ...this.view.actions,
      regenerate: () => void this.regenerate(),
      feedback: () => feedbackRow(() => ({ question, answer: answer.content, conversationId: this.id })),
    });
    this.answers.push(answer);
    this.view.log.append(answer.el);
    return answer;
  }

  private updateRegenerate(): void {
    this.answers.forEach((a, i) => a.setRegenerable(i === this.answers.length - 1));
  }

  private request(): unknown {
    const o = this.view.options();
    const files = [...new Map(this.messages.flatMap((m) => m.files ?? []).map((f) => [f.id, f])).keys()];
    const metadata: Record<string, unknown> = { language: o.language };
    if (o.agentId) metadata.agent_id = o.agentId;
    if (files.length > 0) metadata.files = files.slice(-MAX_FILES);
    if (o.webSearchMode && o.tools.includes('webSearch')) metadata.web_search_mode = o.webSearchMode;
    return {
      model: o.model,
      stream: true,
      messages: this.messages.map((m) => ({ role: m.role, content: m.content })),
      tools: o.tools.map((name) => ({ type: 'function', function: { name } })),
      metadata,
    };
  }

  /** Stream an answer to the messages so far, then save. */
  private async answer(): Promise<void> {
    const answer = this.newAnswer(this.messages.at(-1)?.content ?? '');
    this.updateRegenerate();
    answer.showWorking(true);
    const controller = new AbortController();
    const generation = this.generation;
    this.controller = controller;
    this.view.busy(true);
    this.view.log.setAttribute('aria-busy', 'true');
    let citations: Citation[] = [];
    let failure: string | undefined;
    try {
      const res = await startCompletion(this.request(), controller.signal);
      for await (const data of sseData(res.body!)) {
        const ev = completionEvent(data);
        if (ev?.kind === 'text') {
          if (answer.content === '') answer.showWorking(false);
          answer.append(ev.text);
        } else if (ev?.kind === 'end') citations = ev.citations as Citation[];
        else if (ev?.kind === 'error') failure = ev.message;
      }
    } catch (err) {
      if (!controller.signal.aborted) failure = err instanceof ApiError ? err.message : String(err);
    } finally {
      if (this.controller === controller) {
        this.controller = undefined;
        this.view.busy(false);
        this.view.log.removeAttribute('aria-busy');
      }
    }
    if (generation !== this.generation) return;
    const stopped = controller.signal.aborted;
    const note = failure
      ? { text: tr('chat.failed', { reason: failure }), error: true }
      : stopped
        ? { text: tr('chat.stopped') }
        : undefined;
    answer.finish(citations, note);
    this.updateRegenerate();
    if (answer.content === '') return;
    this.messages.push({ role: 'assistant', content: answer.content, citations });
    this.view.status(stopped ? tr('chat.stopped') : tr('chat.done'));
    await this.save();
  }

  private async save(): Promise<void> {
    const unsaved = this.messages.slice(this.saved);
    try {
      if (this.id === null) {
        const title = (this.messages.find((m) => m.role === 'user')?.content ?? '').replace(/\s+/g, ' ').trim();
        const created = await api<{ id: string }>('POST', '/api/conversations', {
          title: title.length > TITLE_CHARS ? `${title.slice(0, TITLE_CHARS - 1)}…` : title,
          messages: unsaved,
        });
        this.id = created.id;
        this.saved = this.messages.length;
        this.view.saved(created.id, true);
      } else {
        await api('POST', `/api/conversations/${encodeURIComponent(this.id)}/messages`, {
          messages: unsaved,
          replace_from: this.saved,
        });
        this.saved = this.messages.length;
        this.view.saved(this.id, false);
      }
    } catch (err) {
      this.view.status(tr('chat.notSaved', { reason: (err as Error).message }));
    }
  }
}
