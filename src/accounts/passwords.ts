/**
 * Password hashing for browser sign-in (node:crypto scrypt). A stored hash is
 * `scrypt$<logN>$<r>$<p>$<salt b64url>$<hash b64url>`, so parameters can be
 * raised later without invalidating existing hashes. The plain password is
 * never stored or logged; verification compares in constant time.
 *
 * `checkPasswordPolicy` is the one rule set for new passwords (length in
 * Unicode code points, NIST SP 800-63B style: long passphrases welcome, no
 * composition rules, an upper bound so hashing cost stays bounded).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const PASSWORD_MIN_CHARS = 10;
export const PASSWORD_MAX_CHARS = 256;

/** Cost parameters of new hashes: N = 2^15, r = 8, p = 1 (32 MiB, ~50-100 ms on one core). */
const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** A reason the password is refused, or undefined when it is acceptable. */
export function checkPasswordPolicy(password: string): string | undefined {
  const chars = [...password].length;
  if (chars < PASSWORD_MIN_CHARS) return `The password must have at least ${PASSWORD_MIN_CHARS} characters`;
  if (chars > PASSWORD_MAX_CHARS) return `The password must have at most ${PASSWORD_MAX_CHARS} characters`;
  if (password.trim() === '') return 'The password must not be only spaces';
  return undefined;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, LOG_N, R, P);
  return ['scrypt', LOG_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether `password` matches `stored`; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = STORED.exec(stored);
  if (!m || [...password].length > PASSWORD_MAX_CHARS) return false;
  const [logN, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (logN < 10 || logN > 20 || r < 1 || r > 16 || p < 1 || p > 4) return false;
  const expected = Buffer.from(m[5], 'base64url');
  const actual = await derive(password, Buffer.from(m[4], 'base64url'), logN, r, p);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * A hash of a random password, verified against when the account does not exist or has no
 * password, so that the answer takes as long as for a real account (no account enumeration by timing).
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(24).toString('base64url'));
  return decoy;
}
