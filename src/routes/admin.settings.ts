/**
 * Admin API, settings (master key or an administrator):
 *   GET  /api/admin/settings -> {settings: [{name, value, secret, set, description}],
 *        upstreams: [{id, name, configured, endpoint, serves}]}
 *        the effective configuration; secrets only say whether they are set
 *   POST /api/admin/settings/check {target: "llm" | "brave" | "searxng"}
 *        -> {target, ok, message, checked_at, ms}: one small real call to that upstream
 *        (the LLM's model list, one web search), at most 10 s; its failure is `ok: false`, not an error
 * The configuration comes from the environment at start; nothing here changes it.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { checkUpstream } from '../admin/checks.ts';
import { effectiveSettings, UPSTREAMS, upstreams } from '../admin/settings.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';

const CheckBody = v.strictObject({ target: v.picklist(UPSTREAMS) });

export function adminSettingsRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = requireAdmin(services);
  const { config } = services;

  app.get('/api/admin/settings', admin, (c) =>
    c.json({ settings: effectiveSettings(config), upstreams: upstreams(config) }),
  );
  app.post('/api/admin/settings/check', admin, async (c) => {
    const body = await jsonBody(c, CheckBody);
    return c.json(await checkUpstream(config, body.target, services.now));
  });
  return app;
}
