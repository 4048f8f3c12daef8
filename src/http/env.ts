/**
 * The Hono environment shared by every route module: per-request variables
 * set by the middleware in app.ts and the auth middleware.
 */
import type { Principal } from '../accounts/principal.ts';
import type { Logger } from '../log.ts';

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    principal: Principal;
    /** The CSRF token of the request's browser session, when it has one (http/session.ts). */
    csrf?: string;
  };
}
