/**
 * Who makes a request: the master key, a person's account with its roles, or
 * a service account. Authentication (src/auth/authenticate.ts) turns a
 * presented key into a Principal; the functions here say what it may manage
 * and how it is named in records.
 */
import { forbidden } from '../errors.ts';
import type { Actor } from './accounts.ts';

/** A role an account can hold. */
export type Role = 'administrator' | 'developer';

/** Who made the request, as established by authentication. */
export type Principal =
  | { kind: 'master' }
  | {
      kind: 'account';
      accountId: string;
      email: string;
      roles: Role[];
      /** The personal key's id, or the session's id for a browser session. */
      keyId: string;
      /** Set when the request was authenticated by a browser session (src/http/session.ts). */
      sessionId?: string;
    }
  | { kind: 'service_account'; serviceAccountId: string; name: string; keyId: string };

/** Master key, or an account holding both the administrator and developer roles (spec, Authentication 2). */
export function canManageServiceAccounts(p: Principal): boolean {
  return (
    p.kind === 'master' || (p.kind === 'account' && p.roles.includes('administrator') && p.roles.includes('developer'))
  );
}

/** Throws 403 unless `canManageServiceAccounts(p)`. */
export function assertServiceAccountManager(p: Principal): void {
  if (!canManageServiceAccounts(p)) {
    throw forbidden(
      'Managing service accounts needs the master key or an account with both the administrator and developer roles',
    );
  }
}

/** The principal as an account-management actor (accounts.ts `Actor`): the master key or an account's roles. */
export function actorOf(p: Principal): Actor {
  return p.kind === 'account' ? { roles: p.roles } : 'master';
}

/** A short, non-secret description of who acted (for records and logs). */
export function principalLabel(p: Principal): string {
  return p.kind === 'master' ? 'master' : p.kind === 'account' ? p.email : `service-account:${p.name}`;
}
