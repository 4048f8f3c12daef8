/**
 * Search analytics: the records kept on disk and the strict body of
 * `POST /api/analytics/events` (valibot, reported as 422 like every body).
 *
 * Every record names who made it in one of two ways, depending on the
 * ANALYTICS mode: `account` (the account id, mode `on`; the person can
 * delete these) or `visitor` (mode `anonymous`: a hash of the session with a
 * salt that exists only in memory and changes every UTC day, so one day's
 * sessions can be counted but never tied to an account). Never an email.
 *
 * Bounds (README, Limits): query text MAX_QUERY_CHARS after normalising,
 * a comment MAX_COMMENT_CHARS, the question and answer a feedback refers to
 * MAX_QUESTION_CHARS / MAX_ANSWER_CHARS, result ids MAX_ID_CHARS.
 */
import * as v from 'valibot';

export const MAX_QUERY_CHARS = 500;
export const MAX_COMMENT_CHARS = 1000;
export const MAX_QUESTION_CHARS = 2000;
export const MAX_ANSWER_CHARS = 4000;
export const MAX_ID_CHARS = 2048;
/** Largest body of POST /api/analytics/events (413 above). */
export const MAX_EVENT_BYTES = 16 * 1024;
/** Results a search page shows (ranks run 1..RESULTS_PER_PAGE). */
export const RESULTS_PER_PAGE = 10;

/** Who made a record: exactly one of the two. */
export type Who = { account: string; visitor?: undefined } | { visitor: string; account?: undefined };

export interface QueryRecord {
  at: string;
  type: 'query';
  /** The id clicks refer to. */
  id: string;
  /** Trimmed, whitespace collapsed, Unicode NFC, lowercase, at most MAX_QUERY_CHARS. */
  query: string;
  language: string;
  /** The API parameters of the filters set (`data_source`, `file_type`, `last_modified_date`). */
  filters: Record<string, string>;
  /** 1-based result page. */
  page: number;
  /** Results shown on this page. */
  results: number;
  /** The query found nothing at all (page 1 without results). */
  zero: boolean;
}

export interface ClickRecord {
  at: string;
  type: 'click';
  query_id: string;
  result_id: string;
  /** 1-based rank on its page. */
  rank: number;
  page: number;
  /** 1-based position over all pages: (page - 1) * RESULTS_PER_PAGE + rank. */
  position: number;
}

export interface FeedbackRecord {
  at: string;
  type: 'feedback';
  /** Chosen by the page per answer: a later record with the same id (and author) replaces an earlier one. */
  id: string;
  rating: 'up' | 'down';
  comment: string;
  question: string;
  answer: string;
  conversation_id?: string;
}

export type AnalyticsRecord = (QueryRecord | ClickRecord | FeedbackRecord) & Who;

/** A query id as the server makes them (crypto-random, base64url). */
export const QUERY_ID = /^q_[A-Za-z0-9_-]{22}$/;
const FEEDBACK_ID = /^[A-Za-z0-9_-]{8,64}$/;

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
const whole = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

export const ClickEvent = v.strictObject({
  type: v.literal('click'),
  query_id: v.pipe(v.string(), v.regex(QUERY_ID)),
  result_id: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_ID_CHARS)),
  rank: whole(1, RESULTS_PER_PAGE),
  page: whole(1, 1_000_000_000),
});

export const FeedbackEvent = v.strictObject({
  type: v.literal('feedback'),
  id: v.pipe(v.string(), v.regex(FEEDBACK_ID)),
  rating: v.picklist(['up', 'down']),
  comment: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(MAX_COMMENT_CHARS)), ''),
  question: v.optional(text(MAX_QUESTION_CHARS), ''),
  answer: v.optional(text(MAX_ANSWER_CHARS), ''),
  conversation_id: v.optional(v.pipe(v.string(), v.regex(/^conv_[0-9a-f]{24}$/))),
});

export const AnalyticsEvent = v.variant('type', [ClickEvent, FeedbackEvent]);
export type ClickInput = v.InferOutput<typeof ClickEvent>;
export type FeedbackInput = v.InferOutput<typeof FeedbackEvent>;
export type EventInput = v.InferOutput<typeof AnalyticsEvent>;

/** The query text as recorded: NFC, trimmed, whitespace collapsed, lowercase, bounded. */
export function normalizeQuery(query: string): string {
  const text = query.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
  return [...text].slice(0, MAX_QUERY_CHARS).join('');
}
