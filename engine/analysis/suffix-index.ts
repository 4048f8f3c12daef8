/**
 * Longest-suffix lookup for the stemmers' suffix lists, indexed by the last
 * character so that a step tests only the few suffixes that can match
 * (the role of Snowball's `among` tables).
 */

export type SuffixIndex = ReadonlyMap<number, readonly string[]>;

/** Index of `suffixes` by last UTF-16 code unit, each bucket longest first. */
export function suffixIndex(suffixes: readonly string[]): SuffixIndex {
  const map = new Map<number, string[]>();
  for (const s of suffixes) {
    const c = s.charCodeAt(s.length - 1);
    let b = map.get(c);
    if (b === undefined) map.set(c, (b = []));
    b.push(s);
  }
  for (const b of map.values()) b.sort((a, z) => z.length - a.length);
  return map;
}

/** The longest suffix of `w` in the index, or ''. */
export function longestSuffix(w: string, index: SuffixIndex): string {
  const b = index.get(w.charCodeAt(w.length - 1));
  if (b === undefined) return '';
  for (let i = 0; i < b.length; i++) if (w.endsWith(b[i])) return b[i];
  return '';
}
