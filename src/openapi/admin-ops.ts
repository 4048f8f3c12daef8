/**
 * OpenAPI operations of the admin API for watching the service (master key,
 * or an administrator's key or browser session): the audit log (JSON and an
 * NDJSON export), search analytics, server statistics, the effective settings
 * and the upstream checks. Queries and bodies are the handlers' schemas; the
 * larger reports are described by their main fields and may carry more.
 */
import * as v from 'valibot';
import { CheckBody } from '../admin/settings.ts';
import { AuditQuerySchema } from '../audit/audit.ts';
import { CreateBackupBody } from '../backup/service.ts';
import type { Operation } from './operations.ts';
import type { SchemaRegistry } from './schema.ts';

const str = v.string();
const num = v.number();

const AuditRecord = v.object({
  at: str,
  actor: str,
  address: str,
  action: str,
  target: str,
  details: v.record(v.string(), v.unknown()),
  request_id: v.optional(str),
});

const Backup = v.object({
  name: str,
  path: str,
  format: num,
  version: str,
  started_at: str,
  finished_at: str,
  index: v.object({ generation: num, documents: num, files: num }),
  queue: v.object({ files: num, bytes: num }),
  files: num,
  bytes: num,
});

const AnalyticsQuery = v.object({
  from: v.optional(v.pipe(v.string(), v.description('Start (ISO 8601); default 30 days before `to`.'))),
  to: v.optional(v.pipe(v.string(), v.description('End (ISO 8601); default now. At most 366 days.'))),
  limit: v.optional(v.pipe(v.string(), v.description('Rows per list.'))),
});

const Report = v.looseObject({
  from: str,
  to: str,
  mode: str,
  totals: v.record(v.string(), v.nullable(num)),
  top_queries: v.array(v.looseObject({})),
  zero_result_queries: v.array(v.looseObject({})),
  feedback: v.array(v.looseObject({})),
  truncated: v.boolean(),
});

const Stats = v.looseObject({
  version: str,
  started_at: str,
  uptime_seconds: num,
  datasources: v.array(
    v.looseObject({ name: str, display_name: str, documents: num, pending: num, skipped: num, failed: num }),
  ),
});

export function adminOperations(r: SchemaRegistry): Operation[] {
  const ops = { tag: 'Admin: operations', access: 'admin' } as const;
  const op = (o: Omit<Operation, 'tag' | 'access'>): Operation => ({ ...ops, ...o });
  return [
    op({
      method: 'get',
      path: '/api/admin/audit',
      id: 'query_audit',
      summary: 'Query the audit log',
      query: AuditQuerySchema,
      ok: { description: 'Matching records, newest first', schema: v.object({ records: v.array(AuditRecord) }) },
    }),
    op({
      method: 'get',
      path: '/api/admin/audit/export',
      id: 'export_audit',
      summary: 'Export the audit log',
      query: AuditQuerySchema,
      ok: {
        description: 'One JSON record per line',
        media: {
          'application/x-ndjson': { schema: { type: 'string', description: 'Lines of AuditRecord JSON.' } },
        },
      },
    }),
    op({
      method: 'get',
      path: '/api/admin/analytics',
      id: 'search_analytics',
      summary: 'Search analytics',
      query: AnalyticsQuery,
      ok: { description: 'The report for the period', schema: Report },
    }),
    op({
      method: 'post',
      path: '/api/admin/backups',
      id: 'create_backup',
      summary: 'Take an online backup under BACKUP_DIR',
      description: 'A consistent snapshot while the server runs; restore with `enterprise-search restore DIR`.',
      body: CreateBackupBody,
      bodyOptional: true,
      ok: { status: 201, description: 'The finished backup', schema: Backup },
      errors: [409],
    }),
    op({
      method: 'get',
      path: '/api/admin/backups',
      id: 'list_backups',
      summary: 'Backups under BACKUP_DIR, newest first',
      ok: { description: 'The backups', schema: v.object({ backups: v.array(Backup) }) },
      errors: [409],
    }),
    op({
      method: 'get',
      path: '/api/admin/stats',
      id: 'server_stats',
      summary: 'Server statistics',
      ok: { description: 'Documents per datasource, queue, index and disk', schema: Stats },
    }),
    op({
      method: 'get',
      path: '/api/admin/settings',
      id: 'get_settings',
      summary: 'Effective settings',
      ok: {
        description: 'Settings (secrets never shown) and upstreams',
        schema: v.object({
          settings: v.array(
            v.object({ name: str, value: v.unknown(), secret: v.boolean(), set: v.boolean(), description: str }),
          ),
          upstreams: v.array(
            v.object({ id: str, name: str, configured: v.boolean(), endpoint: v.nullable(str), serves: v.array(str) }),
          ),
        }),
      },
    }),
    op({
      method: 'post',
      path: '/api/admin/settings/check',
      id: 'check_upstream',
      summary: 'Check an upstream',
      body: CheckBody,
      ok: {
        description: 'Whether the upstream answered',
        schema: v.object({
          target: str,
          ok: v.boolean(),
          message: str,
          checked_at: str,
          ms: num,
        }),
      },
    }),
  ];
}
