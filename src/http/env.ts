/**
 * The Hono environment shared by every route module: per-request variables
 * set by the middleware in app.ts and the auth middleware.
 */
import type { Logger } from '../log.ts';

export type Role = 'administrator' | 'developer';

/** Who made the request, as established by the auth middleware. */
export type Principal =
  | { kind: 'master' }
  | {
      kind: 'account';
      accountId: string;
      email: string;
      roles: Role[];
      /** The personal key's id, or the session's id for a browser session. */
      keyId: string;
      /** Set when the request was authenticated by a browser session (http/session.ts). */
      sessionId?: string;
    }
  | { kind: 'service_account'; serviceAccountId: string; name: string; keyId: string };

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    principal: Principal;
    /** The CSRF token of the request's browser session, when it has one (http/session.ts). */
    csrf?: string;
  };
}
