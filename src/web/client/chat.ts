/**
 * Browser module of the chat page (pages/chat.tsx): wires the composer, the
 * conversation, the list of past conversations and the sources panel, and
 * keeps the address in step (`/chat` for a new chat, `/chat/{id}` for a saved
 * one; Back and Forward reopen). The modules under chat/ do the work.
 */
import { api, type Message } from './chat/api.ts';
import { Composer } from './chat/composer.ts';
import { Conversation, type CompletionOptions } from './chat/conversation.ts';
import { setFeedbackEnabled } from './chat/feedback.ts';
import { HistoryList } from './chat/history.ts';
import { setDatasourceNames, SourcesPanel } from './chat/sources.ts';
import { el, setMessages, tr } from './chat/text.ts';
import { pageData } from './page.ts';

interface ChatPageData {
  t: Record<string, string>;
  conversationId: string | null;
  maxFileBytes: number;
  datasources: Record<string, string>;
  /** Whether answers offer feedback (search analytics are recorded). */
  feedback: boolean;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function start(): void {
  const data = pageData<ChatPageData>();
  if (!data) return;
  setMessages(data.t);
  setDatasourceNames(data.datasources);
  setFeedbackEnabled(data.feedback);
  const log = $<HTMLElement>('chat-log');
  const intro = log.firstElementChild?.cloneNode(true);
  const statusLine = $<HTMLElement>('chat-status');
  const status = (text: string) => {
    statusLine.textContent = text;
  };
  const sources = new SourcesPanel(
    $('chat-sources'),
    $<HTMLOListElement>('chat-sources-list'),
    $<HTMLButtonElement>('chat-sources-close'),
  );

  const select = (id: string) => document.getElementById(id) as HTMLSelectElement | null;
  const checked = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.checked === true;
  const options = (): CompletionOptions => ({
    model: select('chat-model')?.value ?? '',
    agentId: select('chat-agent')?.value ?? '',
    language: select('chat-language')?.value ?? document.documentElement.lang,
    tools: [...(checked('chat-internal') ? ['serviceSearch'] : []), ...(checked('chat-web') ? ['webSearch'] : [])],
    webSearchMode: select('chat-web-mode')?.value,
  });

  let composer: Composer;
  const history = new HistoryList($<HTMLUListElement>('chat-history-list'), $('chat-history-empty'), {
    open: (id) => void open(id, true),
    deleted: (id) => {
      status(tr('chat.deleted'));
      if (conversation.id === id) newChat(true);
    },
    failed: (message) => status(message),
  });
  const conversation = new Conversation({
    log,
    options,
    status,
    busy: (on) => composer.setBusy(on),
    saved: (id, created) => {
      if (created) history.mark(id);
      if (created && location.pathname !== `/chat/${id}`) window.history.replaceState(null, '', `/chat/${id}`);
      void history.refresh();
    },
    actions: {
      cite: (citations, n, opener) => sources.show(citations, n, opener),
      copy: (text) =>
        void navigator.clipboard.writeText(text).then(
          () => status(tr('chat.copied')),
          () => status(tr('chat.copyFailed')),
        ),
    },
  });
  composer = new Composer(
    {
      form: $('chat-composer'),
      prompt: $('chat-prompt'),
      send: $('chat-send'),
      stop: $('chat-stop'),
      attach: $('chat-attach'),
      file: $('chat-file'),
      attachments: $('chat-attachments'),
    },
    data.maxFileBytes,
    {
      submit: async (text) => {
        composer.clear();
        composer.setBusy(true);
        const files = await composer.takeFiles();
        await conversation.send(text, files);
      },
      stop: () => conversation.stop(),
    },
  );

  function showIntro(): void {
    if (intro) log.replaceChildren(intro.cloneNode(true));
  }

  function newChat(push: boolean): void {
    conversation.show(null, []);
    showIntro();
    composer.reset();
    sources.close();
    history.mark(null);
    if (push && location.pathname !== '/chat') window.history.pushState(null, '', '/chat');
    composer.focus();
  }

  async function open(id: string, push: boolean): Promise<void> {
    sources.close();
    try {
      const c = await api<{ id: string; messages: Message[] }>('GET', `/api/conversations/${encodeURIComponent(id)}`);
      conversation.show(c.id, c.messages);
      history.mark(c.id);
      if (push && location.pathname !== `/chat/${id}`) window.history.pushState(null, '', `/chat/${id}`);
      composer.focus();
    } catch (err) {
      conversation.show(null, []);
      log.replaceChildren(el('p', 'error', tr('chat.loadFailed', { reason: (err as Error).message })));
    }
  }

  $('chat-new').addEventListener('click', () => newChat(true));
  window.addEventListener('popstate', () => {
    const m = /^\/chat\/([^/]+)$/.exec(location.pathname);
    if (m) void open(decodeURIComponent(m[1]), false);
    else newChat(false);
  });

  void history.refresh();
  if (data.conversationId) void open(data.conversationId, false);
  else composer.focus();
}

start();
