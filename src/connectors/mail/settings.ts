/**
 * Settings and credentials of the mail connector (`mailsuite`), validated at create and update:
 * - `host`, `port` (default 993 with `tls`, 143 otherwise), `security`: `tls` (implicit TLS,
 *   default), `starttls` (refused when the server does not offer it) or `plain`, which only a
 *   loopback host may use (a local proxy, tests): credentials never cross a network in clear;
 * - `ca_certificate`: PEM certificate trusted besides the system's (a private CA, a self-signed
 *   server); certificates are always verified;
 * - `owner`: the mailbox owner's email, who sees every message (and is registered on the datasource);
 * - `folders` / `exclude_folders`: globs (glob.ts) on folder paths with `/` between levels
 *   (`INBOX`, `Projects/**`, `*`); default `["INBOX"]`; `INBOX` in any case is INBOX;
 * - `shared_with`: who else sees the messages (`{everyone, users, groups}`; default nobody);
 * - `breadcrumb` (default the owner), `url_template` (`{folder}`, `{uidvalidity}`, `{uid}`,
 *   `{message_id}`; default an RFC 5092 `imap://` URL);
 * - `max_message_bytes` (default 25 MB, at most INDEXING_API_MAX_BINARY_BYTES), `timeout_ms`.
 * Credentials: `{username, password}`.
 */
import { isIP } from 'node:net';
import * as v from 'valibot';
import { globProblem } from '../glob.ts';
import { GrantSchema } from '../grants.ts';

const Email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.minLength(3), v.maxLength(320), v.includes('@'));
const Glob = v.pipe(
  v.string(),
  v.check((p) => globProblem(p) === undefined, 'not a valid glob pattern'),
);
const Host = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.regex(
    /^(?:[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9-]{1,63})*\.?|\[?[0-9a-f:.]+\]?)$/,
    'a host name or an IP address',
  ),
  v.maxLength(253),
  v.transform((h) => h.replace(/^\[(.*)\]$/, '$1')),
);

/** Whether `host` is this machine (the only place `plain` may talk to). */
export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

export const MailSettings = v.pipe(
  v.strictObject({
    host: Host,
    port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535))),
    security: v.optional(v.picklist(['tls', 'starttls', 'plain']), 'tls'),
    ca_certificate: v.optional(
      v.pipe(v.string(), v.maxLength(100_000), v.includes('-----BEGIN CERTIFICATE-----', 'a PEM certificate')),
    ),
    owner: Email,
    folders: v.optional(v.pipe(v.array(Glob), v.minLength(1), v.maxLength(200)), ['INBOX']),
    exclude_folders: v.optional(v.pipe(v.array(Glob), v.maxLength(200)), []),
    shared_with: v.optional(GrantSchema, { everyone: false, users: [], groups: [] }),
    breadcrumb: v.optional(v.pipe(v.string(), v.maxLength(200)), ''),
    url_template: v.optional(v.pipe(v.string(), v.maxLength(2000)), ''),
    max_message_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024)), 25_000_000),
    timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(600_000)), 30_000),
  }),
  v.forward(
    v.check(
      (s) => s.security !== 'plain' || isLoopback(s.host),
      'security "plain" is allowed only for a loopback host (127.0.0.1, ::1, localhost); use tls or starttls',
    ),
    ['security'],
  ),
);
export type MailSettings = v.InferOutput<typeof MailSettings>;

export const MailCredentials = v.strictObject({
  username: v.pipe(v.string(), v.minLength(1), v.maxLength(1000)),
  password: v.pipe(v.string(), v.minLength(1), v.maxLength(1000)),
});
export type MailCredentials = v.InferOutput<typeof MailCredentials>;
