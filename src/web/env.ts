/**
 * The Hono environment of the pages: the API's variables plus the page
 * language, the signed-in viewer (when there is one) and the CSRF token the
 * page's forms and fetch calls must send back.
 */
import type { AppEnv } from '../http/env.ts';
import type { Lang } from './i18n/i18n.ts';

/** The signed-in person, as the pages show them. */
export interface Viewer {
  accountId: string;
  email: string;
  name: string | null;
  roles: readonly string[];
  sessionId: string;
}

export interface WebEnv {
  Variables: AppEnv['Variables'] & {
    lang: Lang;
    viewer?: Viewer;
    /** The token forms and fetch calls carry: the session's CSRF token, or the pre-session token. */
    formToken: string;
  };
}
