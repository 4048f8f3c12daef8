/**
 * Request schemas of the accounts, keys and service accounts of the admin API
 * (valibot, reported in the Pydantic v2 shape by src/validation/pydantic.ts).
 * Emails follow Pydantic's email rules (email.ts). `expires_at` accepts ISO 8601
 * as src/validation/iso-date.ts reads it (surrounding blanks ignored) and must
 * lie in the future; it is turned into epoch milliseconds.
 */
import * as v from 'valibot';
import { emailProblem } from './email.ts';
import { ROLES } from './state.ts';
import { pyIssue } from '../validation/pydantic.ts';
import { parseInstant } from '../validation/iso-date.ts';

/** An `expires_at` in epoch ms (ISO 8601 as validation/iso-date.ts reads it, surrounding blanks ignored); undefined when malformed. */
export function parseTimestamp(text: string): number | undefined {
  const ms = parseInstant(text.trim());
  return Number.isNaN(ms) ? undefined : ms;
}

/** An ISO 8601 instant in the future (relative to `now()` at validation), as epoch ms. */
function futureInstant(now: () => number) {
  return v.pipe(
    v.string(),
    v.check((s) => parseTimestamp(s) !== undefined, pyIssue('datetime_parsing', 'Input should be a valid datetime')),
    v.check(
      (s) => {
        const ms = parseTimestamp(s);
        return ms === undefined || ms > now();
      },
      pyIssue('datetime_future', 'Input should be in the future'),
    ),
    v.transform((s) => parseTimestamp(s) as number),
  );
}

/** Optional `expires_at`: ISO 8601, in the future (relative to `now()` at validation). */
export function expiresAtSchema(now: () => number) {
  return v.optional(v.nullable(futureInstant(now)));
}

/** A login email (accounts/email.ts rules), trimmed and lowercased; 422 `value_error` with the reason. */
export const EmailSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(320),
  v.check(
    (s) => emailProblem(s) === undefined,
    (issue) => {
      const reason = emailProblem(issue.input as string) ?? '';
      return pyIssue('value_error', `value is not a valid email address: ${reason}`, { reason });
    },
  ),
);

export const CreateAccountBody = v.strictObject({
  email: EmailSchema,
  name: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(200)))),
  roles: v.optional(v.array(v.picklist(ROLES)), []),
});

export const createKeyBody = (now: () => number) => v.strictObject({ expires_at: expiresAtSchema(now) });

export const createServiceAccountBody = (now: () => number) =>
  v.strictObject({
    name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(128)),
    expires_at: expiresAtSchema(now),
  });

/** A key's new expiry: an instant in the future, or `null` for none (required, so nothing changes by accident). */
export const keyExpiryBody = (now: () => number) => v.strictObject({ expires_at: v.nullable(futureInstant(now)) });

/** An account's roles, replacing the ones it has (an empty list takes every role away). */
export const SetRolesBody = v.strictObject({ roles: v.array(v.picklist(ROLES)) });
