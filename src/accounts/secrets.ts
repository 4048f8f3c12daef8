/**
 * Secrets of API keys (Web Crypto only): random generation, SHA-256 digests
 * and a constant-time comparison. A secret is shown once at creation; only
 * its SHA-256 digest (lowercase hex) is ever stored.
 */

/** Random bytes per secret (256 bits). */
export const SECRET_BYTES = 32;

/** Key prefixes: they tell the kind of a key at a glance. */
export const KEY_PREFIX = {
  personal: 'pk_',
  service: 'svcsa_',
  master: 'mk_',
} as const;

export function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A new secret: `prefix` + base64url of SECRET_BYTES random bytes. */
export function newSecret(prefix: string): string {
  return prefix + base64url(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** A short random identifier (not a secret): `prefix` + 16 hex digits. */
export function newId(prefix: string): string {
  return prefix + toHex(crypto.getRandomValues(new Uint8Array(8)));
}

export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Decode lowercase or uppercase hex; undefined when malformed. */
export function fromHex(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Equality whose running time depends only on the lengths, not on where the
 * inputs differ. Lengths are not secret here (digests have a fixed length).
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}
