/**
 * Highlight markup: a passage (plain text plus match ranges from the engine)
 * becomes an HTML fragment where every match is wrapped in `<em>...</em>` and
 * all other text is HTML-escaped, so document text can never inject markup.
 * Ranges are clamped to the text, sorted and merged; malformed ranges are
 * dropped.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Sorted, non-overlapping ranges within [0, length). */
function normalizeRanges(ranges: readonly (readonly [number, number])[], length: number): [number, number][] {
  const valid = ranges
    .filter((r) => Array.isArray(r) && Number.isInteger(r[0]) && Number.isInteger(r[1]))
    .map(([s, e]) => [Math.max(0, s), Math.min(length, e)] as [number, number])
    .filter(([s, e]) => s < e)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const r of valid) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** `text` as HTML with the given ranges wrapped in `<em>`. */
export function highlightMarkup(text: string, ranges: readonly (readonly [number, number])[]): string {
  let out = '';
  let at = 0;
  for (const [s, e] of normalizeRanges(ranges, text.length)) {
    out += escapeHtml(text.slice(at, s)) + '<em>' + escapeHtml(text.slice(s, e)) + '</em>';
    at = e;
  }
  return out + escapeHtml(text.slice(at));
}
