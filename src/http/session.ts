/**
 * The browser session at the HTTP edge: the session cookie, the CSRF token
 * derived from it, and the cross-site checks every state-changing request
 * made with a cookie must pass.
 *
 * - Cookie `es_session`: the session token (sessions.ts), `HttpOnly`,
 *   `SameSite=Lax`, `Path=/`, `Secure` when the request came over https.
 * - CSRF token: base64url(SHA-256("csrf:" + session token)). The page gets it
 *   in a `<meta>` element and in hidden form fields; a request that changes
 *   state sends it back as the `X-CSRF-Token` header or the `_csrf` form field.
 *   Nothing is stored: the server derives it from the cookie on every request.
 * - Before sign-in there is no session: the sign-in forms use a random
 *   `es_csrf` cookie and the same value in a hidden field (double submit).
 * - In addition, a state-changing request whose `Sec-Fetch-Site` says
 *   cross-site, or whose `Origin` is another origin, is refused.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { base64url, constantTimeEqual, sha256 } from '../accounts/secrets.ts';
import { isHttps, requestOrigin } from './client.ts';

export const SESSION_COOKIE = 'es_session';
export const PRE_SESSION_COOKIE = 'es_csrf';
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FIELD = '_csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const isSafeMethod = (method: string) => SAFE_METHODS.has(method.toUpperCase());

export function readSessionToken(c: Context): string | undefined {
  const value = getCookie(c, SESSION_COOKIE);
  return value && value.length <= 128 ? value : undefined;
}

export function setSessionCookie(c: Context, token: string, maxAgeMs: number, trustProxy: boolean): void {
  setCookie(c, SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c, trustProxy),
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

export function clearSessionCookie(c: Context, trustProxy: boolean): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c, trustProxy) });
}

/** The CSRF token of a session token. */
export async function csrfTokenFor(sessionToken: string): Promise<string> {
  return base64url(await sha256(`csrf:${sessionToken}`));
}

/** The pre-session token of this browser, set when missing (sign-in forms). */
export function preSessionToken(c: Context, trustProxy: boolean): string {
  const existing = getCookie(c, PRE_SESSION_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = base64url(crypto.getRandomValues(new Uint8Array(32)));
  setCookie(c, PRE_SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c, trustProxy),
  });
  return token;
}

/** The pre-session cookie's value as sent by the browser (no new one is made). */
export const sentPreSessionToken = (c: Context): string | undefined => getCookie(c, PRE_SESSION_COOKIE);

/** Why a state-changing request looks cross-site (Sec-Fetch-Site, Origin), or undefined. */
export function crossSiteReason(c: Context, trustProxy: boolean): string | undefined {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site is ${site}`;
  const origin = c.req.header('origin');
  if (origin !== undefined && origin !== requestOrigin(c, trustProxy)) return 'the Origin is another site';
  return undefined;
}

/** Constant-time comparison of a presented CSRF token with the expected one. */
export function sameToken(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const enc = new TextEncoder();
  return constantTimeEqual(enc.encode(presented), enc.encode(expected));
}
