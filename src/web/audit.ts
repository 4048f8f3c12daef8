/**
 * Sign-in events of the pages in the audit log: who (the email as typed or
 * proven), from which address, what happened (`signin.password`,
 * `signin.failed`, `signin.link`, `signin.oidc`, `signin.oidc_failed`,
 * `signout`) and why it failed. Never the password.
 */
import type { Context } from 'hono';
import { clientAddress } from '../http/client.ts';
import type { Services } from '../services.ts';
import type { WebEnv } from './env.ts';

export async function auditSignIn(
  c: Context<WebEnv>,
  services: Services,
  action: string,
  actor: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  if (!services.audit) return;
  await services.audit.record({
    actor: actor.trim().toLowerCase().slice(0, 320) || '(none)',
    address: clientAddress(c, services.config.web.trustProxy),
    action,
    target: actor.trim().toLowerCase().slice(0, 320),
    details: { ...details, user_agent: (c.req.header('user-agent') ?? '').slice(0, 200) },
    request_id: c.get('requestId'),
  });
}
