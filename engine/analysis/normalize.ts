/**
 * Word normalisations that make spelling variants of one term meet, applied by
 * the analyzer to index and query words alike (so they only ever conflate forms,
 * never lose matches):
 *
 *  - foldGreek: Greek letters in Latin-script words become their Latin names ("tnfα" ->
 *    "tnfalpha", "β" -> "beta"), as scientific text writes both; Greek words and μ stay.
 *  - americanSpelling (English): British spellings of the Greek/Latin-derived and
 *    -our words take the American form ("leukaemia" -> "leukemia", "oestrogen" ->
 *    "estrogen", "diarrhoea" -> "diarrhea", "tumour" -> "tumor").
 *  - alnumRuns: a word mixing letters and digits ("p53", "il6", "nih3t3") in its
 *    letter and digit runs, which the analyzer adds as parts at the word's position.
 *  - joinHyphenated: the closed form of a hyphenated compound, which the analyzer
 *    analyses as one word for the compound's whole term, so "non-coding" meets
 *    "noncoding", "IL-6" meets "IL6" and "T-cells" meets "T-cell".
 *
 * Every function takes lower-case input and returns its input unchanged (same
 * string) when no rule applies.
 */

const GREEK: Record<string, string> = {
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  ε: 'epsilon',
  ζ: 'zeta',
  η: 'eta',
  θ: 'theta',
  ι: 'iota',
  κ: 'kappa',
  λ: 'lambda',
  ν: 'nu',
  ξ: 'xi',
  ο: 'omicron',
  π: 'pi',
  ρ: 'rho',
  σ: 'sigma',
  ς: 'sigma',
  τ: 'tau',
  υ: 'upsilon',
  φ: 'phi',
  ϕ: 'phi',
  χ: 'chi',
  ψ: 'psi',
  ω: 'omega',
};

/**
 * Greek letters (lower case, U+03B1..U+03C9 and ϕ) replaced by their Latin names, in a word that
 * also has an ASCII letter or digit ("tnfα", "1β") or is one Greek letter ("β"); Greek words
 * ("ωμέγα") and μ (mostly the SI prefix micro) are kept.
 */
export function foldGreek(w: string): string {
  let i = 0;
  for (; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c >= 0x3b1 && c <= 0x3d5 && c !== 0x3bc && GREEK[w[i]] !== undefined) break;
  }
  if (i === w.length) return w;
  if (w.length > 1 && !/[a-z0-9]/.test(w)) return w;
  let out = w.slice(0, i);
  for (; i < w.length; i++) {
    const name = w.charCodeAt(i) === 0x3bc ? undefined : GREEK[w[i]];
    out += name ?? w[i];
  }
  return out;
}

const AE = /(?<=[a-z])ae(?=[a-z])/g;
const OE_INITIAL = /^oe(?=[^aeiouy])/;
const OEA = /oea/g;
const OE_CF = /([cf])oe(?=[lt])/g;
const OUR = /^([a-z]{2,}[^aeiou]|[a-z]{3,}i)our(s|ed|ing|al|able|ite|ites|ful|less|ism)?$/;

/** British to American spelling of a lower-case English word (ASCII rules; other words unchanged). */
export function americanSpelling(w: string): string {
  if (w.length < 5) return w;
  let x = w;
  if (x.indexOf('ae') > 0) x = x.replace(AE, 'e');
  if (x.indexOf('oe') >= 0) x = x.replace(OE_INITIAL, 'e').replace(OEA, 'ea').replace(OE_CF, '$1e');
  if (x.indexOf('our') > 0) x = x.replace(OUR, '$1or$2');
  return x === w ? w : x;
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The letter and digit runs of a word that has both ("p53" -> ["p", "53"]), else null. */
export function alnumRuns(w: string): string[] | null {
  let digits = false;
  let letters = false;
  for (let i = 0; i < w.length; i++) {
    if (isDigitCode(w.charCodeAt(i))) digits = true;
    else letters = true;
    if (digits && letters) break;
  }
  if (!digits || !letters) return null;
  const runs: string[] = [];
  let start = 0;
  for (let i = 1; i <= w.length; i++) {
    if (i === w.length || isDigitCode(w.charCodeAt(i)) !== isDigitCode(w.charCodeAt(start))) {
      runs.push(w.slice(start, i));
      start = i;
    }
  }
  return runs;
}

/** Closed form of a hyphenated compound: the word without its hyphens ("non-coding" -> "noncoding"). */
export function joinHyphenated(w: string): string {
  return w.indexOf('-') < 0 ? w : w.split('-').join('');
}
