/**
 * Request schemas of the Indexing API control plane (valibot). Shape and type
 * rules live here and surface as 422 Pydantic items; rules that need the
 * current state (existence, duplicates, cycles) and the group/email rules the
 * spec answers with 400 live in the domain functions.
 *
 * Length bounds are not fixed by the spec; the ones below are documented in
 * the README (Indexing API section).
 */
import * as v from 'valibot';
import { pyIssue } from '../validation/pydantic.ts';
import { SLUG_RE } from './names.ts';
import { jsonDepthExceeds, jsonSizeExceeds, MAX_JSON_DEPTH } from '../validation/json-bounds.ts';

export const LIMITS = {
  nameLength: 64,
  labelLength: 256,
  iconBase64Length: 1_400_000,
  subs: 1000,
  objectDefinitions: 200,
  propertyDefinitions: 500,
  emailLength: 320,
  groupNameLength: 256,
  /** Nesting depth of each kept open field of an object definition (json-bounds.ts). */
  extraFieldDepth: MAX_JSON_DEPTH,
  /** JSON text of the kept open fields of one object definition, in characters. */
  extraFieldsChars: 65_536,
} as const;

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

export const Slug = v.pipe(v.string(), v.regex(SLUG_RE), v.maxLength(LIMITS.nameLength));
const Label = v.pipe(v.string(), v.minLength(1), v.maxLength(LIMITS.labelLength));

export const IconBase64 = v.nullable(
  v.pipe(
    v.string(),
    v.maxLength(LIMITS.iconBase64Length),
    v.check(
      (s) => s.length % 4 === 0 && BASE64_RE.test(s),
      pyIssue('value_error', 'Value error, icon_base64 must be standard Base64', { error: {} }),
    ),
  ),
);

export const PropertyDefinitionSchema = v.strictObject({
  name: Label,
  display_label: Label,
  is_searchable: v.optional(v.boolean(), false),
  property_type: v.picklist(['TEXT', 'INTEGER', 'DATE', 'BOOLEAN']),
});

/** The open fields of an object definition are stored: bounded so that every later read can write them. */
function extraFieldsWithinLimits(def: Record<string, unknown>): boolean {
  const extras: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(def)) {
    if (k === 'name' || k === 'property_definitions') continue;
    if (jsonDepthExceeds(value, LIMITS.extraFieldDepth)) return false;
    extras[k] = value;
  }
  return !jsonSizeExceeds(extras, LIMITS.extraFieldsChars);
}

/**
 * Other fields of an object definition are not fixed by the spec: they are kept as sent, each
 * nested at most 64 levels deep and together at most 65,536 characters of JSON (else 422).
 */
export const ObjectDefinitionSchema = v.pipe(
  v.looseObject({
    name: Label,
    property_definitions: v.optional(
      v.pipe(v.array(PropertyDefinitionSchema), v.maxLength(LIMITS.propertyDefinitions)),
      [],
    ),
  }),
  v.check(
    (def) => extraFieldsWithinLimits(def),
    pyIssue(
      'value_error',
      `Value error, the other fields of an object definition must nest at most ${LIMITS.extraFieldDepth} levels deep and take at most ${LIMITS.extraFieldsChars} characters of JSON`,
      { error: {} },
    ),
  ),
);

export const ObjectDefinitions = v.pipe(v.array(ObjectDefinitionSchema), v.maxLength(LIMITS.objectDefinitions));

export const SubSchema = v.strictObject({
  name: Label,
  key: v.optional(Slug),
  parent_key: v.optional(Slug),
});
export type SubInput = v.InferOutput<typeof SubSchema>;

export const CreateDatasourceSchema = v.strictObject({
  name: Slug,
  display_name: Label,
  icon_base64: v.optional(IconBase64, null),
  subs: v.optional(v.pipe(v.array(SubSchema), v.maxLength(LIMITS.subs)), []),
  object_definitions: v.optional(ObjectDefinitions, []),
});
export type CreateDatasourceInput = v.InferOutput<typeof CreateDatasourceSchema>;

/** Only these three fields can change; any other field is a 422 `extra_forbidden`. */
export const UpdateDatasourceSchema = v.strictObject({
  display_name: v.optional(Label),
  icon_base64: v.optional(IconBase64),
  object_definitions: v.optional(ObjectDefinitions),
});
export type UpdateDatasourceInput = v.InferOutput<typeof UpdateDatasourceSchema>;

const DatasourceRef = v.pipe(v.string(), v.minLength(1), v.maxLength(LIMITS.nameLength));
/** Emails: type and length here; "empty after trim" is the domain's 400. */
const Email = v.pipe(v.string(), v.maxLength(LIMITS.emailLength));
const GroupName = v.pipe(v.string(), v.maxLength(LIMITS.groupNameLength));

export const CreateUserSchema = v.strictObject({
  datasource: DatasourceRef,
  user: v.strictObject({
    email: v.optional(v.nullable(Email)),
    name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(LIMITS.labelLength))), null),
  }),
});

export const UpdateUserSchema = v.strictObject({
  name: v.nullable(v.pipe(v.string(), v.maxLength(LIMITS.labelLength))),
});

export const CreateGroupSchema = v.strictObject({
  datasource: DatasourceRef,
  group: v.strictObject({ name: GroupName }),
});

export const RenameGroupSchema = v.strictObject({ group_name: GroupName });

const present = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';

export const MembershipSchema = v.pipe(
  v.strictObject({
    group_name: GroupName,
    member_email: v.optional(v.nullable(Email)),
    member_group_name: v.optional(v.nullable(GroupName)),
  }),
  v.check(
    (m) => present(m.member_email) !== present(m.member_group_name),
    pyIssue('value_error', 'Value error, exactly one of member_email and member_group_name must be set', { error: {} }),
  ),
);

export const CreateMembershipSchema = v.strictObject({
  datasource: DatasourceRef,
  membership: MembershipSchema,
});
