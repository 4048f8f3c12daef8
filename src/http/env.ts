/**
 * The Hono environment shared by every route module: per-request variables
 * set by the middleware in app.ts and the auth middleware.
 */
import type { Logger } from '../log.ts';

export type Role = 'administrator' | 'developer';

/** Who made the request, as established by the auth middleware. */
export type Principal =
  | { kind: 'master' }
  | { kind: 'account'; accountId: string; email: string; roles: Role[]; keyId: string }
  | { kind: 'service_account'; serviceAccountId: string; name: string; keyId: string };

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    principal: Principal;
  };
}
