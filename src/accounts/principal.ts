/**
 * Who makes a request: the master key, a person's account with its roles, or
 * a service account. Authentication (src/auth/authenticate.ts) turns a
 * presented key into a Principal; the domain decides with it what is allowed.
 */

/** A role an account can hold. */
export type Role = 'administrator' | 'developer';

/** Who made the request, as established by authentication. */
export type Principal =
  | { kind: 'master' }
  | { kind: 'account'; accountId: string; email: string; roles: Role[]; keyId: string }
  | { kind: 'service_account'; serviceAccountId: string; name: string; keyId: string };
