/**
 * Naming rules of the Indexing API: the slug form of datasource names and sub
 * keys, sub keys derived from human-readable names, group names, and user
 * email normalisation. Pure functions; callers decide how a violation is
 * reported (422 in a request body, 400 for group names and emails).
 */

/** The spec's slug form: lowercase words of letters and digits joined by single underscores. */
export const SLUG_PATTERN = '^[a-z][a-z0-9]*(_[a-z][a-z0-9]*)*$';
export const SLUG_RE = new RegExp(SLUG_PATTERN);

export const isSlug = (s: string): boolean => SLUG_RE.test(s);

/**
 * Derive a sub key from a name: "Human Resources" -> "human_resources",
 * "Über Uns" -> "uber_uns", "Team 2" -> "team2". Accents are dropped, runs of
 * other characters separate words, a word starting with a digit is appended
 * to the previous word. Returns undefined when the result is not a slug
 * (empty, or the first word starts with a digit).
 */
export function deriveKey(name: string): string | undefined {
  const key = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
    .reduce((words: string[], w) => {
      // A word starting with a digit cannot start a slug word: it joins the previous one ("Team 2" -> team2).
      if (/^\d/.test(w) && words.length > 0) words[words.length - 1] += w;
      else words.push(w);
      return words;
    }, [])
    .join('_');
  return isSlug(key) ? key : undefined;
}

/** Users are identified by their login email: trimmed and lowercased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** The reserved service prefix no group name may start with (case-insensitively). */
export const RESERVED_GROUP_PREFIX = 'svc';

/** Why `name` is not a valid group name, or undefined when it is. */
export function groupNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'Group name must not be empty';
  if (/\s/u.test(name)) return `Group name '${name}' must not contain whitespace`;
  if (name.slice(0, RESERVED_GROUP_PREFIX.length).toLowerCase() === RESERVED_GROUP_PREFIX) {
    return `Group name '${name}' must not start with the reserved prefix '${RESERVED_GROUP_PREFIX}'`;
  }
  return undefined;
}

/** Filter value of a sub in compound form: `{datasource}__{sub}` or `{datasource}__{sub}__{child}`. */
export const compoundSubValue = (datasource: string, key: string, parentKey?: string): string =>
  parentKey === undefined ? `${datasource}__${key}` : `${datasource}__${parentKey}__${key}`;
