/**
 * The git connector (`codehost`): fetches one branch of a repository (a path or a URL git can
 * reach) into a bare repository in the connector's work folder (`DATA_DIR/connectors/<id>/work`),
 * and makes each text file of its tree a document: READMEs and Markdown files `markdown`, other
 * text files `file`, with the path `<name>/<path>`, the file's last commit date as
 * `last_modified` and that commit's author. The key is the path, the version the blob id, so an
 * unchanged file is neither read nor pushed; deleted files are not listed and their documents
 * are deleted at the end of the run. Binary files (a NUL byte in the first 8,000 bytes, as git
 * decides), Git LFS pointers and files over `max_file_bytes` are skipped with the reason;
 * submodules and symbolic links are left out. A fetch that fails (unreachable, refused, no such
 * branch) fails the run: nothing is deleted.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { decodeText } from '../../../extractors/index.ts';
import { lookupFileType } from '../../documents/suffix.ts';
import { globMatcher } from '../glob.ts';
import { EVERYONE, pathRules, toPermissions } from '../grants.ts';
import { SkippedItem, type ConnectorModule, type RunContext, type SourceDocument, type SourceItem } from '../types.ts';
import { BlobReader, gitRecords, runGit, type GitEnv } from './git.ts';
import { GitCredentials, GitSettings, repositoryName } from './settings.ts';

type Run = RunContext<GitSettings, GitCredentials>;

interface Entry {
  path: string;
  oid: string;
  size: number;
}
interface LastCommit {
  at: number;
  author: string;
}

const INDEXED_REF = 'refs/heads/indexed';
const LOCAL_TIMEOUT_MS = 120_000;
const BINARY_PROBE = 8000;
const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\n/;

async function* items(run: Run): AsyncGenerator<SourceItem> {
  const s = run.settings;
  const gitDir = join(run.workDir, 'repository.git');
  const env: GitEnv = { home: run.workDir, signal: run.signal, authorization: authorization(run) };
  const git = (args: string[], timeout = LOCAL_TIMEOUT_MS) => runGit([`--git-dir=${gitDir}`, ...args], env, timeout);
  if (!existsSync(join(gitDir, 'HEAD'))) await runGit(['init', '--bare', '--quiet', gitDir], env, LOCAL_TIMEOUT_MS);
  const source = s.branch ? `refs/heads/${s.branch}` : 'HEAD';
  await git(
    ['fetch', '--quiet', '--no-tags', '--force', '--', s.repository, `+${source}:${INDEXED_REF}`],
    s.timeout_ms,
  );
  const commit = (await git(['rev-parse', '--verify', '--end-of-options', `${INDEXED_REF}^{commit}`])).trim();

  const include = s.include.length > 0 ? globMatcher(s.include) : null;
  const exclude = globMatcher(s.exclude);
  const entries: Entry[] = [];
  for await (const rec of gitRecords(
    [`--git-dir=${gitDir}`, 'ls-tree', '-r', '-z', '--long', commit],
    env,
    LOCAL_TIMEOUT_MS,
  )) {
    const m = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t(.*)$/s.exec(rec);
    if (!m || m[2] !== 'blob' || m[1] === '120000') continue; // submodules, symbolic links
    const path = m[5];
    if (exclude.matches(path) || (include && !include.matches(path))) continue;
    entries.push({ path, oid: m[3], size: Number(m[4]) });
  }
  run.setTotal(entries.length);
  const changed = new Set(entries.filter((e) => needsReading(run, e)).map((e) => e.path));
  const last = await lastCommits(gitDir, env, commit, changed);

  const name = s.name || repositoryName(s.repository);
  const permissions = s.permissions.mode === 'paths' ? pathRules(s.permissions.paths, s.permissions.default) : null;
  const limit = s.max_file_bytes;
  const blobs = new BlobReader(gitDir, env, LOCAL_TIMEOUT_MS);
  try {
    for (const e of entries) {
      if (run.signal.aborted) return;
      const lm = modifiedAt(run, e, last.get(e.path));
      yield {
        key: e.path,
        version: e.oid,
        memo: lm === undefined ? undefined : { lm },
        load: async (): Promise<SourceDocument> => {
          if (e.size > limit) throw new SkippedItem(`the file has ${e.size} bytes, more than the limit of ${limit}`);
          const bytes = await blobs.read(e.oid, e.size);
          if (bytes.subarray(0, BINARY_PROBE).includes(0)) throw new SkippedItem('a binary file');
          const text = decodeText(bytes);
          if (LFS_POINTER.test(text)) throw new SkippedItem('a Git LFS pointer (the file is not in the repository)');
          const fileName = basename(e.path);
          const markdown = /^readme(\.|$)/i.test(fileName) || /\.(md|markdown|mdown|mkd)$/i.test(fileName);
          return {
            title: fileName,
            file_type: markdown ? 'markdown' : 'file',
            path: `${name}/${e.path}`,
            path_preview: previewUrl(s, name, e.path, commit) || undefined,
            author: last.get(e.path)?.author || undefined,
            last_modified: lm === undefined ? undefined : new Date(lm).toISOString(),
            body: { mime_type: markdown ? 'text/markdown' : textMediaType(fileName), text },
            permissions: toPermissions(permissions ? permissions(e.path) : EVERYONE),
          };
        },
      };
    }
  } finally {
    await blobs.close();
  }
}

function needsReading(run: Run, e: Entry): boolean {
  const prev = run.previous(e.path);
  return !prev || prev.failed || prev.version !== e.oid;
}

/**
 * The last commit date of a changed file, made later than the one it was pushed with before:
 * the state table ignores an edit that keeps `last_modified`, and two commits can share a second.
 */
function modifiedAt(run: Run, e: Entry, commit: LastCommit | undefined): number | undefined {
  const prev = run.previous(e.path);
  const before = (prev?.memo as { lm?: number } | undefined)?.lm;
  if (!needsReading(run, e)) return before;
  if (commit === undefined) return undefined;
  return before !== undefined && prev?.version !== e.oid && commit.at <= before ? before + 1000 : commit.at;
}

/**
 * Date and author of the newest commit of the branch's first-parent line touching each path of
 * `paths` (a merge counts as changing what it brought in), in one pass over the history; a path
 * the pass does not attribute (a shallow history) gets the indexed commit's.
 */
async function lastCommits(gitDir: string, env: GitEnv, commit: string, paths: Set<string>) {
  const out = new Map<string, LastCommit>();
  if (paths.size === 0) return out;
  let head: LastCommit | undefined;
  let current: LastCommit = { at: 0, author: '' };
  let field = 0;
  const args = [`--git-dir=${gitDir}`, 'log', '-z', '--first-parent', '-m', '--name-only', '--no-renames'];
  args.push('--format=%x01%ct%x00%an', commit);
  for await (const rec of gitRecords(args, env, LOCAL_TIMEOUT_MS)) {
    if (rec.startsWith('\x01')) {
      current = { at: Number(rec.slice(1)) * 1000, author: '' };
      head ??= current;
      field = 1;
    } else if (field === 1) {
      current.author = rec;
      field = 2;
    } else {
      const path = field === 2 ? rec.replace(/^\n/, '') : rec;
      field = 3;
      if (path && paths.has(path) && !out.has(path)) {
        out.set(path, current);
        if (out.size === paths.size) break;
      }
    }
  }
  if (head) for (const p of paths) if (!out.has(p)) out.set(p, head);
  return out;
}

function textMediaType(fileName: string): string {
  const type = lookupFileType(undefined, fileName)?.mediaTypes[0];
  return type?.startsWith('text/') ? type : 'text/plain';
}

function previewUrl(s: GitSettings, name: string, path: string, commit: string): string {
  if (!s.url_template) return '';
  return s.url_template
    .replaceAll('{path}', path.split('/').map(encodeURIComponent).join('/'))
    .replaceAll('{name}', encodeURIComponent(name))
    .replaceAll('{branch}', encodeURIComponent(s.branch ?? 'HEAD'))
    .replaceAll('{commit}', commit);
}

function authorization(run: Run): string | undefined {
  const c = run.credentials;
  if (!c || !/^https?:\/\//i.test(run.settings.repository)) return undefined;
  return `Basic ${Buffer.from(`${c.username}:${c.password}`, 'utf8').toString('base64')}`;
}

export const gitConnector: ConnectorModule<GitSettings, GitCredentials> = {
  type: 'codehost',
  category: 'codehost',
  description: 'text files and READMEs of a git repository (a path or a URL git can reach), one branch',
  settings: GitSettings,
  credentials: GitCredentials,
  items,
};
