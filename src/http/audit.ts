/**
 * Records administrative changes in the audit log (src/audit/audit.ts) at the
 * HTTP edge, so every change made through the admin API and the Indexing
 * API's control plane is recorded the same way, whoever makes it (an API
 * client, the dashboard's pages): after a state-changing request under
 * /api/admin or /api/indexing (documents excluded: pushes are content, not
 * administration) has succeeded, one record with the actor, the client
 * address, the action named from the route, the target and the request's
 * details (the JSON body and path parameters, scrubbed of secrets by the
 * audit log) plus the ids the answer created (never its secrets).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AuditLog } from '../audit/audit.ts';
import { principalLabel } from '../accounts/principal.ts';
import { clientAddress } from './client.ts';
import type { AppEnv } from './env.ts';
import { isSafeMethod } from './session.ts';

type Route = [method: string, pattern: RegExp, action: string, target: (m: string[], body: any) => unknown];

const S = '([^/]+)';
/** The changes recorded: method, path, action name, and where the target comes from. */
const ROUTES: Route[] = [
  ['POST', /^\/api\/admin\/accounts$/, 'account.create', (_, b) => b?.email],
  ['DELETE', new RegExp(`^/api/admin/accounts/${S}$`), 'account.delete', (m) => m[1]],
  ['PUT', new RegExp(`^/api/admin/accounts/${S}/roles$`), 'account.roles', (m) => m[1]],
  ['PUT', new RegExp(`^/api/admin/accounts/${S}/password$`), 'account.password_set', (m) => m[1]],
  ['POST', new RegExp(`^/api/admin/accounts/${S}/sign-in-links$`), 'account.sign_in_link', (m) => m[1]],
  ['DELETE', new RegExp(`^/api/admin/accounts/${S}/sessions$`), 'account.sessions_end', (m) => m[1]],
  ['POST', new RegExp(`^/api/admin/accounts/${S}/keys$`), 'key.create', (m) => m[1]],
  ['DELETE', new RegExp(`^/api/admin/keys/${S}$`), 'key.revoke', (m) => m[1]],
  ['PUT', new RegExp(`^/api/admin/keys/${S}/expiry$`), 'key.expiry', (m) => m[1]],
  ['POST', /^\/api\/admin\/service-accounts$/, 'service_account.create', (_, b) => b?.name],
  ['POST', /^\/api\/admin\/backups$/, 'backup.create', (_, b) => b?.name],
  ['POST', /^\/api\/admin\/settings\/check$/, 'settings.check', (_, b) => b?.target],
  ['POST', /^\/api\/admin\/agents$/, 'agent.create', (_, b) => b?.name],
  ['PUT', new RegExp(`^/api/admin/agents/${S}$`), 'agent.update', (m) => m[1]],
  ['PATCH', new RegExp(`^/api/admin/agents/${S}$`), 'agent.update', (m) => m[1]],
  ['DELETE', new RegExp(`^/api/admin/agents/${S}$`), 'agent.delete', (m) => m[1]],
  ['POST', /^\/api\/admin\/connectors$/, 'connector.create', (_, b) => b?.name ?? b?.type],
  ['PUT', new RegExp(`^/api/admin/connectors/${S}$`), 'connector.update', (m) => m[1]],
  ['PATCH', new RegExp(`^/api/admin/connectors/${S}$`), 'connector.update', (m) => m[1]],
  ['DELETE', new RegExp(`^/api/admin/connectors/${S}$`), 'connector.delete', (m) => m[1]],
  ['POST', new RegExp(`^/api/admin/connectors/${S}/(pause|resume|run)$`), 'connector.', (m) => m[1]],
  ['POST', /^\/api\/indexing\/upload-sessions$/, 'upload_session.start', (_, b) => b?.datasource],
  ['POST', new RegExp(`^/api/indexing/upload-sessions/${S}/(finish|abandon)$`), 'upload_session.', (m) => m[1]],
  ['DELETE', new RegExp(`^/api/indexing/upload-sessions/${S}$`), 'upload_session.abandon', (m) => m[1]],
  ['POST', /^\/api\/indexing\/datasources$/, 'datasource.create', (_, b) => b?.name],
  ['PUT', new RegExp(`^/api/indexing/datasources/${S}$`), 'datasource.update', (m) => m[1]],
  ['DELETE', new RegExp(`^/api/indexing/datasources/${S}$`), 'datasource.delete', (m) => m[1]],
  ['POST', new RegExp(`^/api/indexing/datasources/${S}/subs$`), 'sub.create', (m, b) => `${m[1]}/${b?.key ?? b?.name}`],
  ['DELETE', new RegExp(`^/api/indexing/datasources/${S}/subs/${S}$`), 'sub.delete', (m) => `${m[1]}/${m[2]}`],
  ['POST', /^\/api\/indexing\/users$/, 'user.create', (_, b) => `${b?.datasource}/${b?.user?.email}`],
  ['PUT', new RegExp(`^/api/indexing/users/${S}/${S}$`), 'user.update', (m) => `${m[1]}/${m[2]}`],
  ['DELETE', new RegExp(`^/api/indexing/users/${S}/${S}$`), 'user.delete', (m) => `${m[1]}/${m[2]}`],
  ['POST', /^\/api\/indexing\/groups$/, 'group.create', (_, b) => `${b?.datasource}/${b?.group?.name}`],
  ['PUT', new RegExp(`^/api/indexing/groups/${S}/${S}$`), 'group.rename', (m) => `${m[1]}/${m[2]}`],
  ['DELETE', new RegExp(`^/api/indexing/groups/${S}/${S}$`), 'group.delete', (m) => `${m[1]}/${m[2]}`],
  ['POST', /^\/api\/indexing\/memberships$/, 'membership.create', (_, b) => membershipTarget(b)],
  [
    'DELETE',
    new RegExp(`^/api/indexing/memberships/${S}/${S}/${S}/${S}$`),
    'membership.delete',
    (m) => `${m[1]}/${m[2]}/${m[3]}:${m[4]}`,
  ],
];

const routeOf = (method: string, path: string) => ROUTES.find(([m, pattern]) => m === method && pattern.test(path));

/** The action a successful request records (an action ending in '.' gets its verb from the path); undefined: none. */
export function auditedAction(method: string, path: string): string | undefined {
  return routeOf(method, path)?.[2];
}

function membershipTarget(b: any): string {
  const m = b?.membership;
  return `${b?.datasource}/${m?.group_name}/${m?.member_email ? `user:${m.member_email}` : `group:${m?.member_group_name}`}`;
}

const MAX_BODY = 1024 * 1024;
/** Fields of an answer that name what was created (ids; never `key`, the secret). */
const CREATED_IDS = ['id', 'key_id', 'name', 'expires_at'];

async function bodyOf(c: Context<AppEnv>): Promise<unknown> {
  const length = Number(c.req.header('content-length') ?? '0');
  if (!(c.req.header('content-type') ?? '').includes('json') || length > MAX_BODY) return undefined;
  try {
    const text = await c.req.text();
    return text.length <= MAX_BODY && text.trim() !== '' ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

async function createdIds(res: Response): Promise<Record<string, unknown>> {
  if (!(res.headers.get('content-type') ?? '').includes('json')) return {};
  const body: unknown = await res
    .clone()
    .json()
    .catch(() => undefined);
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  return Object.fromEntries(CREATED_IDS.filter((k) => Object.hasOwn(body, k)).map((k) => [k, (body as any)[k]]));
}

export function auditChanges(audit: AuditLog, trustProxy: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (isSafeMethod(c.req.method) || c.res.status >= 400) return;
    const route = routeOf(c.req.method, c.req.path);
    const principal = c.get('principal');
    if (!route || !principal) return;
    const params = route[1].exec(c.req.path)!.map((p) => decodeURIComponent(p));
    // An action ending in '.' takes its verb from the path's last group (pause, resume, run, finish, ...).
    const action = route[2].endsWith('.') ? route[2] + params[params.length - 1] : route[2];
    const body = await bodyOf(c);
    await audit.record({
      actor: principalLabel(principal),
      address: clientAddress(c, trustProxy),
      action,
      target: String(route[3](params, body) ?? ''),
      details: { request: body ?? {}, result: await createdIds(c.res) },
      request_id: c.get('requestId'),
    });
  };
}
