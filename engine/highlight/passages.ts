/**
 * Passage highlighting in the manner of Lucene's unified highlighter.
 *
 * The stored text is re-analyzed (same analyzer as indexing), tokens whose
 * term is a query term become match ranges (UTF-16 offsets), the text is split
 * into sentence-ish passages, and each passage with matches is scored like
 * Lucene's PassageScorer: a BM25 over the passage (pivot length 87 chars,
 * k1 = 1.2, b = 0.75) summed over matched terms weighted by their idf, times a
 * small bonus for passages near the start. The best `maxPassages` are returned
 * in document order (as Lucene joins them), each with its own score.
 * No markup: `ranges` are [start, end) offsets into the passage's `text`, and a passage cut
 * out of a longer sentence starts and ends between user-perceived characters.
 */
import type { Token } from '../analysis/types.ts';
import type { Passage } from '../query/types.ts';
import { graphemeCeil, graphemeFloor } from './graphemes.ts';

export interface HighlightOptions {
  /** Passages to return at most. Default 3. */
  maxPassages: number;
  /** Longest passage in characters; longer sentences are cut around their matches at word boundaries. Default 240. */
  maxPassageLength: number;
  /** Only this many leading characters of the text are analyzed. Default 50000. */
  maxAnalyzedChars: number;
}

export const DEFAULT_HIGHLIGHT: Readonly<HighlightOptions> = Object.freeze({
  maxPassages: 3,
  maxPassageLength: 240,
  maxAnalyzedChars: 50000,
});

const PIVOT = 87;
const K1 = 1.2;
const B = 0.75;

/**
 * Sentence-ish boundaries: [start, end) ranges split after . ! ? … followed by space, after the
 * ideographic full stop and full-width ! ? (。！？, with closing quotes or brackets; Chinese and
 * Japanese put no space after them), and at line breaks.
 */
export function splitSentences(text: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /[.!?…]+["')\]]*\s+|[。！？]+[」』）］】〕"'”’]*\s*|\n\s*/g;
  let start = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + m[0].length;
    pushTrimmed(text, start, end, out);
    start = end;
  }
  pushTrimmed(text, start, text.length, out);
  return out;
}

function pushTrimmed(text: string, s: number, e: number, out: [number, number][]): void {
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  if (e > s) out.push([s, e]);
}

/** Token order of match ranges: by start, the longer first. */
const byStart = (a: Token, b: Token): number => a.start - b.start || b.end - a.end;

/** Merge matched token offsets (sorted, overlapping/adjacent compound parts joined). */
function matchRanges(
  tokens: readonly Token[],
  weights: ReadonlyMap<string, number>,
): { s: number; e: number; term: string }[] {
  const hits: Token[] = [];
  let sorted = true;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!weights.has(t.term)) continue;
    if (sorted && hits.length > 0 && byStart(hits[hits.length - 1], t) > 0) sorted = false;
    hits.push(t);
  }
  // (a stable sort leaves tokens already in this order as they are)
  if (!sorted) hits.sort(byStart);
  const out: { s: number; e: number; term: string }[] = [];
  for (const t of hits) {
    const last = out[out.length - 1];
    if (last && t.start < last.e) {
      if (t.end > last.e) last.e = t.end;
      continue;
    }
    out.push({ s: t.start, e: t.end, term: t.term });
  }
  return out;
}

/** Best passages of `text` for query terms `weights` (term -> idf). */
export function highlightText(
  field: string,
  text: string,
  tokens: readonly Token[],
  weights: ReadonlyMap<string, number>,
  options: Partial<HighlightOptions> = {},
): Passage[] {
  const o = { ...DEFAULT_HIGHLIGHT, ...options };
  if (weights.size === 0 || o.maxPassages <= 0) return [];
  const matches = matchRanges(tokens, weights);
  if (matches.length === 0) return [];
  const candidates: { start: number; end: number; score: number; ranges: { s: number; e: number }[] }[] = [];
  let mi = 0;
  for (const [ss, se] of splitSentences(text)) {
    while (mi < matches.length && matches[mi].s < ss) mi++;
    if (mi >= matches.length || matches[mi].e > se) continue;
    const inside: { s: number; e: number; term: string }[] = [];
    for (let j = mi; j < matches.length && matches[j].e <= se; j++) inside.push(matches[j]);
    if (inside.length === 0) continue;
    let start = ss;
    let end = se;
    if (end - start > o.maxPassageLength) [start, end] = cutWindow(text, ss, se, inside[0].s, o.maxPassageLength);
    const kept = inside.filter((m) => m.s >= start && m.e <= end);
    if (kept.length === 0) continue;
    const tf = new Map<string, number>();
    for (const m of kept) tf.set(m.term, (tf.get(m.term) ?? 0) + 1);
    const len = end - start;
    let score = 0;
    for (const [term, f] of tf) {
      score += (weights.get(term) ?? 0) * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * len) / PIVOT)));
    }
    score *= 1 + 1 / Math.log(PIVOT + start);
    candidates.push({ start, end, score, ranges: kept });
  }
  const best = candidates
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.score - a.c.score || a.i - b.i)
    .slice(0, o.maxPassages)
    .sort((a, b) => a.c.start - b.c.start);
  return best.map(({ c }) => ({
    field,
    text: text.slice(c.start, c.end),
    ranges: c.ranges.map((r) => [r.s - c.start, r.e - c.start] as [number, number]),
    score: c.score,
  }));
}

/**
 * A window of at most `max` chars of [ss, se) containing `anchor`, cut at word boundaries where
 * there are spaces, and never inside a character (graphemes.ts).
 */
function cutWindow(text: string, ss: number, se: number, anchor: number, max: number): [number, number] {
  let start = Math.max(ss, anchor - Math.floor(max / 3));
  let end = Math.min(se, start + max);
  start = Math.max(ss, end - max);
  if (start > ss) {
    const sp = text.indexOf(' ', start);
    if (sp >= 0 && sp < anchor) start = sp + 1;
  }
  if (end < se) {
    const sp = text.lastIndexOf(' ', end);
    if (sp > anchor) end = sp;
  }
  // without a space to cut at (CJK, emoji, long words), cut between characters, inside the window
  return [graphemeCeil(text, start), Math.max(graphemeFloor(text, end), anchor)];
}
