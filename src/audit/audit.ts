/**
 * The audit log (domain, no HTTP): every administrative change and every
 * sign-in, as one record each, appended durably to day files under
 * DATA_DIR/audit (storage/daily-log.ts) and kept for AUDIT_RETENTION_DAYS.
 *
 * A record says who acted (`actor`: an email, `master`, or
 * `service-account:<name>`), when, from which address, what they did
 * (`action`, e.g. `account.create`), on what (`target`) and the change's
 * details. Details never hold a secret: values under secret-looking keys
 * (password, key, secret, token, …) and Base64 payloads are replaced before
 * the record is written, whatever the caller passes.
 */
import type { Logger } from '../log.ts';
import { DailyLog } from '../storage/daily-log.ts';

export interface AuditRecord {
  at: string;
  actor: string;
  address: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
  /** Request id of the HTTP request that made the change (log correlation). */
  request_id?: string;
}

export type AuditInput = Omit<AuditRecord, 'at' | 'details'> & { details?: Record<string, unknown> };

export interface AuditFilter {
  fromMs: number;
  toMs: number;
  actor?: string;
  /** Action prefix, e.g. `account.` or `account.create`. */
  action?: string;
  /** Substring of the target. */
  target?: string;
  limit: number;
}

/** Keys whose values are secrets or bulk data: never written. */
const SECRET_KEY = /pass(word|phrase)?|confirm|secret|token|api_?key|authorization|cookie|credential|_base64$/i;
const MAX_STRING = 1000;
const MAX_DEPTH = 4;
const MAX_ENTRIES = 50;

/** A copy of `value` without secrets, bounded in depth, size and string length. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested]';
  if (Array.isArray(value)) return value.slice(0, MAX_ENTRIES).map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, MAX_ENTRIES)) {
    out[k] = SECRET_KEY.test(k) ? '[redacted]' : scrub(v, depth + 1);
  }
  return out;
}

export class AuditLog {
  private readonly days: DailyLog<AuditRecord>;
  private readonly now: () => number;

  constructor(opts: { dir: string; log: Logger; now: () => number; retentionDays: number }) {
    this.days = new DailyLog<AuditRecord>(opts);
    this.now = opts.now;
  }

  /** Append a record; resolves once it is durable. */
  record(input: AuditInput): Promise<void> {
    const record: AuditRecord = {
      at: new Date(this.now()).toISOString(),
      actor: input.actor,
      address: input.address,
      action: input.action,
      target: input.target.slice(0, MAX_STRING),
      details: scrub(input.details ?? {}) as Record<string, unknown>,
      ...(input.request_id ? { request_id: input.request_id } : {}),
    };
    return this.days.append(record);
  }

  /** Records matching `filter`, newest first. */
  query(filter: AuditFilter): Promise<AuditRecord[]> {
    const target = filter.target?.toLowerCase();
    return this.days.query(
      filter,
      (r) =>
        (filter.actor === undefined || r.actor === filter.actor) &&
        (filter.action === undefined || r.action.startsWith(filter.action)) &&
        (target === undefined || r.target.toLowerCase().includes(target)),
      filter.limit,
    );
  }

  /** Every record of the range, oldest first (JSON-lines export). */
  export(range: { fromMs: number; toMs: number }): AsyncGenerator<AuditRecord> {
    return this.days.stream(range);
  }

  prune(): Promise<number> {
    return this.days.prune();
  }

  close(): Promise<void> {
    return this.days.close();
  }
}
