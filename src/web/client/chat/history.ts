/**
 * The list of past conversations (GET /api/conversations), newest first:
 * each a link to `/chat/{id}` (opened in place, the address updated) and a
 * delete button that asks once more before it deletes
 * (DELETE /api/conversations/{id}). Titles are text.
 */
import { api, type ConversationSummary } from './api.ts';
import { button, el, tr } from './text.ts';

export interface HistoryEvents {
  open(id: string): void;
  deleted(id: string): void;
  failed(message: string): void;
}

export class HistoryList {
  private current: string | null = null;

  constructor(
    private readonly list: HTMLUListElement,
    private readonly empty: HTMLElement,
    private readonly on: HistoryEvents,
  ) {}

  async refresh(): Promise<void> {
    try {
      const { conversations } = await api<{ conversations: ConversationSummary[] }>('GET', '/api/conversations');
      this.list.replaceChildren(...conversations.map((c) => this.item(c)));
      this.empty.hidden = conversations.length > 0;
      this.mark(this.current);
    } catch (err) {
      this.on.failed((err as Error).message);
    }
  }

  /** Mark the open conversation (aria-current). */
  mark(id: string | null): void {
    this.current = id;
    for (const a of this.list.querySelectorAll<HTMLAnchorElement>('a')) {
      if (a.dataset.id === id) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
  }

  private item(c: ConversationSummary): HTMLLIElement {
    const title = c.title || tr('chat.untitled');
    const li = el('li');
    const link = el('a', 'chat-history-link', title);
    link.href = `/chat/${encodeURIComponent(c.id)}`;
    link.dataset.id = c.id;
    link.addEventListener('click', (e) => {
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      this.on.open(c.id);
    });
    const remove = button(tr('chat.delete'), 'chat-delete', tr('chat.deleteLabel', { title }));
    const reset = () => {
      remove.textContent = tr('chat.delete');
      remove.classList.remove('confirm');
    };
    remove.addEventListener('blur', reset);
    remove.addEventListener('click', async () => {
      if (!remove.classList.contains('confirm')) {
        remove.textContent = tr('chat.deleteConfirm');
        remove.classList.add('confirm');
        return;
      }
      try {
        await api('DELETE', `/api/conversations/${encodeURIComponent(c.id)}`);
        const next = (li.nextElementSibling ?? li.previousElementSibling)?.querySelector('a');
        li.remove();
        this.empty.hidden = this.list.children.length > 0;
        (next ?? document.getElementById('chat-new'))?.focus();
        this.on.deleted(c.id);
      } catch (err) {
        reset();
        this.on.failed((err as Error).message);
      }
    });
    li.append(link, remove);
    return li;
  }
}
