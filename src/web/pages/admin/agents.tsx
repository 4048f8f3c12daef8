/**
 * Dashboard, chat agents (`/admin/agents`): the agents as `GET
 * /api/admin/agents` lists them, each with a form that changes it (`PATCH
 * /api/admin/agents/{id}`) and one that deletes it, and a form that creates
 * one (`POST /api/admin/agents`). The model list is the chat API's (the
 * server's model catalogue); an empty model means the request's or the
 * default; an empty datasource list means every datasource the person may see.
 */
import { Hono } from 'hono';
import { listAgents } from '../../../agents/agents.ts';
import type { AgentRecord } from '../../../agents/state.ts';
import { AGENT_TOOLS } from '../../../agents/schemas.ts';
import { ModelCatalog } from '../../../chat/models.ts';
import type { Services } from '../../../services.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { seg } from './format.ts';
import { ApiForm, Checkboxes, Field, Submit, TextArea } from './forms.tsx';
import { adminPage } from './shell.tsx';

interface FieldsProps {
  lang: Lang;
  /** Prefix of the element ids (one per form). */
  id: string;
  agent?: AgentRecord;
  models: string[];
}

function AgentFields({ lang, id, agent, models }: FieldsProps) {
  const tools = AGENT_TOOLS.map((tool) => ({ value: tool, label: tool }));
  return (
    <>
      <Field id={`${id}-name`} name="name" label={t(lang, 'admin.agent.name')} value={agent?.name} required />
      <Field
        id={`${id}-desc`}
        name="description"
        label={t(lang, 'admin.agent.description')}
        value={agent?.description}
      />
      <div class="field">
        <label for={`${id}-model`}>{t(lang, 'admin.agent.model')}</label>
        <select id={`${id}-model`} name="model" data-kind="nullable">
          <option value="">{t(lang, 'admin.agent.defaultModel')}</option>
          {models.map((m) => (
            <option value={m} selected={agent?.model === m}>
              {m}
            </option>
          ))}
        </select>
      </div>
      <Checkboxes
        idPrefix={`${id}-tool`}
        legend={t(lang, 'admin.agent.tools')}
        name="tools"
        options={tools}
        checked={agent?.tools ?? ['serviceSearch']}
      />
      <Field
        id={`${id}-ds`}
        name="datasources"
        kind="csv"
        label={t(lang, 'admin.agent.datasources')}
        value={agent?.datasources?.join(', ') ?? ''}
        hint={t(lang, 'admin.agent.datasourcesHint')}
      />
      <TextArea
        id={`${id}-instr`}
        name="instructions"
        label={t(lang, 'admin.agent.instructions')}
        value={agent?.instructions}
        rows={4}
      />
    </>
  );
}

export function agentsRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  const models = new ModelCatalog(services.config.chat, 0).list().map((m) => m.id);
  app.get('/admin/agents', (c) => {
    const lang = c.get('lang');
    const agents = listAgents(services);
    return adminPage(c, assets, {
      section: 'agents',
      title: t(lang, 'admin.nav.agents'),
      intro: t(lang, 'admin.agent.intro'),
      children: (
        <>
          {agents.length === 0 && <p>{t(lang, 'admin.agent.none')}</p>}
          {agents.map((agent, i) => (
            <article class="card agent" aria-labelledby={`agent-${i}`}>
              <h2 id={`agent-${i}`}>{agent.name}</h2>
              {agent.description && <p>{agent.description}</p>}
              <p class="hint">
                {t(lang, 'admin.agent.summary', {
                  model: agent.model ?? t(lang, 'admin.agent.defaultModel'),
                  tools: agent.tools.join(', ') || '–',
                  datasources: agent.datasources?.join(', ') ?? t(lang, 'admin.agent.allDatasources'),
                })}
              </p>
              <details>
                <summary>{t(lang, 'admin.agent.edit', { name: agent.name })}</summary>
                <ApiForm
                  lang={lang}
                  method="PATCH"
                  path={`/api/admin/agents/${seg(agent.id)}`}
                  label={t(lang, 'admin.agent.edit', { name: agent.name })}
                  done={t(lang, 'admin.saved')}
                >
                  <AgentFields lang={lang} id={`a${i}`} agent={agent} models={models} />
                  <Submit label={t(lang, 'admin.save')} />
                </ApiForm>
              </details>
              <ApiForm
                lang={lang}
                method="DELETE"
                path={`/api/admin/agents/${seg(agent.id)}`}
                label={t(lang, 'admin.agent.delete', { name: agent.name })}
                confirm={t(lang, 'admin.agent.confirm', { name: agent.name })}
                done={t(lang, 'admin.deleted')}
                class="tiny"
              >
                <Submit
                  danger
                  label={t(lang, 'admin.delete')}
                  ariaLabel={t(lang, 'admin.agent.delete', { name: agent.name })}
                />
              </ApiForm>
            </article>
          ))}
          <section aria-labelledby="agent-new">
            <h2 id="agent-new">{t(lang, 'admin.agent.create')}</h2>
            <ApiForm
              lang={lang}
              method="POST"
              path="/api/admin/agents"
              label={t(lang, 'admin.agent.create')}
              done={t(lang, 'admin.agent.created')}
            >
              <AgentFields lang={lang} id="new" models={models} />
              <Submit label={t(lang, 'admin.agent.create')} />
            </ApiForm>
          </section>
        </>
      ),
    });
  });
  return app;
}
