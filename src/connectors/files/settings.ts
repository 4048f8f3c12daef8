/**
 * Settings of the files connector (`fileshares`), validated at create and update:
 * - `root`: absolute path of the folder to crawl (local, or a mounted SMB/NFS share);
 * - `include` / `exclude`: globs (glob.ts) on the path relative to the root; empty `include`
 *   means every file; an excluded folder is not entered; hidden files and folders (a name
 *   starting with `.`) are skipped unless `hidden` is true;
 * - `url_template`: makes `path_preview`; `{path}` is the relative path (each segment
 *   URL-encoded), `{name}` the file name; empty: the file's `file://` URL;
 * - `breadcrumb`: first segment of the document `path` (default: the root folder's name);
 * - `follow_symlinks` (default false), `max_file_bytes` (default INDEXING_API_MAX_BINARY_BYTES);
 * - `permissions`: `everyone` (default), `folders` (a grant per folder subtree, the longest
 *   matching folder winning, `default` for the rest: nobody unless given), or `posix` (owner,
 *   group and world read bits mapped through `users` (uid -> email) and `groups` (gid -> group)).
 */
import { isAbsolute } from 'node:path';
import * as v from 'valibot';
import { globProblem } from '../glob.ts';
import { GrantSchema, PathRuleSchema } from '../grants.ts';

const Glob = v.pipe(
  v.string(),
  v.check((p) => globProblem(p) === undefined, 'not a valid glob pattern'),
);
const Globs = v.optional(v.pipe(v.array(Glob), v.maxLength(200)), []);
const NumericId = v.pipe(v.string(), v.regex(/^\d{1,10}$/, 'keys are numeric uids or gids'));

const Permissions = v.variant('mode', [
  v.strictObject({ mode: v.literal('everyone') }),
  v.strictObject({
    mode: v.literal('folders'),
    folders: v.pipe(v.array(PathRuleSchema), v.maxLength(1000)),
    default: v.optional(GrantSchema, { everyone: false, users: [], groups: [] }),
  }),
  v.strictObject({
    mode: v.literal('posix'),
    users: v.optional(v.record(NumericId, v.pipe(v.string(), v.trim(), v.toLowerCase(), v.includes('@'))), {}),
    groups: v.optional(v.record(NumericId, v.pipe(v.string(), v.minLength(1), v.regex(/^\S+$/))), {}),
    world_readable: v.optional(v.picklist(['everyone', 'ignore']), 'everyone'),
  }),
]);

export const FilesSettings = v.strictObject({
  root: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(4096),
    v.check((p) => isAbsolute(p), 'root must be an absolute path'),
  ),
  include: Globs,
  exclude: Globs,
  hidden: v.optional(v.boolean(), false),
  url_template: v.optional(v.pipe(v.string(), v.maxLength(2000)), ''),
  breadcrumb: v.optional(v.pipe(v.string(), v.maxLength(200)), ''),
  follow_symlinks: v.optional(v.boolean(), false),
  max_file_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  permissions: v.optional(Permissions, { mode: 'everyone' }),
});

export type FilesSettings = v.InferOutput<typeof FilesSettings>;
