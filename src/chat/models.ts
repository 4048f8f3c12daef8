/**
 * The models a server offers: every id of LLM_MODELS served by the configured
 * upstream, and always the embedded `extractive` model. The default model
 * (used when a request or agent names none) is the first upstream model, or
 * `extractive` when no upstream is configured.
 */
import type { Config } from '../config.ts';
import { EXTRACTIVE_MODEL_ID, extractiveModel } from './extractive.ts';
import type { ChatModel } from './types.ts';
import { upstreamModel } from './upstream.ts';

export interface ModelRecord {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

export class ModelCatalog {
  private readonly models = new Map<string, ChatModel>();
  readonly defaultId: string;

  constructor(
    config: Config['chat'],
    private readonly created: number,
    doFetch?: typeof fetch,
  ) {
    if (config.llmBaseUrl) {
      for (const id of config.llmModels) {
        this.models.set(
          id,
          upstreamModel(id, {
            baseUrl: config.llmBaseUrl,
            apiKey: config.llmApiKey,
            timeoutMs: config.llmTimeoutMs,
            fetch: doFetch,
          }),
        );
      }
    }
    if (!this.models.has(EXTRACTIVE_MODEL_ID)) this.models.set(EXTRACTIVE_MODEL_ID, extractiveModel());
    this.defaultId = this.models.keys().next().value as string;
  }

  get(id: string): ChatModel | undefined {
    return this.models.get(id);
  }

  record(model: ChatModel): ModelRecord {
    return { id: model.id, object: 'model', created: this.created, owned_by: model.ownedBy };
  }

  list(): ModelRecord[] {
    return [...this.models.values()].map((m) => this.record(m));
  }
}
