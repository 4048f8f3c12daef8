/**
 * Accounts and their personal API keys (domain functions, no HTTP): create,
 * list and delete accounts; issue and revoke keys. Every function validates
 * against the current state and commits one event without awaiting in
 * between (the StateStore contract); it resolves once the event is durable.
 * Errors are ServiceErrors (404 unknown, 409 duplicate, 403 not allowed).
 *
 * No privilege escalation: an account caller (`Actor` with its roles) may
 * create, issue keys for, revoke keys of and delete only accounts whose roles
 * it holds itself; the master key (`'master'`) may act on any account.
 */
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { checkPasswordPolicy, hashPassword } from './passwords.ts';
import type { Role } from './principal.ts';
import type { StateStore } from '../state/store.ts';
import { KEY_PREFIX, newId, newSecret, sha256, toHex } from './secrets.ts';
import { accountsPart, commitAccounts, type AccountRecord, type KeyRecord } from './state.ts';

/** What the account and key functions need. */
export interface AccountsDeps {
  state: StateStore;
  /** Wall clock, epoch milliseconds. */
  now: () => number;
}

export interface KeyView {
  id: string;
  kind: 'personal' | 'service';
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface AccountView {
  id: string;
  email: string;
  name: string | null;
  roles: Role[];
  created_at: string;
  keys: KeyView[];
}

/** A newly issued key: the only time its secret is returned. */
export interface IssuedKey {
  id: string;
  key: string;
  expires_at: string | null;
}

/** Who acts: the master key, or an account with its roles. */
export type Actor = 'master' | { roles: readonly Role[] };

/** Throws 403 when `actor` is an account lacking one of `roles`. */
export function assertMayManage(actor: Actor, roles: readonly Role[], what: string): void {
  if (actor === 'master') return;
  const missing = roles.filter((r) => !actor.roles.includes(r));
  if (missing.length > 0) {
    throw forbidden(
      `${what} needs the ${missing.join(' and ')} role${missing.length > 1 ? 's' : ''} yourself (or the master key)`,
    );
  }
}

/** Trim and lowercase an email (the stored, compared form). */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

const iso = (ms: number) => new Date(ms).toISOString();

export function keyView(k: KeyRecord): KeyView {
  return { id: k.id, kind: k.kind, created_at: k.created_at, expires_at: k.expires_at, revoked_at: k.revoked_at };
}

/** Personal keys grouped by account id (one pass over all keys). */
function keysByAccount(deps: AccountsDeps): Map<string, KeyView[]> {
  const out = new Map<string, KeyView[]>();
  for (const k of deps.state.get(accountsPart).keys.values()) {
    if (k.kind !== 'personal') continue;
    let list = out.get(k.owner_id);
    if (!list) out.set(k.owner_id, (list = []));
    list.push(keyView(k));
  }
  return out;
}

function accountView(a: AccountRecord, keys: KeyView[]): AccountView {
  return { id: a.id, email: a.email, name: a.name, roles: [...a.roles], created_at: a.created_at, keys };
}

export function findAccount(deps: AccountsDeps, email: string): AccountRecord | undefined {
  const s = deps.state.get(accountsPart);
  const id = s.accountByEmail.get(normalizeEmail(email));
  return id === undefined ? undefined : s.accounts.get(id);
}

export async function createAccount(
  deps: AccountsDeps,
  input: { email: string; name?: string | null; roles?: readonly Role[] },
  actor: Actor,
): Promise<AccountView> {
  const email = normalizeEmail(input.email);
  const roles = (['administrator', 'developer'] as const).filter((r) => input.roles?.includes(r));
  assertMayManage(actor, roles, 'Creating an account with these roles');
  if (findAccount(deps, email)) throw conflict(`An account with email ${email} already exists`);
  const account: AccountRecord = {
    id: newId('acc_'),
    email,
    name: input.name ?? null,
    roles,
    created_at: iso(deps.now()),
  };
  await commitAccounts(deps.state, { type: 'accounts.account_created', account });
  return accountView(account, []);
}

/** Accounts ordered by email, each with its keys (never secrets). */
export function listAccounts(deps: AccountsDeps): AccountView[] {
  const keys = keysByAccount(deps);
  return [...deps.state.get(accountsPart).accounts.values()]
    .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0))
    .map((a) => accountView(a, keys.get(a.id) ?? []));
}

/** Delete an account and revoke every key it holds. */
export async function deleteAccount(
  deps: AccountsDeps,
  email: string,
  actor: Actor,
): Promise<{ email: string; revoked_keys: number }> {
  const account = findAccount(deps, email);
  if (!account) throw notFound(`No account with email ${normalizeEmail(email)}`);
  assertMayManage(actor, account.roles, 'Deleting this account');
  const live = [...deps.state.get(accountsPart).keys.values()].filter(
    (k) => k.kind === 'personal' && k.owner_id === account.id && k.revoked_at === null,
  ).length;
  await commitAccounts(deps.state, { type: 'accounts.account_deleted', id: account.id, at: iso(deps.now()) });
  return { email: account.email, revoked_keys: live };
}

/** Issue a personal key for an account; `expiresAt` (epoch ms) must be in the future (checked by the caller). */
export async function createPersonalKey(
  deps: AccountsDeps,
  email: string,
  expiresAt: number | null,
  actor: Actor,
): Promise<IssuedKey> {
  const key = newSecret(KEY_PREFIX.personal);
  const digest = toHex(await sha256(key));
  const account = findAccount(deps, email);
  if (!account) throw notFound(`No account with email ${normalizeEmail(email)}`);
  assertMayManage(actor, account.roles, 'Issuing a key for this account');
  const record: KeyRecord = {
    id: newId('key_'),
    kind: 'personal',
    owner_id: account.id,
    digest,
    created_at: iso(deps.now()),
    expires_at: expiresAt === null ? null : iso(expiresAt),
    revoked_at: null,
  };
  await commitAccounts(deps.state, { type: 'accounts.key_created', key: record });
  return { id: record.id, key, expires_at: record.expires_at };
}

/**
 * Revoke a key by id (idempotent: an already revoked key answers with its
 * first revocation time). Service-account keys need `mayRevokeServiceKeys`.
 */
export async function revokeKey(
  deps: AccountsDeps,
  id: string,
  opts: { mayRevokeServiceKeys: boolean; actor: Actor },
): Promise<KeyView> {
  const key = deps.state.get(accountsPart).keys.get(id);
  if (!key) throw notFound(`No key with id ${id}`);
  if (key.kind === 'service' && !opts.mayRevokeServiceKeys) {
    throw forbidden('Revoking a service-account key needs the master key or the administrator and developer roles');
  }
  if (key.kind === 'personal') {
    const owner = deps.state.get(accountsPart).accounts.get(key.owner_id);
    if (owner) assertMayManage(opts.actor, owner.roles, "Revoking this account's key");
  }
  if (key.revoked_at === null)
    await commitAccounts(deps.state, { type: 'accounts.key_revoked', id, at: iso(deps.now()) });
  return keyView(deps.state.get(accountsPart).keys.get(id)!);
}

/**
 * Set or clear (`null`) when a key expires; `expiresAt` (epoch ms) must be in the future (checked by
 * the caller). The same permissions as revoking it; a revoked key answers 409 (it cannot come back).
 */
export async function setKeyExpiry(
  deps: AccountsDeps,
  id: string,
  expiresAt: number | null,
  opts: { mayRevokeServiceKeys: boolean; actor: Actor },
): Promise<KeyView> {
  const key = deps.state.get(accountsPart).keys.get(id);
  if (!key) throw notFound(`No key with id ${id}`);
  if (key.kind === 'service' && !opts.mayRevokeServiceKeys) {
    throw forbidden(
      "Changing a service-account key's expiry needs the master key or the administrator and developer roles",
    );
  }
  if (key.kind === 'personal') {
    const owner = deps.state.get(accountsPart).accounts.get(key.owner_id);
    if (owner) assertMayManage(opts.actor, owner.roles, "Changing this account's key");
  }
  if (key.revoked_at !== null) throw conflict(`Key ${id} is revoked; issue a new key instead`);
  const expires_at = expiresAt === null ? null : iso(expiresAt);
  await commitAccounts(deps.state, { type: 'accounts.key_expiry_set', id, expires_at, at: iso(deps.now()) });
  return keyView(deps.state.get(accountsPart).keys.get(id)!);
}

/**
 * Set an account's password for browser sign-in (passwords.ts policy, 400 when refused). Every
 * session created before is ended by the rule in src/sessions/sessions.ts.
 */
export async function setPassword(
  deps: AccountsDeps,
  email: string,
  password: string,
  actor: Actor,
): Promise<{ email: string; password_set_at: string }> {
  const refusal = checkPasswordPolicy(password);
  if (refusal !== undefined) throw badRequest(refusal);
  const hash = await hashPassword(password);
  const account = findAccount(deps, email);
  if (!account) throw notFound(`No account with email ${normalizeEmail(email)}`);
  assertMayManage(actor, account.roles, "Setting this account's password");
  const at = iso(deps.now());
  await commitAccounts(deps.state, { type: 'accounts.password_set', id: account.id, hash, at });
  return { email: account.email, password_set_at: at };
}

/**
 * Set an account's roles. The actor must hold every role the account has now and every role it
 * gets (no escalation, and no demotion of someone with more rights than oneself).
 */
export async function setRoles(
  deps: AccountsDeps,
  email: string,
  roles: readonly Role[],
  actor: Actor,
): Promise<AccountView> {
  const account = findAccount(deps, email);
  if (!account) throw notFound(`No account with email ${normalizeEmail(email)}`);
  const next = (['administrator', 'developer'] as const).filter((r) => roles.includes(r));
  assertMayManage(actor, [...new Set([...account.roles, ...next])], "Changing this account's roles");
  if (next.length !== account.roles.length || next.some((r) => !account.roles.includes(r))) {
    await commitAccounts(deps.state, { type: 'accounts.roles_set', id: account.id, roles: next, at: iso(deps.now()) });
  }
  return listAccounts(deps).find((a) => a.id === account.id)!;
}
