/**
 * The service's Prometheus metrics (served by src/routes/metrics.ts): one
 * prom-client registry per process with the standard process and Node.js
 * families (resident memory, heap, event-loop delay from perf_hooks'
 * monitorEventLoopDelay) and ours, prefixed `enterprise_search_`.
 *
 * Figures arrive in two ways. Events are pushed through small hooks: request
 * durations (src/http/metrics.ts), search durations, engine commit and merge
 * events (the engine's event callback), LLM upstream calls and web-search
 * provider failures. State is read when scraped (src/metrics/scrape.ts): the
 * indexing queue, the pipeline's counters, the index's segments and size.
 *
 * Labels are bounded: routes are the registered route patterns, statuses and
 * outcomes come from small fixed sets, datasources are capped (scrape.ts).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EngineEvent } from '../../engine/index.ts';
import type { ProviderErrorCode } from '../websearch/providers/types.ts';

export const PREFIX = 'enterprise_search_';

/** Bucket bounds (seconds) for request, search and upstream durations. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Bucket bounds (seconds) for engine commits and merges (longer than requests). */
const ENGINE_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** How an LLM upstream call ended: a response with a 2xx status, any other status, or no response. */
export type UpstreamOutcome = 'ok' | 'http_error' | 'network_error';

export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly searchDuration: Histogram;
  readonly commitDuration: Histogram;
  readonly mergeDuration: Histogram;
  readonly flushDuration: Histogram;
  readonly engineErrors: Counter;
  readonly upstreamDuration: Histogram<'outcome'>;
  readonly upstreamErrors: Counter<'outcome'>;
  readonly webSearchErrors: Counter<'provider' | 'code'>;

  constructor(version: string) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: `${PREFIX}build_info`,
      help: 'The running version (value 1).',
      labelNames: ['version'],
      registers,
    }).set({ version }, 1);
    this.httpDuration = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by method, route pattern and status: duration until the response headers.',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.searchDuration = new Histogram({
      name: `${PREFIX}search_duration_seconds`,
      help: 'Searches (API and search page): time to run the query and build the results.',
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.commitDuration = new Histogram({
      name: `${PREFIX}index_commit_duration_seconds`,
      help: 'Index commits: duration.',
      buckets: ENGINE_BUCKETS,
      registers,
    });
    this.mergeDuration = new Histogram({
      name: `${PREFIX}index_merge_duration_seconds`,
      help: 'Segment merges (background and idle compaction): duration.',
      buckets: ENGINE_BUCKETS,
      registers,
    });
    this.flushDuration = new Histogram({
      name: `${PREFIX}index_flush_duration_seconds`,
      help: 'Segment flushes (the in-memory buffer written as a segment): duration.',
      buckets: ENGINE_BUCKETS,
      registers,
    });
    this.engineErrors = new Counter({
      name: `${PREFIX}index_errors_total`,
      help: 'Errors reported by the search engine in the background (periodic commits, merges).',
      registers,
    });
    this.upstreamDuration = new Histogram({
      name: `${PREFIX}llm_upstream_duration_seconds`,
      help: 'LLM upstream requests by outcome: time until the response headers (or the failure).',
      labelNames: ['outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.upstreamErrors = new Counter({
      name: `${PREFIX}llm_upstream_errors_total`,
      help: 'LLM upstream requests that failed: http_error (a non-2xx status) or network_error (no response).',
      labelNames: ['outcome'],
      registers,
    });
    this.webSearchErrors = new Counter({
      name: `${PREFIX}web_search_provider_errors_total`,
      help: 'Web-search provider calls that failed, by provider and code (HTTP_STATUS, TIMEOUT, BAD_RESPONSE, NETWORK).',
      labelNames: ['provider', 'code'],
      registers,
    });
  }

  /** The text exposition of every family (Prometheus text format 0.0.4). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** One request was answered (src/http/metrics.ts). */
  readonly requested = (labels: { method: string; route: string; status: string }, seconds: number): void =>
    this.httpDuration.observe(labels, seconds);

  /** One search took `ms` milliseconds. */
  readonly searched = (ms: number): void => this.searchDuration.observe(ms / 1000);

  /** The engine's event callback (engine/index.ts OpenIndexOptions.log). */
  readonly engineEvent = (e: EngineEvent): void => {
    if (e.type === 'commit') this.commitDuration.observe(e.ms / 1000);
    else if (e.type === 'merge') this.mergeDuration.observe(e.ms / 1000);
    else if (e.type === 'flush') this.flushDuration.observe(e.ms / 1000);
    else if (e.type === 'error') this.engineErrors.inc();
  };

  /** One LLM upstream request ended after `ms` milliseconds. */
  readonly upstreamCall = (ms: number, outcome: UpstreamOutcome): void => {
    this.upstreamDuration.observe({ outcome }, ms / 1000);
    if (outcome !== 'ok') this.upstreamErrors.inc({ outcome });
  };

  /** A web-search provider call failed. */
  readonly webSearchFailed = (provider: string, code: ProviderErrorCode): void => {
    this.webSearchErrors.inc({ provider, code });
  };
}
