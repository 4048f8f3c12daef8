/**
 * The HTTP application: `createApp(services)` builds the Hono app from its
 * dependencies. Cross-cutting concerns live here: request ids, access logs,
 * CORS for /api/* when CORS_ORIGINS is set, the body-size limit, 404/405 for unknown routes and methods, and the single
 * `onError` that maps typed errors to the spec's envelopes.
 */
import { Hono, type Context } from 'hono';
import { RequestValidationError, SchemaError, ServiceError, type ValidationItem } from './errors.ts';
import { boundedCopy } from './validation/json-bounds.ts';
import type { AppEnv } from './http/env.ts';
import type { Services } from './services.ts';
import { adminAccountsRoutes } from './routes/admin.accounts.ts';
import { adminKeysRoutes } from './routes/admin.keys.ts';
import { adminServiceAccountsRoutes } from './routes/admin.service-accounts.ts';
import { adminSignInRoutes } from './routes/admin.sign-in.ts';
import { healthRoutes } from './routes/health.ts';
import { indexingDatasourceRoutes } from './routes/indexing.datasources.ts';
import { indexingGroupRoutes } from './routes/indexing.groups.ts';
import { indexingMembershipRoutes } from './routes/indexing.memberships.ts';
import { indexingUserRoutes } from './routes/indexing.users.ts';
import { indexingDocumentRoutes } from './routes/indexing.documents.ts';
import { webSearchRoutes } from './routes/web-search.ts';
import { chatRoutes } from './routes/chat.ts';
import { filesRoutes } from './routes/files.ts';
import { adminAgentsRoutes } from './routes/admin.agents.ts';
import { adminSettingsRoutes } from './routes/admin.settings.ts';
import { adminStatsRoutes } from './routes/admin.stats.ts';
import { adminBackupsRoutes } from './routes/admin.backups.ts';
import { adminConnectorRoutes } from './routes/admin.connectors.ts';
import { searchRoutes } from './routes/search.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { BodyBudget } from './http/admission.ts';
import { auditChanges } from './http/audit.ts';
import { requestBodyLimit } from './http/body-limit.ts';
import { apiCors } from './http/cors.ts';
import { adminAuditRoutes } from './routes/admin.audit.ts';
import { OidcSignIn } from './sessions/oidc.ts';
import { SignInThrottle } from './sessions/throttle.ts';
import { webRoutes } from './web/index.tsx';
import { ConversationStore, conversationsDir } from './conversations/store.ts';
import { conversationRoutes } from './routes/conversations.ts';
import { analyticsDir, SearchAnalytics } from './analytics/analytics.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { adminAnalyticsRoutes } from './routes/admin.analytics.ts';
import { indexingUploadSessionRoutes } from './routes/indexing.upload-sessions.ts';
import { VERSION } from './cli.ts';
import { requestMetrics, timedUpstreamFetch } from './http/metrics.ts';
import { Metrics } from './metrics/metrics.ts';
import { watchDocuments } from './metrics/scrape.ts';
import { metricsRoutes } from './routes/metrics.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function createApp(given: Services): Hono<AppEnv> {
  const oidcConfig = given.config.web.oidc;
  const conversations =
    given.conversations ??
    new ConversationStore({ dir: conversationsDir(given.config.dataDir), log: given.log, now: given.now });
  const analytics =
    given.analytics ??
    new SearchAnalytics({
      dir: analyticsDir(given.config.dataDir),
      log: given.log,
      now: given.now,
      ...given.config.analytics,
    });
  const metrics = given.metrics ?? (given.config.metricsToken ? ownMetrics(given) : undefined);
  const services: Services = {
    ...given,
    metrics,
    chatFetch: metrics
      ? timedUpstreamFetch(given.chatFetch ?? ((input, init) => fetch(input, init)), metrics.upstreamCall)
      : given.chatFetch,
    signInThrottle: given.signInThrottle ?? new SignInThrottle(),
    conversations,
    analytics,
    oidc:
      given.oidc ??
      (oidcConfig &&
        new OidcSignIn(oidcConfig, {
          state: given.state,
          now: given.now,
          sessions: given.config.web.session,
          log: given.log.child({ component: 'sso' }),
        })),
  };
  const app = new Hono<AppEnv>();
  const { log, config } = services;

  if (metrics) app.use('*', requestMetrics(metrics.requested));
  app.use('*', async (c, next) => {
    const given = c.req.header('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    const reqLog = log.child({ requestId });
    c.set('requestId', requestId);
    c.set('log', reqLog);
    const started = performance.now();
    await next();
    // On the response's own headers: c.header() on a finalized response rebuilds it around its
    // body stream (the Node adapter then streams it instead of writing the string; ~80 us CPU
    // per request). A response with immutable headers is rebuilt that way.
    try {
      c.res.headers.set('x-request-id', requestId);
    } catch {
      c.header('x-request-id', requestId);
    }
    reqLog.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  });

  if (config.corsOrigins.length > 0) app.use('/api/*', apiCors(config.corsOrigins));

  const budget = services.bodyBudget ?? new BodyBudget(config.requestBodyBudgetBytes, config.requestBodyWaitMs);
  app.use('*', requestBodyLimit({ maxSize: config.maxRequestBytes, budget }));

  if (services.audit) {
    const record = auditChanges(services.audit, config.web.trustProxy);
    app.use('/api/admin/*', record);
    app.use('/api/indexing/*', (c, next) =>
      c.req.path.startsWith('/api/indexing/documents') ? next() : record(c, next),
    );
    app.route('/', adminAuditRoutes(services, services.audit));
  }
  app.route('/', healthRoutes(services.readiness));
  if (metrics && config.metricsToken) app.route('/', metricsRoutes(metrics, config.metricsToken));
  app.route('/', adminAccountsRoutes(services));
  app.route('/', adminKeysRoutes(services));
  app.route('/', adminServiceAccountsRoutes(services));
  app.route('/', adminSignInRoutes(services));
  app.route('/', webSearchRoutes(services));
  app.route('/', chatRoutes(services));
  app.route('/', filesRoutes(services));
  app.route('/', adminAgentsRoutes(services));
  app.route('/', adminStatsRoutes(services));
  app.route('/', adminBackupsRoutes(services));
  app.route('/', adminSettingsRoutes(services));
  app.route('/', conversationRoutes({ ...services, conversations }));
  app.route('/', analyticsRoutes(services, analytics));
  app.route('/', adminAnalyticsRoutes(services, analytics));
  if (services.connectors) app.route('/', adminConnectorRoutes({ ...services, connectors: services.connectors }));
  if (services.documents) app.route('/', searchRoutes({ ...services, documents: services.documents }));
  app.route('/', openApiRoutes(services));
  if (services.webAssets) app.route('/', webRoutes(services, services.webAssets) as unknown as Hono<AppEnv>);
  // Route modules are mounted here, one per resource.
  app.route('/api/indexing', indexingDatasourceRoutes(services));
  app.route('/api/indexing', indexingUserRoutes(services));
  app.route('/api/indexing', indexingGroupRoutes(services));
  app.route('/api/indexing', indexingMembershipRoutes(services));
  if (services.documents)
    app.route('/api/indexing', indexingDocumentRoutes({ ...services, documents: services.documents }));
  if (services.uploads)
    app.route('/api/indexing', indexingUploadSessionRoutes({ ...services, uploads: services.uploads }));

  app.notFound((c) => {
    const allowed = allowedMethods(app, c.req.path);
    if (allowed.length > 0 && !allowed.includes(c.req.method)) {
      c.header('Allow', allowed.join(', '));
      return c.json({ detail: 'Method Not Allowed' }, 405);
    }
    return c.json({ detail: 'Not Found' }, 404);
  });

  app.onError((err, c) => {
    try {
      return errorResponse(err, c);
    } catch (failure) {
      // Last resort: an error answer that cannot be written is still a plain 500, never a throw.
      try {
        log.error('error response failed', { error: String(failure), original: String(err) });
      } catch {
        // nothing left to report with
      }
      return new Response(JSON.stringify({ detail: 'Internal Server Error; safe to retry' }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    }
  });

  function errorResponse(err: Error, c: Context<AppEnv>): Response {
    // Inputs are echoed bounded (json-bounds.ts): a deeply nested or huge value is replaced by a placeholder.
    if (err instanceof RequestValidationError) return c.json({ detail: err.items.map(echoItem) }, 422);
    if (err instanceof SchemaError) {
      return c.json({ status: 'error', details: { error_code: err.code, message: err.message } }, 422);
    }
    if (err instanceof ServiceError) {
      if (err.retryAfterSeconds !== undefined)
        c.header('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterSeconds))));
      return c.json({ detail: err.message }, err.status as 400, err.headers);
    }
    const requestId = c.get('requestId') ?? 'unknown';
    (c.get('log') ?? log).error('unhandled error', { error: err, stack: err instanceof Error ? err.stack : undefined });
    return c.json({ detail: `Internal Server Error (request id ${requestId}); safe to retry` }, 500);
  }

  return app;
}

/** Metrics for an app whose caller made none: request, search and upstream figures and the documents' state. */
function ownMetrics(given: Services): Metrics {
  const metrics = new Metrics(VERSION);
  if (given.documents) watchDocuments(metrics, given.documents, given.now);
  return metrics;
}

/** A validation item as answered: its `input` (and `ctx`) bounded in depth and size. */
function echoItem(item: ValidationItem): ValidationItem {
  const out: ValidationItem = { ...item };
  if ('input' in item) out.input = boundedCopy(item.input);
  if (item.ctx !== undefined) out.ctx = boundedCopy(item.ctx) as Record<string, unknown>;
  return out;
}

/** Methods registered for a concrete path (used to tell 405 from 404); none for an unknown path. */
export function allowedMethods(app: Hono<AppEnv>, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    if (routePattern(route.path).test(path)) methods.add(route.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods];
}

const patterns = new Map<string, RegExp>();
function routePattern(path: string): RegExp {
  let re = patterns.get(path);
  if (!re) {
    const body = path
      .split('/')
      .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    re = new RegExp(`^${body}/?$`);
    patterns.set(path, re);
  }
  return re;
}
