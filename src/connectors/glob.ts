/**
 * Glob patterns of include and exclude settings, matched against `/`-separated
 * relative paths (or URL paths): `*` any run of characters within a segment,
 * `**` any number of whole segments, `?` one character, `[abc]`, `[a-z]` and
 * `[!a]` classes, `{a,b}` alternatives. A pattern without a `/` matches the
 * last segment (a file name at any depth: `*.pdf`, `.DS_Store`); a pattern
 * with one matches the whole path (`archive/**`, `/blog/*`, a leading `/`
 * ignored). Patterns are compiled once to a regular expression; their size is
 * bounded (MAX_PATTERN_CHARS, MAX_WILDCARDS) so that matching stays cheap.
 */

export const MAX_PATTERN_CHARS = 256;
export const MAX_WILDCARDS = 16;

/** Why a pattern is refused, or undefined when it compiles. */
export function globProblem(pattern: string): string | undefined {
  if (pattern.length === 0) return 'a pattern must not be empty';
  if (pattern.length > MAX_PATTERN_CHARS) return `a pattern has at most ${MAX_PATTERN_CHARS} characters`;
  if ((pattern.match(/[*?]/g)?.length ?? 0) > MAX_WILDCARDS) return `a pattern has at most ${MAX_WILDCARDS} wildcards`;
  let depth = 0;
  for (const ch of pattern) {
    if (ch === '{') depth++;
    else if (ch === '}' && --depth < 0) return 'unbalanced braces';
  }
  if (depth !== 0) return 'unbalanced braces';
  return undefined;
}

const escape = (s: string) => s.replace(/[.+^${}()|[\]\\/]/g, '\\$&');

function translate(p: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    if (ch === '*') {
      if (p[i + 1] === '*') {
        const wholeSegment = (i === 0 || p[i - 1] === '/') && (i + 2 === p.length || p[i + 2] === '/');
        i++;
        if (wholeSegment && p[i + 1] === '/') {
          out += '(?:[^/]*/)*';
          i++;
        } else out += '.*';
      } else out += '[^/]*';
    } else if (ch === '?') out += '[^/]';
    else if (ch === '[') {
      const end = p.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        let body = p.slice(i + 1, end);
        const negate = body.startsWith('!') || body.startsWith('^');
        if (negate) body = body.slice(1);
        out += `[${negate ? '^/' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
        i = end;
      }
    } else if (ch === '{') {
      out += '(?:';
      braces++;
    } else if (ch === '}' && braces > 0) {
      out += ')';
      braces--;
    } else if (ch === ',' && braces > 0) out += '|';
    else out += escape(ch);
  }
  return out;
}

export interface GlobMatcher {
  /** Whether `path` (relative, `/`-separated) matches any of the patterns. */
  matches(path: string): boolean;
  /** Whether a directory can be skipped whole: some pattern matches every path under it. */
  coversDirectory(dir: string): boolean;
}

/** A matcher of any of `patterns` (assumed valid: see globProblem). */
export function globMatcher(patterns: readonly string[]): GlobMatcher {
  const names: RegExp[] = [];
  const paths: RegExp[] = [];
  const dirs: RegExp[] = [];
  for (const raw of patterns) {
    const p = raw.startsWith('/') ? raw.slice(1) : raw;
    if (!p.includes('/')) names.push(new RegExp(`^${translate(p)}$`));
    else {
      paths.push(new RegExp(`^${translate(p)}$`));
      if (p.endsWith('/**')) dirs.push(new RegExp(`^${translate(p.slice(0, -3))}$`));
    }
  }
  return {
    matches(path) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      return names.some((re) => re.test(name)) || paths.some((re) => re.test(path));
    },
    coversDirectory(dir) {
      const name = dir.slice(dir.lastIndexOf('/') + 1);
      return names.some((re) => re.test(name)) || dirs.some((re) => re.test(dir));
    },
  };
}
