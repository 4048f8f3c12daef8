/**
 * Admin API, the audit log (master key or an administrator):
 *   GET /api/admin/audit?from&to&actor&action&target&limit -> {records: [...]} newest first
 *       `from`/`to` ISO 8601 (default the last 30 days), `action` a prefix (`account.`),
 *       `target` a substring, `limit` 1..1000 (default 100)
 *   GET /api/admin/audit/export?from&to -> JSON lines (application/x-ndjson), oldest first
 * 404 when the server keeps no audit log (AUDIT_RETENTION_DAYS=0 is "keep forever", not off).
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AuditLog } from '../audit/audit.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { RequestValidationError } from '../errors.ts';
import type { AppEnv } from '../http/env.ts';
import { toValidationItems } from '../validation/pydantic.ts';
import { parseTimestamp } from '../accounts/schemas.ts';
import type { Services } from '../services.ts';

const DAY_MS = 86_400_000;

const timestamp = v.pipe(
  v.string(),
  v.check((s) => parseTimestamp(s) !== undefined, 'Input should be a valid datetime'),
);

const QuerySchema = v.object({
  from: v.optional(timestamp),
  to: v.optional(timestamp),
  actor: v.optional(v.pipe(v.string(), v.maxLength(320))),
  action: v.optional(v.pipe(v.string(), v.maxLength(100))),
  target: v.optional(v.pipe(v.string(), v.maxLength(1000))),
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,4}$/), v.transform(Number), v.minValue(1), v.maxValue(1000)),
    '100',
  ),
});

function parseQuery(raw: Record<string, string>, now: number) {
  const result = v.safeParse(QuerySchema, raw, { abortEarly: false });
  if (!result.success) throw new RequestValidationError(toValidationItems(result.issues, 'query'));
  const q = result.output;
  const toMs = q.to === undefined ? now : parseTimestamp(q.to)!;
  const fromMs = q.from === undefined ? toMs - 30 * DAY_MS : parseTimestamp(q.from)!;
  return { ...q, fromMs, toMs };
}

export function adminAuditRoutes(services: Services, audit: AuditLog): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = requireAdmin(services);
  const lastValues = (queries: Record<string, string[]>) =>
    Object.fromEntries(Object.entries(queries).map(([k, values]) => [k, values[values.length - 1]]));

  app.get('/api/admin/audit', admin, async (c) => {
    const q = parseQuery(lastValues(c.req.queries()), services.now());
    return c.json({ records: await audit.query(q) });
  });

  app.get('/api/admin/audit/export', admin, (c) => {
    const q = parseQuery(lastValues(c.req.queries()), services.now());
    const records = audit.export(q);
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await records.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
      },
    });
    const day = new Date(q.toMs).toISOString().slice(0, 10);
    return c.body(stream, 200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="audit-${day}.jsonl"`,
    });
  });
  return app;
}
