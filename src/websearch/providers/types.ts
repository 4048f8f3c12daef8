/**
 * The provider interface behind the three modes: a web search (Brave web
 * search, SearXNG) returns ranked hits with snippets; a context provider
 * (Brave LLM context) returns grounded snippets per source. Adapters translate
 * their API into these shapes and fail only with ProviderError.
 */

/** One ranked search hit; text fields are plain text (markup stripped). */
export interface SearchHit {
  url: string;
  title: string;
  description: string;
  /** Additional excerpts of the page (Brave `extra_snippets`), when asked for. */
  extraSnippets: string[];
}

export interface SearchQuery {
  /** The query as sent, `site:` operators included. */
  query: string;
  /** Hits wanted (providers may cap it, e.g. Brave at 20). */
  count: number;
  /** Ask for additional excerpts per hit where the provider supports it. */
  extraSnippets: boolean;
}

/** Longest query a provider accepts (Brave: 400 characters, 50 words); none when omitted. */
export interface QueryLimits {
  chars: number;
  words: number;
}

export interface WebSearchProvider {
  /** Human-readable name used in error messages ("Brave Search", "SearXNG"). */
  readonly name: string;
  readonly queryLimits?: QueryLimits;
  search(query: SearchQuery, signal: AbortSignal): Promise<SearchHit[]>;
}

/** One grounded source of an LLM-context answer. */
export interface ContextSource {
  url: string;
  title: string;
  hostname: string;
  snippets: string[];
}

export interface ContextQuery {
  query: string;
  /** Search results the provider considers. */
  count: number;
  /** Approximate token budget of the returned context. */
  maxTokens: number;
}

export interface ContextProvider {
  readonly name: string;
  readonly queryLimits?: QueryLimits;
  context(query: ContextQuery, signal: AbortSignal): Promise<ContextSource[]>;
}

export type ProviderErrorCode = 'HTTP_STATUS' | 'TIMEOUT' | 'BAD_RESPONSE' | 'NETWORK';

/** A provider call failed; the message names the provider and the reason (answered as 502). */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
  ) {
    super(message);
  }
}
