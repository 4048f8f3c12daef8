/**
 * Browser sessions (domain functions, no HTTP): create one for an account
 * whose identity was proven (password, sign-in link, or a later single
 * sign-on method), resolve a cookie token to its account, end one, end all of
 * an account's, list them.
 *
 * Contract:
 * - The token is 32 random bytes (`ses_` + base64url), given to the browser
 *   once; only its SHA-256 digest is stored.
 * - A session is valid while its account exists, it is younger than the
 *   absolute lifetime (`maxMs`), its last request is within the idle timeout
 *   (`idleMs`), and the account's password has not changed since (setting a
 *   password ends every older session).
 * - Activity is recorded at most once per TOUCH_EVERY_MS per session, so idle
 *   expiry is exact to that granularity.
 * - An account keeps at most MAX_PER_ACCOUNT sessions (the oldest are ended);
 *   creating a session also prunes up to PRUNE_BATCH expired sessions of anyone.
 */
import { newId, newSecret, sha256, toHex } from '../accounts/secrets.ts';
import { accountsPart, type AccountRecord } from '../accounts/state.ts';
import type { StateStore } from '../state/store.ts';
import { commitSessions, sessionsPart, type SessionRecord, type SignInMethod } from './state.ts';

export interface SessionPolicy {
  /** Idle timeout: a session unused this long ends. */
  idleMs: number;
  /** Absolute lifetime from sign-in. */
  maxMs: number;
}

export interface SessionDeps {
  state: StateStore;
  now: () => number;
  sessions: SessionPolicy;
}

/** Who signs in, and from where (shown to administrators; never secret). */
export interface SignInContext {
  method: SignInMethod;
  address: string;
  userAgent: string;
}

export interface SessionView {
  id: string;
  method: SignInMethod;
  created_at: string;
  seen_at: string;
  expires_at: string;
  address: string;
  user_agent: string;
}

export const TOUCH_EVERY_MS = 60_000;
export const MAX_PER_ACCOUNT = 20;
const PRUNE_BATCH = 100;
const USER_AGENT_CHARS = 256;

const iso = (ms: number) => new Date(ms).toISOString();

export function sessionView(s: SessionRecord): SessionView {
  const { id, method, created_at, seen_at, expires_at, address, user_agent } = s;
  return { id, method, created_at, seen_at, expires_at, address, user_agent };
}

/** Why a stored session no longer counts, or undefined while it is valid. */
function expiredReason(deps: SessionDeps, s: SessionRecord, account: AccountRecord | undefined): string | undefined {
  const now = deps.now();
  if (!account) return 'account deleted';
  if (Date.parse(s.expires_at) <= now) return 'expired';
  if (Date.parse(s.seen_at) + deps.sessions.idleMs <= now) return 'idle';
  if ((account.password_version ?? 0) !== s.password_version) return 'password changed';
  return undefined;
}

function expiredIds(deps: SessionDeps, limit: number): string[] {
  const accounts = deps.state.get(accountsPart).accounts;
  const out: string[] = [];
  for (const s of deps.state.get(sessionsPart).sessions.values()) {
    if (out.length >= limit) break;
    if (expiredReason(deps, s, accounts.get(s.account_id)) !== undefined) out.push(s.id);
  }
  return out;
}

/** Create a session for `account`; returns the cookie token (shown once) and the record. */
export async function createSession(
  deps: SessionDeps,
  account: AccountRecord,
  ctx: SignInContext,
): Promise<{ token: string; session: SessionView }> {
  const token = newSecret('ses_');
  const digest = toHex(await sha256(token));
  const now = deps.now();
  const session: SessionRecord = {
    id: newId('ses_'),
    digest,
    account_id: account.id,
    password_version: account.password_version ?? 0,
    method: ctx.method,
    created_at: iso(now),
    seen_at: iso(now),
    expires_at: iso(now + deps.sessions.maxMs),
    address: ctx.address.slice(0, 64),
    user_agent: ctx.userAgent.slice(0, USER_AGENT_CHARS),
  };
  const pruned = new Set(expiredIds(deps, PRUNE_BATCH));
  const own = [...deps.state.get(sessionsPart).sessions.values()]
    .filter((s) => s.account_id === account.id && !pruned.has(s.id))
    .sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
  for (const s of own.slice(0, Math.max(0, own.length - (MAX_PER_ACCOUNT - 1)))) pruned.add(s.id);
  await commitSessions(deps.state, { type: 'sessions.created', session, pruned: [...pruned] });
  return { token, session: sessionView(session) };
}

export interface ResolvedSession {
  session: SessionRecord;
  account: AccountRecord;
}

/** The valid session and account behind a cookie token, or undefined; records activity. */
export async function resolveSession(deps: SessionDeps, token: string): Promise<ResolvedSession | undefined> {
  if (!/^ses_[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const digest = toHex(await sha256(token));
  const state = deps.state.get(sessionsPart);
  const id = state.sessionByDigest.get(digest);
  const session = id === undefined ? undefined : state.sessions.get(id);
  if (!session || session.digest !== digest) return undefined;
  const account = deps.state.get(accountsPart).accounts.get(session.account_id);
  if (expiredReason(deps, session, account) !== undefined || !account) return undefined;
  const now = deps.now();
  if (now - Date.parse(session.seen_at) >= TOUCH_EVERY_MS) {
    await commitSessions(deps.state, { type: 'sessions.seen', id: session.id, at: iso(now) });
  }
  return { session, account };
}

/** End one session by its cookie token (sign-out); unknown tokens end nothing. */
export async function endSessionByToken(deps: SessionDeps, token: string): Promise<boolean> {
  const digest = toHex(await sha256(token));
  const id = deps.state.get(sessionsPart).sessionByDigest.get(digest);
  if (id === undefined) return false;
  await commitSessions(deps.state, { type: 'sessions.ended', ids: [id], at: iso(deps.now()) });
  return true;
}

/** End every session of an account; returns how many were live. */
export async function endSessionsOf(deps: SessionDeps, accountId: string): Promise<number> {
  const ids = [...deps.state.get(sessionsPart).sessions.values()]
    .filter((s) => s.account_id === accountId)
    .map((s) => s.id);
  if (ids.length > 0) await commitSessions(deps.state, { type: 'sessions.ended', ids, at: iso(deps.now()) });
  return ids.length;
}

/** The valid sessions of an account, newest first. */
export function listSessions(deps: SessionDeps, accountId: string): SessionView[] {
  const account = deps.state.get(accountsPart).accounts.get(accountId);
  return [...deps.state.get(sessionsPart).sessions.values()]
    .filter((s) => s.account_id === accountId && expiredReason(deps, s, account) === undefined)
    .sort((a, b) => (a.created_at < b.created_at ? 1 : -1))
    .map(sessionView);
}
