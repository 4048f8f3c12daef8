/**
 * The `accounts` state part: accounts with roles, API keys (personal and
 * service-account, stored as SHA-256 digests only), service accounts, and the
 * digest of a generated master key. Changed only through `accounts.<verb>`
 * events; `apply` trusts them (the domain functions in this folder validate
 * against the current state first) and keeps the lookup indexes
 * (email -> account, digest -> key).
 */
import type { StatePart, StateStore } from '../state/store.ts';
import type { Role } from './principal.ts';

export const ROLES = ['administrator', 'developer'] as const satisfies readonly Role[];

export interface AccountRecord {
  id: string;
  /** Trimmed and lowercased. */
  email: string;
  name: string | null;
  roles: Role[];
  created_at: string;
  /** scrypt hash for browser sign-in (passwords.ts); absent or null: no password set. Never shown. */
  password_hash?: string | null;
  /** When the password was last set (ISO). */
  password_set_at?: string | null;
  /** Counts password changes; a session made under an older count is no longer valid (src/sessions/sessions.ts). */
  password_version?: number;
}

export type KeyKind = 'personal' | 'service';

export interface KeyRecord {
  id: string;
  kind: KeyKind;
  /** Account id (personal) or service-account id (service). */
  owner_id: string;
  /** SHA-256 of the whole key string, lowercase hex. The secret itself is never stored. */
  digest: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface ServiceAccountRecord {
  id: string;
  name: string;
  key_id: string;
  /** Who created it: `master` or the creating account's email. */
  created_by: string;
  created_at: string;
}

export interface AccountsState {
  accounts: Map<string, AccountRecord>;
  accountByEmail: Map<string, string>;
  keys: Map<string, KeyRecord>;
  keyByDigest: Map<string, string>;
  serviceAccounts: Map<string, ServiceAccountRecord>;
  /** Digest of the generated master key (only when ADMIN_KEY was unset on first start). */
  masterKeyDigest: string | null;
}

export type AccountsEvent =
  | { type: 'accounts.account_created'; account: AccountRecord }
  | { type: 'accounts.account_deleted'; id: string; at: string }
  | { type: 'accounts.key_created'; key: KeyRecord }
  | { type: 'accounts.key_revoked'; id: string; at: string }
  | { type: 'accounts.key_expiry_set'; id: string; expires_at: string | null; at: string }
  | { type: 'accounts.service_account_created'; serviceAccount: ServiceAccountRecord; key: KeyRecord }
  | { type: 'accounts.master_key_generated'; digest: string; at: string }
  | { type: 'accounts.password_set'; id: string; hash: string; at: string }
  | { type: 'accounts.roles_set'; id: string; roles: Role[]; at: string };

interface AccountsJson {
  accounts: AccountRecord[];
  keys: KeyRecord[];
  serviceAccounts: ServiceAccountRecord[];
  masterKeyDigest: string | null;
}

function emptyState(): AccountsState {
  return {
    accounts: new Map(),
    accountByEmail: new Map(),
    keys: new Map(),
    keyByDigest: new Map(),
    serviceAccounts: new Map(),
    masterKeyDigest: null,
  };
}

function addKey(s: AccountsState, key: KeyRecord): void {
  s.keys.set(key.id, { ...key });
  s.keyByDigest.set(key.digest, key.id);
}

function revokeKey(s: AccountsState, id: string, at: string): void {
  const key = s.keys.get(id);
  if (key && key.revoked_at === null) key.revoked_at = at;
}

export const accountsPart: StatePart<AccountsState, AccountsEvent> = {
  name: 'accounts',
  create: emptyState,
  apply(s, e) {
    switch (e.type) {
      case 'accounts.account_created':
        s.accounts.set(e.account.id, { ...e.account, roles: [...e.account.roles] });
        s.accountByEmail.set(e.account.email, e.account.id);
        return;
      case 'accounts.account_deleted': {
        const account = s.accounts.get(e.id);
        if (!account) return;
        s.accounts.delete(e.id);
        s.accountByEmail.delete(account.email);
        for (const key of s.keys.values())
          if (key.kind === 'personal' && key.owner_id === e.id) revokeKey(s, key.id, e.at);
        return;
      }
      case 'accounts.key_created':
        addKey(s, e.key);
        return;
      case 'accounts.key_revoked':
        revokeKey(s, e.id, e.at);
        return;
      case 'accounts.key_expiry_set': {
        const key = s.keys.get(e.id);
        if (key) key.expires_at = e.expires_at;
        return;
      }
      case 'accounts.service_account_created':
        addKey(s, e.key);
        s.serviceAccounts.set(e.serviceAccount.id, { ...e.serviceAccount });
        return;
      case 'accounts.master_key_generated':
        s.masterKeyDigest = e.digest;
        return;
      case 'accounts.roles_set': {
        const account = s.accounts.get(e.id);
        if (account) account.roles = [...e.roles];
        return;
      }
      case 'accounts.password_set': {
        const account = s.accounts.get(e.id);
        if (account) {
          account.password_hash = e.hash;
          account.password_set_at = e.at;
          account.password_version = (account.password_version ?? 0) + 1;
        }
        return;
      }
    }
  },
  toJSON(s): AccountsJson {
    return {
      accounts: [...s.accounts.values()],
      keys: [...s.keys.values()],
      serviceAccounts: [...s.serviceAccounts.values()],
      masterKeyDigest: s.masterKeyDigest,
    };
  },
  fromJSON(json) {
    const j = json as Partial<AccountsJson>;
    const s = emptyState();
    for (const a of j.accounts ?? []) accountsPart.apply(s, { type: 'accounts.account_created', account: a });
    for (const k of j.keys ?? []) addKey(s, k);
    for (const sa of j.serviceAccounts ?? []) s.serviceAccounts.set(sa.id, { ...sa });
    s.masterKeyDigest = j.masterKeyDigest ?? null;
    return s;
  },
};

/** Commit a typed accounts event (see StateStore.commit for the contract). */
export function commitAccounts(state: StateStore, event: AccountsEvent): Promise<void> {
  return state.commit(event);
}
