/**
 * Connector credentials at rest: sealed with AES-256-GCM (Web Crypto) under a key derived
 * from the operator secret CONNECTOR_SECRET with scrypt (N = 2^15, r = 8, p = 1; a random
 * 16-byte salt per sealing, so the secret may be a passphrase). The connector id is the
 * additional authenticated data: a sealed value copied to another connector does not open.
 * The state keeps only the sealed form and the names of the credential fields (for the
 * masked view); plaintext exists only in memory while a run uses it.
 *
 * Errors are CredentialsError with a message naming the setting, never a value.
 */
import { scrypt } from 'node:crypto';

export interface SealedCredentials {
  v: 1;
  /** Base64 of the scrypt salt, the GCM nonce and the ciphertext with its tag. */
  salt: string;
  iv: string;
  data: string;
}

export class CredentialsError extends Error {
  override name = 'CredentialsError';
}

const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
/** Derived keys by secret and salt (a run of every connector derives each key once). */
const keys = new Map<string, Promise<CryptoKey>>();
const MAX_KEYS = 256;

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const unb64 = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(text, 'base64'));

function deriveKey(secret: string, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const id = `${b64(salt)}\u0000${secret}`;
  let key = keys.get(id);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) =>
      scrypt(secret, salt, 32, SCRYPT, (err, derived) => (err ? reject(err) : resolve(new Uint8Array(derived)))),
    ).then((raw) => crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']));
    keys.set(id, key);
  }
  return key;
}

function requireSecret(secret: string | undefined): string {
  if (!secret)
    throw new CredentialsError(
      'CONNECTOR_SECRET is not set: connector credentials are stored only encrypted; set CONNECTOR_SECRET (at least 16 characters) and restart',
    );
  return secret;
}

/** Seal `credentials` (a JSON object) for connector `connectorId`. */
export async function sealCredentials(
  secret: string | undefined,
  connectorId: string,
  credentials: Record<string, unknown>,
): Promise<SealedCredentials> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await deriveKey(requireSecret(secret), salt);
  const plain = new TextEncoder().encode(JSON.stringify(credentials));
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(connectorId) },
    key,
    plain,
  );
  return { v: 1, salt: b64(salt), iv: b64(iv), data: b64(new Uint8Array(data)) };
}

/** Open what sealCredentials sealed for the same connector under the same secret. */
export async function openCredentials(
  secret: string | undefined,
  connectorId: string,
  sealed: SealedCredentials,
): Promise<Record<string, unknown>> {
  const key = await deriveKey(requireSecret(secret), unb64(sealed.salt));
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: unb64(sealed.iv), additionalData: new TextEncoder().encode(connectorId) },
      key,
      unb64(sealed.data),
    );
  } catch {
    throw new CredentialsError(
      'the stored credentials cannot be decrypted with the current CONNECTOR_SECRET (was it changed?); store them again',
    );
  }
  return JSON.parse(new TextDecoder().decode(plain)) as Record<string, unknown>;
}

/** The masked view of stored credentials: every field present, no value. */
export function maskCredentials(fields: readonly string[] | null): Record<string, string> | null {
  return fields === null ? null : Object.fromEntries(fields.map((f) => [f, '********']));
}
