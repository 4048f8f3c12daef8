/**
 * The dashboard at `/admin` (issue 25): one module per section, all behind
 * `requireAdministrator` (shell.tsx). The pages read through the domain
 * functions the API routes call; their browser module (client/admin.ts)
 * makes every change through the public admin API and the Indexing API's
 * control plane with the administrator's session and the CSRF header, so the
 * API's rules, status codes and messages hold, and the audit log (recorded
 * at the HTTP edge, src/http/audit.ts) names the administrator as the actor.
 */
import { Hono } from 'hono';
import type { Services } from '../../../services.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { accountRoutes } from './account.tsx';
import { accountsRoutes } from './accounts.tsx';
import { agentsRoutes } from './agents.tsx';
import { connectorsRoutes } from './connectors.tsx';
import { auditRoutes } from './audit.tsx';
import { datasourceRoutes } from './datasource.tsx';
import { datasourcesRoutes } from './datasources.tsx';
import { documentsRoutes } from './documents.tsx';
import { overviewRoutes } from './overview.tsx';
import { serviceAccountsRoutes } from './service-accounts.tsx';
import { settingsRoutes } from './settings.tsx';
import { requireAdministrator } from './shell.tsx';

export function adminPageRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.use('/admin', requireAdministrator);
  app.use('/admin/*', requireAdministrator);
  for (const routes of [
    overviewRoutes,
    datasourcesRoutes,
    datasourceRoutes,
    documentsRoutes,
    accountsRoutes,
    accountRoutes,
    serviceAccountsRoutes,
    agentsRoutes,
    connectorsRoutes,
    settingsRoutes,
    auditRoutes,
  ])
    app.route('/', routes(services, assets));
  return app;
}
