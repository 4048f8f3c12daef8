/**
 * Security headers of every page and asset: a strict Content-Security-Policy
 * (scripts, styles, images and connections from this origin only; no inline
 * script or style; Trusted Types required, so browser code cannot hand strings
 * to HTML sinks), no framing, no MIME sniffing, a same-origin referrer policy,
 * and `no-store` for pages (they show personal results).
 */
import type { MiddlewareHandler } from 'hono';
import type { WebEnv } from './env.ts';

/**
 * The policy. `formTargets` are origins besides this one that a form post may lead to: the
 * single sign-on provider's, since starting a sign-in is a form post answered with a redirect
 * there (form-action also governs redirects).
 */
export function contentSecurityPolicy(formTargets: readonly string[] = []): string {
  return CONTENT_SECURITY_POLICY.replace("form-action 'self'", ["form-action 'self'", ...formTargets].join(' '));
}

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

export function securityHeaders(
  kind: 'page' | 'asset',
  formTargets: readonly string[] = [],
): MiddlewareHandler<WebEnv> {
  const policy = contentSecurityPolicy(formTargets);
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set('Content-Security-Policy', policy);
    h.set('X-Content-Type-Options', 'nosniff');
    h.set('X-Frame-Options', 'DENY');
    h.set('Referrer-Policy', 'same-origin');
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    h.set('Cross-Origin-Resource-Policy', 'same-origin');
    h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()');
    if (kind === 'page') {
      h.set('Cache-Control', 'no-store');
      h.append('Vary', 'Cookie');
    }
  };
}
