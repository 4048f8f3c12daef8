/**
 * One-time sign-in links (domain functions, no HTTP): an administrator issues
 * a link for an account (valid LINK_TTL_MS, single use); the person opens it,
 * chooses a password and is signed in. Only the SHA-256 digest of the link's
 * token is stored. Issuing a new link leaves earlier ones valid until they
 * expire or are used; used and expired links are pruned as new ones are made.
 */
import { assertMayManage, findAccount, normalizeEmail, type Actor } from '../accounts/accounts.ts';
import { checkPasswordPolicy, hashPassword } from '../accounts/passwords.ts';
import { newId, newSecret, sha256, toHex } from '../accounts/secrets.ts';
import { accountsPart, commitAccounts, type AccountRecord } from '../accounts/state.ts';
import { badRequest, notFound } from '../errors.ts';
import { createSession, type SessionDeps, type SessionView, type SignInContext } from './sessions.ts';
import { commitSessions, sessionsPart, type SignInLinkRecord } from './state.ts';

export const LINK_TTL_MS = 24 * 60 * 60 * 1000;
const PRUNE_BATCH = 100;
const TOKEN = /^sil_[A-Za-z0-9_-]{43}$/;

const iso = (ms: number) => new Date(ms).toISOString();

export const LINK_INVALID = 'This sign-in link is not valid: it was used already, it expired, or it never existed';

export async function createSignInLink(
  deps: SessionDeps,
  email: string,
  actor: Actor,
  actorLabel: string,
): Promise<{ token: string; expires_at: string; email: string }> {
  const token = newSecret('sil_');
  const digest = toHex(await sha256(token));
  const account = findAccount(deps, email);
  if (!account) throw notFound(`No account with email ${normalizeEmail(email)}`);
  assertMayManage(actor, account.roles, 'Issuing a sign-in link for this account');
  const now = deps.now();
  const link: SignInLinkRecord = {
    id: newId('sil_'),
    digest,
    account_id: account.id,
    created_at: iso(now),
    expires_at: iso(now + LINK_TTL_MS),
    created_by: actorLabel,
    used_at: null,
  };
  const pruned: string[] = [];
  for (const l of deps.state.get(sessionsPart).links.values()) {
    if (pruned.length >= PRUNE_BATCH) break;
    if (l.used_at !== null || Date.parse(l.expires_at) <= now) pruned.push(l.id);
  }
  await commitSessions(deps.state, { type: 'sessions.link_created', link, pruned });
  return { token, expires_at: link.expires_at, email: account.email };
}

/** The link record and account behind a token while the link can still be used. */
async function usableLink(
  deps: SessionDeps,
  token: string,
): Promise<{ link: SignInLinkRecord; account: AccountRecord } | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const digest = toHex(await sha256(token));
  return linkByDigest(deps, digest);
}

function linkByDigest(deps: SessionDeps, digest: string) {
  const s = deps.state.get(sessionsPart);
  const id = s.linkByDigest.get(digest);
  const link = id === undefined ? undefined : s.links.get(id);
  if (!link || link.digest !== digest || link.used_at !== null) return undefined;
  if (Date.parse(link.expires_at) <= deps.now()) return undefined;
  const account = deps.state.get(accountsPart).accounts.get(link.account_id);
  return account ? { link, account } : undefined;
}

/** The email a usable link signs in (shown on the page that asks for the password); 404 otherwise. */
export async function peekSignInLink(deps: SessionDeps, token: string): Promise<{ email: string }> {
  const found = await usableLink(deps, token);
  if (!found) throw notFound(LINK_INVALID);
  return { email: found.account.email };
}

/**
 * Use a link: set the account's password and sign in. The link is marked used before the
 * password is set, with no await between the check and the commit, so two uses racing cannot
 * both succeed.
 */
export async function redeemSignInLink(
  deps: SessionDeps,
  token: string,
  password: string,
  ctx: Omit<SignInContext, 'method'>,
): Promise<{ token: string; session: SessionView; email: string }> {
  const refusal = checkPasswordPolicy(password);
  if (refusal !== undefined) throw badRequest(refusal);
  if (!TOKEN.test(token)) throw notFound(LINK_INVALID);
  const digest = toHex(await sha256(token));
  const hash = await hashPassword(password);
  const found = linkByDigest(deps, digest);
  if (!found) throw notFound(LINK_INVALID);
  const at = iso(deps.now());
  const used = commitSessions(deps.state, { type: 'sessions.link_used', id: found.link.id, at });
  const set = commitAccounts(deps.state, { type: 'accounts.password_set', id: found.account.id, hash, at });
  await Promise.all([used, set]);
  const signedIn = await createSession(deps, found.account, { ...ctx, method: 'link' });
  return { ...signedIn, email: found.account.email };
}
