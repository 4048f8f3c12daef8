/**
 * Load generation for the HTTP benchmarks: autocannon (a bench-only dependency)
 * keeps `connections` keep-alive connections busy for `seconds`, each request's
 * path taken from `nextPath()`. Its HTTP client costs a fraction of fetch's CPU,
 * which matters when the load generator shares the machine's cores with the
 * server. Latencies are autocannon's (whole milliseconds, from its histogram).
 */
import autocannon from 'autocannon';

export interface LoadOptions {
  /** Origin, e.g. http://127.0.0.1:3000 */
  base: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  nextPath: () => string;
}

export interface LoadResult {
  requests: number;
  /** Responses outside 2xx, socket errors, timeouts (all must be 0 for a valid run). */
  failures: number;
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
}

interface AutocannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p99: number };
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const t0 = performance.now();
  const r = await (autocannon as unknown as (opts: object) => Promise<AutocannonResult>)({
    url: o.base,
    connections: o.connections,
    duration: o.seconds,
    headers: o.headers,
    requests: [{ method: 'GET', setupRequest: (req: object) => ({ ...req, path: o.nextPath() }) }],
  });
  const elapsed = (performance.now() - t0) / 1000;
  const requests = r['2xx'] + r.non2xx;
  return {
    requests,
    failures: r.non2xx + r.errors + r.timeouts,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    perSecond: r['2xx'] / elapsed,
  };
}
