/**
 * Authentication (no HTTP framework): turn an `Authorization` header value
 * into a Principal, or throw a 401 ServiceError. The presented key is hashed
 * with SHA-256; the master key digest is compared in constant time, then the
 * key is looked up by digest and the stored digest compared in constant time
 * again. Revoked and expired keys are rejected. Keys are never logged.
 *
 * The digests of keys that authenticated successfully are kept in a small
 * bounded map (key -> digest), so a client's repeated requests do not pay a
 * Web Crypto call each: only the hashing is skipped, every check above (the
 * constant-time comparisons, revocation, expiry, owner) runs on every request.
 * Keys that fail are not kept (and are dropped when kept), so unknown keys
 * cannot fill the map.
 */
import type { AccountsDeps } from '../accounts/accounts.ts';
import { masterKeyDigest, type MasterKeyDeps } from '../accounts/master.ts';
import { constantTimeEqual, fromHex, sha256, toHex } from '../accounts/secrets.ts';
import { accountsPart } from '../accounts/state.ts';
import { unauthorized } from '../errors.ts';
import type { Principal } from '../accounts/principal.ts';

export type AuthDeps = MasterKeyDeps & AccountsDeps;

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Keys whose digest is kept (least recently verified dropped first). */
const VERIFIED_DIGESTS = 256;
const verified = new Map<string, Uint8Array>();

/** The key's SHA-256 digest: from the map when the key authenticated before, else hashed. */
function keyDigest(token: string): Uint8Array | Promise<Uint8Array> {
  const known = verified.get(token);
  if (known === undefined) return sha256(token);
  // Re-insert: the map's order is then least recently verified first.
  verified.delete(token);
  verified.set(token, known);
  return known;
}

function rememberVerified(token: string, digest: Uint8Array): void {
  if (verified.has(token)) return;
  if (verified.size >= VERIFIED_DIGESTS) verified.delete(verified.keys().next().value!);
  verified.set(token, digest);
}

/** The token of a well-formed `Bearer` header; throws 401 otherwise. */
export function bearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw unauthorized('Not authenticated');
  const m = BEARER.exec(header.trim());
  if (!m) throw unauthorized("Invalid Authorization header: expected 'Bearer <API key>'");
  return m[1];
}

export async function authenticate(deps: AuthDeps, header: string | undefined): Promise<Principal> {
  const token = bearerToken(header);
  const digest = await keyDigest(token);
  let principal: Principal;
  try {
    principal = await verify(deps, digest);
  } catch (err) {
    verified.delete(token); // revoked, expired or deleted since: no longer kept
    throw err;
  }
  rememberVerified(token, digest);
  return principal;
}

async function verify(deps: AuthDeps, digest: Uint8Array): Promise<Principal> {
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
