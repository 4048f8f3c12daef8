/**
 * The messages of the log. A user message shows its text as written (line
 * breaks kept) and the files sent with it. An assistant answer renders its
 * streamed text as safe Markdown (markdown.ts) with citation chips, then, once
 * complete, its actions: copy, the sources, and regenerate (on the last
 * answer), and the feedback row (feedback.ts) when the page has one. Every
 * text is set as text, never as markup.
 */
import type { Citation, FileRef } from './api.ts';
import { StreamingText, type CiteFn } from './markdown.ts';
import { button, el, tr } from './text.ts';

export function userMessage(content: string, files: FileRef[] = []): HTMLElement {
  const article = el('article', 'msg msg-user');
  article.setAttribute('aria-label', tr('chat.you'));
  article.append(el('p', 'msg-role', tr('chat.you')), el('div', 'msg-body msg-plain', content));
  if (files.length > 0) {
    const list = el('ul', 'msg-files');
    list.setAttribute('aria-label', tr('chat.attachments'));
    for (const f of files) list.append(el('li', undefined, f.filename));
    article.append(list);
  }
  return article;
}

export interface AnswerActions {
  /** A citation chip or the Sources button was pressed. */
  cite(citations: Citation[] | undefined, n: number | undefined, opener: HTMLElement): void;
  copy(text: string): void;
  regenerate(): void;
  /** The feedback row of a complete answer (null: none). */
  feedback?(): HTMLElement | null;
}

export class AssistantMessage {
  readonly el = el('article', 'msg msg-assistant');
  private readonly body = el('div', 'msg-body');
  private readonly note = el('p', 'msg-note');
  private readonly actions = el('div', 'msg-actions');
  private readonly regen = button(tr('chat.regenerate'));
  private readonly text: StreamingText;
  private feedback: HTMLElement | null = null;
  citations: Citation[] | undefined;

  constructor(private readonly on: AnswerActions) {
    this.el.setAttribute('aria-label', tr('chat.assistant'));
    this.note.hidden = true;
    this.actions.hidden = true;
    this.regen.addEventListener('click', () => this.on.regenerate());
    this.el.append(el('p', 'msg-role', tr('chat.assistant')), this.body, this.note, this.actions);
    this.text = new StreamingText(this.body, this.chip(undefined));
  }

  get content(): string {
    return this.text.value;
  }

  /** Citation chips; with the citations known, only their numbers become chips, labelled with the title. */
  private chip(citations: Citation[] | undefined): CiteFn {
    return (n) => {
      const cited = citations?.find((c) => c.number === n);
      if (citations && !cited) return null;
      const label = cited ? tr('chat.sourceOf', { n, title: cited.title }) : tr('chat.source', { n });
      const chip = button(String(n), 'cite', label);
      chip.addEventListener('click', () => this.on.cite(this.citations, n, chip));
      return chip;
    };
  }

  append(delta: string): void {
    this.text.append(delta);
  }

  /** A saved answer: its whole text at once, complete. */
  restore(content: string, citations: Citation[]): void {
    this.text.reset(content);
    this.finish(citations);
  }

  showWorking(working: boolean): void {
    this.el.classList.toggle('working', working);
    this.note.hidden = !working;
    this.note.className = 'msg-note';
    this.note.textContent = working ? tr('chat.working') : '';
  }

  /** The answer is complete (or stopped, or failed after some text): re-render with the citations, show actions. */
  finish(citations: Citation[], note?: { text: string; error?: boolean }): void {
    this.citations = citations;
    this.text.reset(this.text.value, this.chip(citations));
    this.el.classList.remove('working');
    this.note.hidden = !note;
    this.note.className = note?.error ? 'msg-note error' : 'msg-note';
    this.note.textContent = note?.text ?? '';
    if (note?.error) this.note.setAttribute('role', 'alert');
    const copy = button(tr('chat.copy'));
    copy.addEventListener('click', () => this.on.copy(this.text.value));
    const buttons: HTMLElement[] = [];
    if (this.text.value !== '') buttons.push(copy);
    if (citations.length > 0) {
      const sources = button(`${tr('chat.sources')} (${citations.length})`);
      sources.addEventListener('click', () => this.on.cite(citations, undefined, sources));
      buttons.push(sources);
    }
    buttons.push(this.regen);
    this.actions.replaceChildren(...buttons);
    this.actions.hidden = false;
    if (!this.feedback && this.text.value !== '') {
      this.feedback = this.on.feedback?.() ?? null;
      if (this.feedback) this.el.append(this.feedback);
    }
  }

  /** Only the last answer can be regenerated. */
  setRegenerable(on: boolean): void {
    this.regen.hidden = !on;
  }
}
