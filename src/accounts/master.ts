/**
 * The operator's master key. With ADMIN_KEY set, its SHA-256 digest is
 * computed once and kept in memory only (the state never sees it). Without
 * ADMIN_KEY, the first start generates a key, stores only its digest in the
 * state and hands the key back once so main.ts can print it; later starts
 * find the digest and generate nothing. ADMIN_KEY, when set, takes precedence
 * over a stored digest (and is the way back in if a generated key is lost).
 */
import type { Config } from '../config.ts';
import type { AccountsDeps } from './accounts.ts';
import { KEY_PREFIX, fromHex, newSecret, sha256, toHex } from './secrets.ts';
import { accountsPart, commitAccounts } from './state.ts';

export interface MasterKeyDeps extends AccountsDeps {
  config: Pick<Config, 'adminKey'>;
}

const configured = new Map<string, Promise<Uint8Array>>();

/** The digest the master key must match, or undefined when there is none (yet). */
export function masterKeyDigest(deps: Pick<MasterKeyDeps, 'config' | 'state'>): Promise<Uint8Array | undefined> {
  const adminKey = deps.config.adminKey;
  if (adminKey !== undefined) {
    let digest = configured.get(adminKey);
    if (!digest) {
      digest = sha256(adminKey);
      configured.clear();
      configured.set(adminKey, digest);
    }
    return digest;
  }
  const stored = deps.state.get(accountsPart).masterKeyDigest;
  return Promise.resolve(stored === null ? undefined : fromHex(stored));
}

/**
 * Make sure a master key exists. Returns the new key when one was generated
 * now (the caller prints it once); undefined when ADMIN_KEY is set or a
 * generated key's digest is already stored. Resolves after the digest is durable.
 */
export async function ensureMasterKey(deps: MasterKeyDeps): Promise<string | undefined> {
  if (deps.config.adminKey !== undefined) return undefined;
  const key = newSecret(KEY_PREFIX.master);
  const digest = toHex(await sha256(key));
  if (deps.state.get(accountsPart).masterKeyDigest !== null) return undefined;
  await commitAccounts(deps.state, {
    type: 'accounts.master_key_generated',
    digest,
    at: new Date(deps.now()).toISOString(),
  });
  return key;
}

/** The banner that shows a generated master key; the only place a secret is ever printed. */
export function masterKeyBanner(key: string): string {
  const rule = '='.repeat(78);
  return [
    rule,
    '  MASTER KEY GENERATED (ADMIN_KEY is not set). It is shown only this once;',
    '  only its SHA-256 digest is stored. Keep it safe:',
    '',
    `      ${key}`,
    '',
    '  Use it as "Authorization: Bearer <key>" on /api/admin/*. If it is lost,',
    '  start the server with ADMIN_KEY=<a new secret of 16+ characters>.',
    rule,
    '',
  ].join('\n');
}
