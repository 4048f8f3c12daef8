/**
 * Service accounts (domain functions, no HTTP): each has a unique name and one
 * `svcsa_` key, the only kind of key the Indexing API accepts. The secret is
 * returned once by `createServiceAccount`; listings never include it.
 */
import { conflict } from '../errors.ts';
import type { AccountsDeps } from './accounts.ts';
import { KEY_PREFIX, newId, newSecret, sha256, toHex } from './secrets.ts';
import { accountsPart, commitAccounts, type KeyRecord, type ServiceAccountRecord } from './state.ts';

export interface ServiceAccountView {
  id: string;
  name: string;
  key_id: string;
  created_by: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface CreatedServiceAccount {
  id: string;
  name: string;
  /** The secret, shown only in this response. */
  key: string;
  key_id: string;
  expires_at: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Create a service account and its key; `expiresAt` (epoch ms) is checked to be in the future by the caller. */
export async function createServiceAccount(
  deps: AccountsDeps,
  input: { name: string; expiresAt: number | null; createdBy: string },
): Promise<CreatedServiceAccount> {
  const secret = newSecret(KEY_PREFIX.service);
  const digest = toHex(await sha256(secret));
  const name = input.name.trim();
  const s = deps.state.get(accountsPart);
  for (const sa of s.serviceAccounts.values()) {
    if (sa.name.toLowerCase() === name.toLowerCase()) throw conflict(`A service account named ${name} already exists`);
  }
  const created_at = iso(deps.now());
  const id = newId('sa_');
  const key: KeyRecord = {
    id: newId('key_'),
    kind: 'service',
    owner_id: id,
    digest,
    created_at,
    expires_at: input.expiresAt === null ? null : iso(input.expiresAt),
    revoked_at: null,
  };
  const serviceAccount: ServiceAccountRecord = { id, name, key_id: key.id, created_by: input.createdBy, created_at };
  await commitAccounts(deps.state, { type: 'accounts.service_account_created', serviceAccount, key });
  return { id, name, key: secret, key_id: key.id, expires_at: key.expires_at };
}

/** Service accounts ordered by creation, without secrets. */
export function listServiceAccounts(deps: AccountsDeps): ServiceAccountView[] {
  const s = deps.state.get(accountsPart);
  return [...s.serviceAccounts.values()]
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0))
    .map((sa) => {
      const key = s.keys.get(sa.key_id);
      return {
        id: sa.id,
        name: sa.name,
        key_id: sa.key_id,
        created_by: sa.created_by,
        created_at: sa.created_at,
        expires_at: key?.expires_at ?? null,
        revoked_at: key?.revoked_at ?? null,
      };
    });
}
