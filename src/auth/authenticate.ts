/**
 * Authentication (no HTTP framework): turn an `Authorization` header value
 * into a Principal, or throw a 401 ServiceError. The presented key is hashed
 * with SHA-256; the master key digest is compared in constant time, then the
 * key is looked up by digest and the stored digest compared in constant time
 * again. Revoked and expired keys are rejected. Keys are never logged.
 */
import type { AccountsDeps } from '../accounts/accounts.ts';
import { masterKeyDigest, type MasterKeyDeps } from '../accounts/master.ts';
import { constantTimeEqual, fromHex, sha256, toHex } from '../accounts/secrets.ts';
import { accountsPart } from '../accounts/state.ts';
import { unauthorized } from '../errors.ts';
import type { Principal } from '../http/env.ts';

export type AuthDeps = MasterKeyDeps & AccountsDeps;

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of a well-formed `Bearer` header; throws 401 otherwise. */
export function bearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw unauthorized('Not authenticated');
  const m = BEARER.exec(header.trim());
  if (!m) throw unauthorized("Invalid Authorization header: expected 'Bearer <API key>'");
  return m[1];
}

export async function authenticate(deps: AuthDeps, header: string | undefined): Promise<Principal> {
  const token = bearerToken(header);
  const digest = await sha256(token);
  const master = await masterKeyDigest(deps);
  if (master && constantTimeEqual(digest, master)) return { kind: 'master' };

  const s = deps.state.get(accountsPart);
  const keyId = s.keyByDigest.get(toHex(digest));
  const key = keyId === undefined ? undefined : s.keys.get(keyId);
  const stored = key ? fromHex(key.digest) : undefined;
  if (!key || !stored || !constantTimeEqual(digest, stored)) throw unauthorized('Invalid API key');
  if (key.revoked_at !== null) throw unauthorized('API key has been revoked');
  if (key.expires_at !== null && Date.parse(key.expires_at) <= deps.now()) throw unauthorized('API key has expired');

  if (key.kind === 'service') {
    const sa = s.serviceAccounts.get(key.owner_id);
    if (!sa) throw unauthorized('Invalid API key');
    return { kind: 'service_account', serviceAccountId: sa.id, name: sa.name, keyId: key.id };
  }
  const account = s.accounts.get(key.owner_id);
  if (!account) throw unauthorized('API key has been revoked');
  return { kind: 'account', accountId: account.id, email: account.email, roles: [...account.roles], keyId: key.id };
}
