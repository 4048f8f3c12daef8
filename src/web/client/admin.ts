/**
 * Browser module of the dashboard pages (`/admin…`): sends the dashboard's
 * forms to the API (admin/forms.ts) and shows what the last change did
 * (admin/flash.ts). Reading needs no script: the pages are rendered on the
 * server.
 */
import { showFlash } from './admin/flash.ts';
import { enhanceForms } from './admin/forms.ts';

enhanceForms();
showFlash();
