/**
 * Sign-in with email and password (domain function, no HTTP). The one place
 * a password is checked: throttled per account and per address before the
 * check (throttle.ts), timed the same for unknown accounts and accounts
 * without a password (a decoy hash is verified), and answered with one
 * message for every failure, so the answer never tells whether an account
 * exists. Success creates a session (sessions.ts).
 */
import { findAccount, normalizeEmail } from '../accounts/accounts.ts';
import { decoyHash, PASSWORD_MAX_CHARS, verifyPassword } from '../accounts/passwords.ts';
import { tooManyRequests, unauthorized } from '../errors.ts';
import { createSession, type SessionDeps, type SessionView } from './sessions.ts';
import type { SignInThrottle } from './throttle.ts';

export interface SignInDeps extends SessionDeps {
  throttle: SignInThrottle;
}

export interface PasswordSignIn {
  email: string;
  password: string;
  address: string;
  userAgent: string;
}

export const WRONG_CREDENTIALS = 'Wrong email or password';

export async function signInWithPassword(
  deps: SignInDeps,
  input: PasswordSignIn,
): Promise<{ token: string; session: SessionView }> {
  const email = normalizeEmail(input.email).slice(0, 320);
  const wait = deps.throttle.waitMs(email, input.address, deps.now());
  if (wait > 0) throw tooManyRequests('Too many failed sign-ins; try again later', wait / 1000);
  const account = findAccount(deps, email);
  const stored = account?.password_hash ?? (await decoyHash());
  const ok = [...input.password].length <= PASSWORD_MAX_CHARS && (await verifyPassword(input.password, stored));
  // Re-read after the await: the account may have been deleted or its password changed meanwhile.
  const current = findAccount(deps, email);
  if (!ok || !account || !current || current.id !== account.id || current.password_hash !== stored) {
    deps.throttle.failed(email, input.address, deps.now());
    throw unauthorized(WRONG_CREDENTIALS);
  }
  deps.throttle.succeeded(email);
  return createSession(deps, current, { method: 'password', address: input.address, userAgent: input.userAgent });
}
