/**
 * Waiting in tests without guessing durations: `within` bounds a wait on an
 * event with a deadline (a failure, not a pause), `waitFor` polls a condition
 * until it holds or the deadline passes, and `nextTurn` lets every callback
 * already due run (one turn of the event loop) before a test checks that
 * something has not happened.
 */

/** `promise`, or a rejection naming `what` once `ms` have passed without it settling. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once `cond()` holds (checked every few ms); rejects naming `what` after `timeoutMs`. */
export async function waitFor(cond: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** One turn of the event loop: pending promise callbacks and due immediates run first. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
