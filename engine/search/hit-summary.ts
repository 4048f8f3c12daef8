/**
 * Summaries of a Searcher's hits: the first meaningful sentences of one text
 * field of the hit's doc in the snapshot (highlight/summary.ts), '' when the
 * doc is gone or the fields hold no text.
 */
import { summarize } from '../highlight/summary.ts';
import type { SummaryOptions } from '../highlight/summary.ts';
import type { Hit } from '../query/types.ts';
import type { SearcherCore } from './searcher-core.ts';

/** First meaningful sentences of the hit's `field` (default body, else the first text field with text). */
export function hitSummary(
  core: SearcherCore,
  hit: Hit,
  opts: Partial<SummaryOptions> & { field?: string } = {},
): string {
  const loc = core.resolve(hit);
  if (!loc) return '';
  const texts = core.segments[loc.segment].text(loc.doc);
  const order = opts.field ? [opts.field] : ['body', ...core.fields.map((f) => f.name)];
  for (const f of order) {
    const t = texts[f];
    if (typeof t === 'string' && t.trim()) return summarize(t, opts);
  }
  return '';
}
