/**
 * Region helpers shared by the Snowball stemmers: R1 and R2 are found by
 * "going past" a vowel followed by a non-vowel (snowballstem.org, "R1 and R2").
 * Each language passes its own vowel test.
 */

/** Position just after the first vowel-then-non-vowel at or after `from`, or -1. */
export function gopastVNonV(w: string, from: number, isV: (c: number) => boolean): number {
  let i = from;
  const n = w.length;
  while (i < n && !isV(w.charCodeAt(i))) i++;
  if (i >= n) return -1;
  i++;
  while (i < n && isV(w.charCodeAt(i))) i++;
  if (i >= n) return -1;
  return i + 1;
}
