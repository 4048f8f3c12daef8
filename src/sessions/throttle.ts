/**
 * Sign-in throttling: failed attempts are counted per account (the email
 * typed) and per client address in a sliding window. Past the limit, further
 * attempts for that key are refused until the oldest failure in the window
 * ages out, before any password is checked, so guessing costs the attacker
 * time and costs the server nothing. A successful sign-in clears the
 * account's count (not the address's: one address guessing many accounts
 * stays throttled).
 *
 * In memory, per process: a restart forgets the counts, which only ever
 * gives an attacker one more window. The maps are bounded (the oldest keys
 * go first), so a flood of distinct emails or addresses cannot grow memory.
 */

export interface ThrottleLimits {
  /** Failures allowed per account within `windowMs`. */
  perAccount: number;
  /** Failures allowed per client address within `windowMs`. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 };

const MAX_KEYS = 50_000;

class Window {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may try now. */
  waitMs(key: string, now: number): number {
    const times = this.recent(key, now);
    if (times.length < this.limit) return 0;
    return times[times.length - this.limit] + this.windowMs - now;
  }

  fail(key: string, now: number): void {
    const times = this.recent(key, now);
    times.push(now);
    if (times.length > this.limit) times.splice(0, times.length - this.limit);
    this.failures.delete(key);
    this.failures.set(key, times);
    if (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value!);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const times = (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (times.length === 0) this.failures.delete(key);
    return times;
  }
}

export class SignInThrottle {
  private readonly accounts: Window;
  private readonly addresses: Window;

  constructor(limits: ThrottleLimits = DEFAULT_THROTTLE) {
    this.accounts = new Window(limits.perAccount, limits.windowMs);
    this.addresses = new Window(limits.perAddress, limits.windowMs);
  }

  /** Milliseconds until this email from this address may try again (0: now). */
  waitMs(email: string, address: string, now: number): number {
    return Math.max(this.accounts.waitMs(email, now), this.addresses.waitMs(address, now));
  }

  failed(email: string, address: string, now: number): void {
    this.accounts.fail(email, now);
    this.addresses.fail(address, now);
  }

  succeeded(email: string): void {
    this.accounts.clear(email);
  }
}
