/**
 * Facts about the client of a request, for sign-in throttling, cookies and
 * links: its address, whether it came over https, and the origin it called.
 * Forwarded headers (`X-Forwarded-For`, `-Proto`, `-Host`) count only when
 * the operator set TRUST_PROXY, i.e. when a reverse proxy in front of the
 * server sets them; otherwise any client could forge them.
 */
import type { Context } from 'hono';

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string; encrypted?: boolean } };
}

function socketOf(c: Context) {
  const env = c.env as (NodeBindings & { server?: NodeBindings }) | undefined;
  return (env?.server ?? env)?.incoming?.socket;
}

/** The client address: the first X-Forwarded-For hop behind a trusted proxy, else the socket's peer. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return socketOf(c)?.remoteAddress ?? 'unknown';
}

/** Whether the browser reached us over https (TLS on our socket, or X-Forwarded-Proto behind a trusted proxy). */
export function isHttps(c: Context, trustProxy: boolean): boolean {
  if (trustProxy) {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    if (proto) return proto === 'https';
  }
  return socketOf(c)?.encrypted === true || new URL(c.req.url).protocol === 'https:';
}

/** The origin the browser called (`https://host:port`), as it would appear in an `Origin` header. */
export function requestOrigin(c: Context, trustProxy: boolean): string {
  const url = new URL(c.req.url);
  const host =
    (trustProxy && c.req.header('x-forwarded-host')?.split(',')[0]?.trim()) || c.req.header('host') || url.host;
  return `${isHttps(c, trustProxy) ? 'https' : 'http'}://${host}`;
}
