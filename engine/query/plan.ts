/**
 * Query planning: from a ParsedQuery to weighted units with global statistics
 * (summed across the snapshot's segments), then to per-segment scorers.
 *
 * Words are scored across the text fields by BM25F (FieldScoring 'combined',
 * the default: one clause per word, see scorer/combined-scorer.ts) or by per-field
 * BM25 sums ('sum': one clause per (word, field), each field with its own df,
 * docCount and avgdl, times its boost). A word's alternatives form a synonym
 * group scored by its best alternative. Compound parts become extra optional
 * clauses with weight × PART_BOOST. A phrase is one clause per field, scored by
 * BM25 of the phrase frequency with the summed idf of its slots (the idf of a
 * slot is that of its most frequent alternative), times the field boost.
 */
import type { PostingsIterator, SegmentReader } from '../segment/types.ts';
import { bm25TermWeight } from '../similarity/bm25.ts';
import type { Bm25Params, TermWeight } from '../similarity/bm25.ts';
import { lengthTable, MaxScorer, TermScorer } from '../scorer/scorers.ts';
import { PhraseScorer, SlotPostings } from '../scorer/phrase-scorer.ts';
import { CombinedScorer } from '../scorer/combined-scorer.ts';
import type { Scorer } from '../scorer/scorers.ts';
import type { ParsedQuery, PhraseSlot, QueryClause } from './types.ts';
import { QueryError } from './parser.ts';

/** Weight factor of compound-part clauses relative to whole words. */
export const PART_BOOST = 0.5;

export type Unit =
  | { kind: 'terms'; field: string; alts: { term: string; w: TermWeight; lengths: Float64Array }[] }
  | {
      kind: 'combined';
      allFields: readonly { name: string; boost: number }[];
      alts: { term: string; w: TermWeight; fields: { name: string; boost: number }[] }[];
    }
  | { kind: 'phrase'; field: string; slots: PhraseSlot[]; w: TermWeight };

/**
 * How a word is scored across text fields:
 *  - 'combined' (default): BM25F as Lucene's CombinedFieldQuery (scorer/combined-scorer.ts), one clause per word;
 *  - 'sum': one BM25 per field with its own statistics, times the field boost, summed.
 */
export type FieldScoring = 'combined' | 'sum';

export interface QueryPlan {
  /** Scoring clauses, canonical order. */
  scoring: Unit[];
  /** Each entry: units of one required word/phrase (any field may match). */
  required: Unit[][];
  excluded: Unit[][];
  /** A required item matches nowhere: the query matches nothing. */
  impossible: boolean;
  /** The query text is blank (not merely stopwords): every accepted doc matches with score 0. */
  empty: boolean;
}

export interface PlanContext {
  segments: readonly SegmentReader[];
  fields: readonly { name: string; boost: number }[];
  bm25: Bm25Params;
  /** Default 'combined'. */
  fieldScoring?: FieldScoring;
}

/**
 * Terms known to be absent from a segment, per (immutable) segment reader, so
 * that later searchers of the same snapshot skip their dictionary lookups.
 * Bounded: a segment's sets are dropped when one reaches ABSENT_LIMIT entries.
 */
const absentTerms = new WeakMap<SegmentReader, Map<string, Set<string>>>();
const ABSENT_LIMIT = 50_000;
/** The set of `field`'s terms known absent from `seg` (all fields' sets start over past ABSENT_LIMIT terms). */
function absentIn(seg: SegmentReader, field: string): Set<string> {
  let byField = absentTerms.get(seg);
  if (byField === undefined) absentTerms.set(seg, (byField = new Map()));
  let set = byField.get(field);
  if (set === undefined) byField.set(field, (set = new Set()));
  else if (set.size >= ABSENT_LIMIT) {
    byField.clear();
    byField.set(field, (set = new Set()));
  }
  return set;
}

/** Entries of GlobalStats' memo of capped document frequencies before it is cleared. */
const CAPPED_LIMIT = 200_000;
/** (field, term) pairs whose per-segment dfs a GlobalStats memoises before starting over. */
const DF_LIMIT = 100_000;

/** Per-segment dfs of one (field, term) followed by their sum, and postings opened for them but not used yet. */
interface TermDfs {
  per: Float64Array;
  /** Per segment: postings (without positions) opened while counting, until a scorer takes them. */
  open: (PostingsIterator | null)[] | null;
}

/** Global statistics, memoised per searcher. */
export class GlobalStats {
  /** Per field, per term (two levels: no key string is built per lookup). */
  private df = new Map<string, Map<string, TermDfs>>();
  /** Entries of `df` in all. */
  private dfSize = 0;
  private readonly fieldStats = new Map<string, { docCount: number; avgdl: number }>();
  private readonly capped = new Map<string, { df: number; exact: boolean }>();
  private bySize: number[] | undefined;

  constructor(private readonly segments: readonly SegmentReader[]) {}

  /** The memo of `field`'s terms. */
  private dfOf(field: string): Map<string, TermDfs> {
    let m = this.df.get(field);
    if (m === undefined) this.df.set(field, (m = new Map()));
    return m;
  }

  field(field: string): { docCount: number; avgdl: number } {
    let f = this.fieldStats.get(field);
    if (!f) {
      let docCount = 0;
      let sum = 0;
      for (const s of this.segments) {
        const st = s.fieldStats(field);
        if (st) {
          docCount += st.docCount;
          sum += st.sumTotalTermFreq;
        }
      }
      f = { docCount, avgdl: docCount > 0 ? sum / docCount : 0 };
      this.fieldStats.set(field, f);
    }
    return f;
  }

  docFreq(field: string, term: string): number {
    const per = this.perSegment(field, term).per;
    return per[per.length - 1];
  }

  /**
   * df of (field, term), exact when at most `atMost`, else some value above it:
   * segments are visited largest first and the sum stops once past `atMost`.
   * Dictionary lookups only (no postings opened); bounded memo per searcher.
   */
  docFreqAtMost(field: string, term: string, atMost: number): number {
    const memo = this.dfOf(field).get(term);
    if (memo !== undefined) return memo.per[memo.per.length - 1];
    const k = `${field}\u0000${term}`;
    const known = this.capped.get(k);
    if (known !== undefined && (known.exact || known.df > atMost)) return known.df;
    const order = (this.bySize ??= this.segments
      .map((_, i) => i)
      .sort((a, b) => this.segments[b].maxDoc - this.segments[a].maxDoc || a - b));
    const per = new Float64Array(this.segments.length + 1);
    let sum = 0;
    let exact = true;
    for (const i of order) {
      const df = this.segments[i].termStats(field, term)?.docFreq ?? 0;
      per[i] = df;
      sum += df;
      if (sum > atMost) {
        exact = false;
        break;
      }
    }
    if (exact) {
      // Complete per-segment dfs: later plans of this term skip the segments without it.
      per[this.segments.length] = sum;
      this.remember(field, term, { per, open: null });
      return sum;
    }
    if (this.capped.size >= CAPPED_LIMIT) this.capped.clear();
    this.capped.set(k, { df: sum, exact });
    return sum;
  }

  /** Postings (without positions) of (field, term) in segment `i`: the one opened for statistics if unused, else a new one. */
  postings(field: string, term: string, i: number): PostingsIterator | null {
    const e = this.perSegment(field, term);
    const it = e.open?.[i];
    if (it) {
      e.open![i] = null;
      return it;
    }
    return e.per[i] === 0 ? null : this.segments[i].postings(field, term, false);
  }

  /** df of (field, term) in segment `i` (0 means: do not open its postings there). */
  segmentDocFreq(field: string, term: string, i: number): number {
    return this.perSegment(field, term).per[i];
  }

  /** Memoise per-segment dfs; past DF_LIMIT terms the memo (and unused postings) start over. */
  private remember(field: string, term: string, e: TermDfs): void {
    if (this.dfSize >= DF_LIMIT) {
      this.df = new Map();
      this.dfSize = 0;
    }
    const m = this.dfOf(field);
    if (!m.has(term)) this.dfSize++;
    m.set(term, e);
  }

  /** Per-segment dfs followed by their sum (memoised), with the postings opened to count them. */
  private perSegment(field: string, term: string): TermDfs {
    let e = this.df.get(field)?.get(term);
    if (e === undefined) {
      const n = this.segments.length;
      const per = new Float64Array(n + 1);
      const open: (PostingsIterator | null)[] = new Array(n).fill(null);
      let sum = 0;
      for (let i = 0; i < n; i++) {
        // Opening the postings gives df (cost) with one dictionary lookup; the
        // iterator is kept for the first scorer that needs it.
        const seg = this.segments[i];
        let absent = absentTerms.get(seg);
        if (absent !== undefined && absent.get(field)?.has(term) === true) continue;
        const it = seg.postings(field, term, false);
        const df = it ? it.cost() : 0;
        if (it) open[i] = it;
        else absentIn(seg, field).add(term);
        per[i] = df;
        sum += df;
      }
      per[n] = sum;
      this.remember(field, term, (e = { per, open }));
    }
    return e;
  }
}

/** The pseudo-field statistics of combined (BM25F) scoring: max docCount and Σ boost · sumTotalTermFreq over the fields. */
function combinedStats(ctx: PlanContext, stats: GlobalStats): { docCount: number; sumW: number } {
  let docCount = 0;
  let sumW = 0;
  for (const f of ctx.fields) {
    const fs = stats.field(f.name);
    docCount = Math.max(docCount, fs.docCount);
    sumW += f.boost * fs.avgdl * fs.docCount;
  }
  return { docCount, sumW };
}

/** One 'combined' unit of a word's alternatives (none when no field has any of them). */
function combinedUnits(
  terms: string[],
  boost: number,
  ctx: PlanContext,
  stats: GlobalStats,
  combined: { docCount: number; sumW: number },
): Unit[] {
  const { docCount, sumW } = combined;
  if (docCount === 0) return [];
  const alts: { term: string; w: TermWeight; fields: { name: string; boost: number }[] }[] = [];
  for (const term of terms.length === 1 ? terms : new Set(terms)) {
    let df = 0;
    const fields: { name: string; boost: number }[] = [];
    for (const f of ctx.fields) {
      const d = stats.docFreq(f.name, term);
      if (d > 0 && f.boost > 0) fields.push(f);
      df = Math.max(df, d);
    }
    if (fields.length === 0) continue;
    const w = bm25TermWeight(ctx.bm25, { docFreq: df, docCount, avgFieldLength: sumW / docCount, boost });
    alts.push({ term, w, fields });
  }
  return alts.length > 0 ? [{ kind: 'combined', allFields: ctx.fields, alts }] : [];
}

/** One 'terms' unit per field with any of the word's alternatives (FieldScoring 'sum'). */
function fieldUnits(terms: string[], boost: number, ctx: PlanContext, stats: GlobalStats): Unit[] {
  const out: Unit[] = [];
  for (const f of ctx.fields) {
    const fs = stats.field(f.name);
    if (fs.docCount === 0) continue;
    const alts: { term: string; w: TermWeight; lengths: Float64Array }[] = [];
    for (const term of terms.length === 1 ? terms : new Set(terms)) {
      const df = stats.docFreq(f.name, term);
      if (df === 0) continue;
      const w = bm25TermWeight(ctx.bm25, {
        docFreq: df,
        docCount: fs.docCount,
        avgFieldLength: fs.avgdl,
        boost: f.boost * boost,
      });
      alts.push({ term, w, lengths: lengthTable(w) });
    }
    if (alts.length > 0) out.push({ kind: 'terms', field: f.name, alts });
  }
  return out;
}

/** One 'phrase' unit per field where every slot has a term. */
function phraseUnits(slots: PhraseSlot[], boost: number, ctx: PlanContext, stats: GlobalStats): Unit[] {
  const out: Unit[] = [];
  for (const f of ctx.fields) {
    const fs = stats.field(f.name);
    if (fs.docCount === 0) continue;
    let idfSum = 0;
    let possible = true;
    for (const slot of slots) {
      let maxDf = 0;
      for (const t of slot.terms) maxDf = Math.max(maxDf, stats.docFreq(f.name, t));
      if (maxDf === 0) possible = false;
      idfSum += Math.log(1 + (fs.docCount - maxDf + 0.5) / (maxDf + 0.5));
    }
    if (!possible) continue;
    const unit = bm25TermWeight(ctx.bm25, { docFreq: 0, docCount: 0, avgFieldLength: fs.avgdl, boost: f.boost });
    unit.weight = f.boost * boost * idfSum * (ctx.bm25.k1 + 1);
    out.push({ kind: 'phrase', field: f.name, slots, w: unit });
  }
  return out;
}

/** The units of a word's alternatives: one combined unit (`combined` given: BM25F), else one per field. */
function wordUnits(
  terms: string[],
  boost: number,
  ctx: PlanContext,
  stats: GlobalStats,
  combined: { docCount: number; sumW: number } | null,
): Unit[] {
  return combined !== null ? combinedUnits(terms, boost, ctx, stats, combined) : fieldUnits(terms, boost, ctx, stats);
}

export function buildPlan(q: ParsedQuery, ctx: PlanContext, stats: GlobalStats): QueryPlan {
  const plan: QueryPlan = {
    scoring: [],
    required: [],
    excluded: [],
    impossible: false,
    empty: q.clauses.length === 0 && q.text.trim() === '',
  };
  const byCombined = (ctx.fieldScoring ?? 'combined') === 'combined';
  // the same for every word of the query (fields and snapshot statistics are fixed)
  const combined = byCombined && q.clauses.length > 0 ? combinedStats(ctx, stats) : null;
  for (const c of mergeDuplicates(q.clauses)) {
    const boost = c.boost ?? 1;
    const units =
      c.kind === 'word'
        ? wordUnits(c.word.terms, boost, ctx, stats, combined)
        : phraseUnits(c.slots, boost, ctx, stats);
    if (c.occur === 'mustNot') {
      if (units.length > 0) plan.excluded.push(units);
      continue;
    }
    if (c.occur === 'must') {
      if (units.length === 0) plan.impossible = true;
      else plan.required.push(units);
    }
    plan.scoring.push(...units);
    if (c.kind === 'word') {
      for (const part of c.word.parts) {
        if (c.word.terms.includes(part)) continue;
        plan.scoring.push(...wordUnits([part], PART_BOOST * boost, ctx, stats, combined));
      }
    }
  }
  if (plan.scoring.length === 0 && plan.required.length === 0 && !plan.empty) plan.impossible = true;
  return plan;
}

/**
 * The plan of an OR of distinct index terms, boost 1, no compound parts (a more-like-this
 * query, see mlt/more-like-this.ts termsQuery): the same plan as buildPlan of
 * termsQuery(terms), without building, checking and merging clauses. `terms` must be distinct.
 */
export function buildTermsPlan(terms: readonly { term: string }[], ctx: PlanContext, stats: GlobalStats): QueryPlan {
  const plan: QueryPlan = { scoring: [], required: [], excluded: [], impossible: false, empty: false };
  if (terms.length === 0) return { ...plan, empty: true };
  const combined = (ctx.fieldScoring ?? 'combined') === 'combined' ? combinedStats(ctx, stats) : null;
  for (let i = 0; i < terms.length; i++) {
    const units = wordUnits([terms[i].term], 1, ctx, stats, combined);
    for (let j = 0; j < units.length; j++) plan.scoring.push(units[j]);
  }
  if (plan.scoring.length === 0) plan.impossible = true;
  return plan;
}

/**
 * Identical clauses (same kind, occurrence, terms and parts) become one clause
 * whose boost is the sum of theirs: "webster webster" scores as before with
 * half the work (BM25 is linear in the weight, up to the last bit of rounding).
 */
function mergeDuplicates(clauses: readonly QueryClause[]): QueryClause[] {
  const byKey = new Map<string, QueryClause>();
  const out: QueryClause[] = [];
  for (const c of clauses) {
    const b = c.boost ?? 1;
    if (!(b >= 0) || !Number.isFinite(b))
      throw new QueryError('invalid_query', 'clause boost must be a finite number >= 0');
    const key =
      c.kind === 'word' ? wordKey(c.occur, c.word.terms, c.word.parts) : JSON.stringify([c.kind, c.occur, c.slots]);
    const seen = byKey.get(key);
    if (!seen) {
      const copy = { ...c };
      byKey.set(key, copy);
      out.push(copy);
    } else if (c.occur !== 'mustNot') {
      seen.boost = (seen.boost ?? 1) + (c.boost ?? 1);
    }
  }
  return out;
}

/** Identity of a word clause for mergeDuplicates: occurrence, then length-prefixed terms and parts. */
function wordKey(occur: string, terms: readonly string[], parts: readonly string[]): string {
  let k = `w${occur}|${terms.length}|${parts.length}|`;
  for (const list of [terms, parts]) {
    for (const t of list) {
      if (typeof t !== 'string') return JSON.stringify(['word', occur, terms, parts]);
      k += `${t.length}:${t}`;
    }
  }
  return k;
}

/** Open the scorer of one unit on a segment; null when the segment lacks its terms. */
export function openUnit(u: Unit, reader: SegmentReader, stats?: GlobalStats, segment = -1): Scorer | null {
  if (u.kind === 'terms') {
    const subs: Scorer[] = [];
    for (const a of u.alts) {
      const it =
        stats && segment >= 0 ? stats.postings(u.field, a.term, segment) : reader.postings(u.field, a.term, false);
      if (it) subs.push(new TermScorer(it, a.w, reader, u.field, a.lengths));
    }
    if (subs.length === 0) return null;
    return subs.length === 1 ? subs[0] : new MaxScorer(subs);
  }
  if (u.kind === 'combined') {
    const subs: Scorer[] = [];
    for (const a of u.alts) {
      const postings: { it: PostingsIterator; boost: number; field: string }[] = [];
      for (const f of a.fields) {
        const it =
          stats && segment >= 0 ? stats.postings(f.name, a.term, segment) : reader.postings(f.name, a.term, false);
        if (it) postings.push({ it, boost: f.boost, field: f.name });
      }
      if (postings.length > 0) subs.push(new CombinedScorer(postings, a.w, reader, u.allFields));
    }
    if (subs.length === 0) return null;
    return subs.length === 1 ? subs[0] : new MaxScorer(subs);
  }
  const slots: SlotPostings[] = [];
  for (const slot of u.slots) {
    const its = [];
    for (const t of slot.terms) {
      if (stats && segment >= 0 && stats.segmentDocFreq(u.field, t, segment) === 0) continue;
      const it = reader.postings(u.field, t, true);
      if (it) its.push(it);
    }
    if (its.length === 0) return null;
    slots.push(new SlotPostings(its));
  }
  return new PhraseScorer(
    slots,
    u.slots.map((s) => s.offset),
    u.w,
    reader,
    u.field,
  );
}

/** Any-field matcher of one required/excluded item; null when it cannot match in this segment. */
export function openItem(units: Unit[], reader: SegmentReader, stats?: GlobalStats, segment = -1): Scorer | null {
  const subs: Scorer[] = [];
  for (const u of units) {
    const s = openUnit(u, reader, stats, segment);
    if (s) subs.push(s);
  }
  if (subs.length === 0) return null;
  return subs.length === 1 ? subs[0] : new MaxScorer(subs);
}
