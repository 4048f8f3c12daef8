/**
 * Request schemas of the agents of the admin API (POST and PATCH
 * /api/admin/agents), reported in the Pydantic envelope (422). `null` clears
 * `model` and `datasources` on update.
 */
import * as v from 'valibot';
import { pyIssue } from '../validation/pydantic.ts';

export const AGENT_TOOLS = ['serviceSearch', 'webSearch'] as const;
/** A datasource category (`wikitool`, ..., `other`) or the name of a pushed datasource. */
export const DATASOURCE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

const fields = {
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
  description: v.pipe(v.string(), v.maxLength(2000)),
  instructions: v.pipe(v.string(), v.maxLength(20_000)),
  model: v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))),
  tools: v.pipe(
    v.array(v.picklist(AGENT_TOOLS)),
    v.check(
      (t) => new Set(t).size === t.length,
      pyIssue('value_error', 'Value error, tools must not repeat', { error: {} }),
    ),
  ),
  datasources: v.nullable(
    v.pipe(v.array(v.pipe(v.string(), v.regex(DATASOURCE_NAME))), v.minLength(1), v.maxLength(100)),
  ),
};

export const CreateAgentBody = v.strictObject({
  name: fields.name,
  description: v.optional(fields.description, ''),
  instructions: v.optional(fields.instructions, ''),
  model: v.optional(fields.model, null),
  tools: v.optional(fields.tools, ['serviceSearch']),
  datasources: v.optional(fields.datasources, null),
});

export const UpdateAgentBody = v.strictObject({
  name: v.optional(fields.name),
  description: v.optional(fields.description),
  instructions: v.optional(fields.instructions),
  model: v.optional(fields.model),
  tools: v.optional(fields.tools),
  datasources: v.optional(fields.datasources),
});

export type CreateAgentInput = v.InferOutput<typeof CreateAgentBody>;
export type UpdateAgentInput = v.InferOutput<typeof UpdateAgentBody>;
