/**
 * A scoped abort signal: aborted when any parent aborts or after `timeoutMs`;
 * `dispose()` clears the timer and detaches from the parents, so per-page and
 * per-request signals leave nothing behind (no lingering timers or listeners).
 */
export interface Scope {
  signal: AbortSignal;
  dispose(): void;
}

export function abortScope(parents: (AbortSignal | undefined)[], timeoutMs?: number): Scope {
  const ctl = new AbortController();
  const live = parents.filter((p): p is AbortSignal => p !== undefined);
  const onAbort = () => ctl.abort();
  for (const p of live) {
    if (p.aborted) ctl.abort();
    else p.addEventListener('abort', onAbort, { once: true });
  }
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => ctl.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
  return {
    signal: ctl.signal,
    dispose() {
      if (timer) clearTimeout(timer);
      for (const p of live) p.removeEventListener('abort', onAbort);
    },
  };
}
