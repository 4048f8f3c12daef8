/**
 * The chat page at `/chat` and `/chat/{conversation id}` (signed in).
 *
 * Server-rendered: the frame of the conversation (past conversations, the
 * message log, the composer) and the options the server knows: the models of
 * the same ModelCatalog the chat API uses, the agents (src/agents), the web
 * search modes whose provider is configured (or a note that web search is not
 * configured), the language (the page's by default). The browser module
 * (client/chat.ts) does the rest through the public API with the session:
 * completions streamed from /api/beta/serviceai/chat/completions, uploads to
 * /api/beta/files/upload, saved conversations at /api/conversations. A
 * conversation address of another account, like an unknown one, is 404.
 */
import { Hono, type Context } from 'hono';
import { listAgents } from '../../agents/agents.ts';
import { ModelCatalog } from '../../chat/models.ts';
import { EXTRACTIVE_MODEL_ID } from '../../chat/extractive.ts';
import { CONVERSATION_ID } from '../../conversations/schema.ts';
import { notFound } from '../../errors.ts';
import { indexingState } from '../../controlplane/datasources.ts';
import { isRegistered } from '../../controlplane/resolve.ts';
import type { Services } from '../../services.ts';
import { configuredModes } from '../../websearch/service.ts';
import type { WebSearchMode } from '../../websearch/types.ts';
import type { WebAssets } from '../assets/store.ts';
import type { WebEnv } from '../env.ts';
import { clientMessages, LANGUAGES, t, type Lang, type MessageKey } from '../i18n/i18n.ts';
import { chatEn } from '../i18n/chat.en.ts';
import { Page } from '../layout.tsx';
import { safeNext } from '../viewer.ts';

/** What the browser module reads from the page data. */
export interface ChatPageData {
  t: Record<string, string>;
  conversationId: string | null;
  maxFileBytes: number;
  /** Display names of the datasources the viewer is registered on (citations name datasources by slug). */
  datasources: Record<string, string>;
  /** Whether answers offer thumbs up/down with a comment (search analytics are recorded). */
  feedback: boolean;
}

function datasourceLabels(services: Services, email: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [name, ds] of indexingState(services).datasources)
    if (isRegistered(ds, email)) labels[name] = ds.record.display_name;
  return labels;
}

interface Choice {
  value: string;
  label: string;
}

function Select(props: { id: string; label: string; options: Choice[]; selected?: string }) {
  return (
    <div class="chat-option">
      <label for={props.id}>{props.label}</label>
      <select id={props.id}>
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === props.selected}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Options(props: {
  lang: Lang;
  models: Choice[];
  defaultModel: string;
  agents: Choice[];
  modes: WebSearchMode[];
  defaultMode: string;
}) {
  const { lang, modes } = props;
  return (
    <div class="chat-options" role="group" aria-label={t(lang, 'chat.options')}>
      <Select id="chat-model" label={t(lang, 'chat.model')} options={props.models} selected={props.defaultModel} />
      {props.agents.length > 0 && (
        <Select
          id="chat-agent"
          label={t(lang, 'chat.agent')}
          options={[{ value: '', label: t(lang, 'chat.noAgent') }, ...props.agents]}
        />
      )}
      <Select
        id="chat-language"
        label={t(lang, 'chat.language')}
        options={LANGUAGES.map((l) => ({ value: l, label: t(lang, `lang.${l}`) }))}
        selected={lang}
      />
      <fieldset class="chat-tools">
        <legend>{t(lang, 'chat.tools')}</legend>
        <label>
          <input type="checkbox" id="chat-internal" checked />
          {t(lang, 'chat.internalSearch')}
        </label>
        {modes.length > 0 ? (
          <label>
            <input type="checkbox" id="chat-web" />
            {t(lang, 'chat.webSearch')}
          </label>
        ) : (
          <p class="hint" id="chat-web-off">
            {t(lang, 'chat.webSearchOff')}
          </p>
        )}
      </fieldset>
      {modes.length > 0 && (
        <Select
          id="chat-web-mode"
          label={t(lang, 'chat.webSearchMode')}
          options={modes.map((m) => ({ value: m, label: t(lang, `chat.mode.${m}`) }))}
          selected={props.defaultMode}
        />
      )}
    </div>
  );
}

export function chatPageRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  const { config } = services;
  const catalog = new ModelCatalog(config.chat, 0);
  const modes = configuredModes(config.webSearch);
  const defaultMode = modes.includes(config.webSearch.defaultMode) ? config.webSearch.defaultMode : modes[0];

  const render = (c: Context<WebEnv>, conversationId: string | null) => {
    const lang = c.get('lang');
    const url = new URL(c.req.url);
    const models = catalog.list().map((m) => ({
      value: m.id,
      label: m.id === EXTRACTIVE_MODEL_ID ? t(lang, 'chat.modelExtractive') : m.id,
    }));
    const agents = listAgents(services).map((a) => ({ value: a.id, label: a.name }));
    const data: ChatPageData = {
      t: clientMessages(lang, Object.keys(chatEn) as MessageKey[]),
      conversationId,
      maxFileBytes: config.files.maxBytes,
      datasources: datasourceLabels(services, c.get('viewer')?.email ?? ''),
      feedback: (services.analytics?.mode ?? 'off') !== 'off',
    };
    return c.html(
      <Page
        lang={lang}
        title={t(lang, 'chat.title')}
        assets={assets}
        formToken={c.get('formToken')}
        viewer={c.get('viewer')}
        current="chat"
        scripts={['chat']}
        data={data}
        here={safeNext(url.pathname + url.search)}
      >
        <div class="chat">
          <nav class="chat-history" aria-labelledby="chat-history-title">
            <h2 id="chat-history-title">{t(lang, 'chat.history')}</h2>
            <button type="button" id="chat-new" class="primary">
              {t(lang, 'chat.new')}
            </button>
            <ul id="chat-history-list" class="chat-history-list"></ul>
            <p class="hint" id="chat-history-empty">
              {t(lang, 'chat.historyEmpty')}
            </p>
          </nav>
          <section class="chat-main" aria-labelledby="chat-title">
            <h1 id="chat-title">{t(lang, 'chat.title')}</h1>
            <div id="chat-log" class="chat-log" role="log" aria-labelledby="chat-title">
              <p class="hint chat-intro">{t(lang, 'chat.intro')}</p>
            </div>
            <form id="chat-composer" class="chat-composer" aria-label={t(lang, 'chat.prompt')}>
              <ul id="chat-attachments" class="chat-attachments" aria-label={t(lang, 'chat.attachments')}></ul>
              <label for="chat-prompt" class="visually-hidden">
                {t(lang, 'chat.prompt')}
              </label>
              <textarea id="chat-prompt" rows={3} placeholder={t(lang, 'chat.placeholder')} maxlength={100000} />
              <div class="chat-actions">
                <button type="button" id="chat-attach">
                  {t(lang, 'chat.attach')}
                </button>
                <input type="file" id="chat-file" multiple hidden />
                <span class="chat-spacer"></span>
                <button type="button" id="chat-stop" hidden>
                  {t(lang, 'chat.stop')}
                </button>
                <button type="submit" id="chat-send" class="primary">
                  {t(lang, 'chat.send')}
                </button>
              </div>
              <p class="hint" id="chat-composer-hint">
                {t(lang, 'chat.composerHint')}
              </p>
            </form>
            <Options
              lang={lang}
              models={models}
              defaultModel={catalog.defaultId}
              agents={agents}
              modes={modes}
              defaultMode={defaultMode ?? ''}
            />
            <p id="chat-status" class="hint chat-status" role="status"></p>
          </section>
          <aside id="chat-sources" class="chat-sources" aria-labelledby="chat-sources-title" tabindex={-1} hidden>
            <div class="chat-sources-head">
              <h2 id="chat-sources-title">{t(lang, 'chat.sources')}</h2>
              <button type="button" id="chat-sources-close" aria-label={t(lang, 'chat.sourcesClose')}>
                ×
              </button>
            </div>
            <ol id="chat-sources-list" class="chat-sources-list"></ol>
          </aside>
        </div>
      </Page>,
    );
  };

  app.get('/chat', (c) => render(c, null));
  app.get('/chat/:id', async (c) => {
    const id = c.req.param('id');
    const viewer = c.get('viewer');
    const store = services.conversations;
    const found = viewer && store && CONVERSATION_ID.test(id) ? await store.find(viewer.accountId, id) : undefined;
    if (!found) throw notFound(t(c.get('lang'), 'chat.notFound'));
    return render(c, id);
  });
  return app;
}
