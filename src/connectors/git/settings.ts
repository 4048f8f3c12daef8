/**
 * Settings and credentials of the git connector (`codehost`), validated at create and update:
 * - `repository`: an absolute path, or a `https://`, `http://`, `git://`, `ssh://` or `file://`
 *   URL, or `user@host:path` (ssh); never something git could read as an option (a leading `-`)
 *   or a remote helper (`ext::...`), no whitespace or control characters, no password in a URL
 *   (credentials go in `credentials`);
 * - `branch`: the branch to index (default: the remote's HEAD), a plain ref name;
 * - `name`: the repository name, first segment of every path (default: the last segment of
 *   `repository` without `.git`);
 * - `include` / `exclude`: globs (glob.ts) on file paths; `max_file_bytes` (default 1 MB);
 * - `url_template`: makes `path_preview`: `{path}` (segments URL-encoded), `{name}`, `{branch}`,
 *   `{commit}`; empty: no preview URL;
 * - `permissions`: `everyone` (default) or `paths` (a grant per path prefix, `default` for the rest);
 * - `timeout_ms`: longest clone or fetch (default 10 minutes).
 * Credentials (optional, http(s) only): `{username, password}` (a token as the password).
 */
import { isAbsolute } from 'node:path';
import * as v from 'valibot';
import { globProblem } from '../glob.ts';
import { GrantSchema, PathRuleSchema } from '../grants.ts';

const SCP_LIKE = /^[A-Za-z0-9._~-]+@[A-Za-z0-9][A-Za-z0-9.-]*:[^\s]+$/;

/** Why `repo` is refused as a repository location, or undefined. */
export function repositoryProblem(repo: string): string | undefined {
  if (repo.startsWith('-')) return 'must not start with -';
  if (/[\u0000-\u001f\u007f]/.test(repo)) return 'must not contain control characters';
  if (isAbsolute(repo)) return undefined;
  if (/\s/.test(repo)) return 'a URL must not contain whitespace';
  if (repo.includes('::')) return 'remote helpers (transport::address) are not allowed';
  if (SCP_LIKE.test(repo)) return undefined;
  if (!URL.canParse(repo)) return 'an absolute path, a URL (https, http, git, ssh, file) or user@host:path';
  const u = new URL(repo);
  if (!['https:', 'http:', 'git:', 'ssh:', 'file:'].includes(u.protocol))
    return 'only https, http, git, ssh and file URLs are allowed';
  if (u.password) return 'no password in the URL: put credentials in "credentials"';
  if (u.hostname.startsWith('-')) return 'the host must not start with -';
  return undefined;
}

/** Why `ref` is refused as a branch name, or undefined (a subset of git check-ref-format). */
export function branchProblem(ref: string): string | undefined {
  if (!/^[A-Za-z0-9._/+-]{1,255}$/.test(ref)) return 'letters, digits and . _ / + - only';
  if (ref.startsWith('-') || ref.startsWith('/') || ref.endsWith('/') || ref.endsWith('.'))
    return 'must not start with - or /, nor end with / or .';
  if (
    ref.includes('..') ||
    ref.includes('//') ||
    ref.endsWith('.lock') ||
    ref.split('/').some((s) => s.startsWith('.'))
  )
    return 'not a valid branch name';
  return undefined;
}

const Glob = v.pipe(
  v.string(),
  v.check((p) => globProblem(p) === undefined, 'not a valid glob pattern'),
);
const Globs = v.optional(v.pipe(v.array(Glob), v.maxLength(200)), []);

const Permissions = v.variant('mode', [
  v.strictObject({ mode: v.literal('everyone') }),
  v.strictObject({
    mode: v.literal('paths'),
    paths: v.pipe(v.array(PathRuleSchema), v.maxLength(1000)),
    default: v.optional(GrantSchema, { everyone: false, users: [], groups: [] }),
  }),
]);

export const GitSettings = v.strictObject({
  repository: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1),
    v.maxLength(2048),
    v.rawCheck(({ dataset, addIssue }) => {
      const problem = dataset.typed ? repositoryProblem(dataset.value) : undefined;
      if (problem) addIssue({ message: `not a repository git can be asked for: ${problem}` });
    }),
  ),
  branch: v.optional(
    v.pipe(
      v.string(),
      v.rawCheck(({ dataset, addIssue }) => {
        const problem = dataset.typed ? branchProblem(dataset.value) : undefined;
        if (problem) addIssue({ message: `not a branch name: ${problem}` });
      }),
    ),
  ),
  name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200), v.regex(/^[^/\\>»›]*$/, 'no path separators')), ''),
  include: Globs,
  exclude: Globs,
  max_file_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1_000_000),
  url_template: v.optional(v.pipe(v.string(), v.maxLength(2000)), ''),
  permissions: v.optional(Permissions, { mode: 'everyone' }),
  timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(3_600_000)), 600_000),
});
export type GitSettings = v.InferOutput<typeof GitSettings>;

export const GitCredentials = v.strictObject({
  username: v.pipe(v.string(), v.minLength(1), v.maxLength(1000), v.regex(/^[^:\s]+$/, 'no colon or whitespace')),
  password: v.pipe(v.string(), v.minLength(1), v.maxLength(10_000)),
});
export type GitCredentials = v.InferOutput<typeof GitCredentials>;

/** The repository name of a location: its last segment without `.git`. */
export function repositoryName(repo: string): string {
  const path = URL.canParse(repo) ? new URL(repo).pathname : repo.replace(/^[^@]+@[^:]+:/, '');
  const last =
    path
      .replace(/[/\\]+$/, '')
      .split(/[/\\:]/)
      .pop() ?? '';
  return last.replace(/\.git$/, '') || 'repository';
}
