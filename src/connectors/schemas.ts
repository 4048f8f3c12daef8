/**
 * Request bodies of the connectors admin API. The outer shape is checked here; a type's own
 * `settings` and `credentials` are checked by its module's schemas (connectors.ts), with the
 * 422 items located under `["body", "settings", ...]` and `["body", "credentials", ...]`.
 */
import * as v from 'valibot';
import { Slug } from '../controlplane/schemas.ts';
import { connectorTypes } from './registry.ts';

/** Longest schedule interval: one week. */
export const MAX_INTERVAL_MINUTES = 10_080;

const fields = {
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
  datasource: Slug,
  interval_minutes: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_INTERVAL_MINUTES))),
  settings: v.record(v.string(), v.unknown()),
  credentials: v.nullable(v.record(v.string(), v.unknown())),
};

export const CreateConnectorBody = v.strictObject({
  name: fields.name,
  type: v.picklist(connectorTypes()),
  datasource: fields.datasource,
  interval_minutes: v.optional(fields.interval_minutes, 60),
  settings: v.optional(fields.settings, {}),
  credentials: v.optional(fields.credentials, null),
  paused: v.optional(v.boolean(), false),
});

export const UpdateConnectorBody = v.strictObject({
  name: v.optional(fields.name),
  datasource: v.optional(fields.datasource),
  interval_minutes: v.optional(fields.interval_minutes),
  settings: v.optional(fields.settings),
  credentials: v.optional(fields.credentials),
});

export type CreateConnectorInput = v.InferOutput<typeof CreateConnectorBody>;
export type UpdateConnectorInput = v.InferOutput<typeof UpdateConnectorBody>;
