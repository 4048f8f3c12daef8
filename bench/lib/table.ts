/**
 * Plain-text and Markdown table printer for scenario results: one row per
 * figure, one column per engine, plus "peer / ours" ratio columns.
 */
import { machineLine } from './machine.ts';

export type Cell = number | string | null | undefined;

export interface Row {
  label: string;
  values: Cell[];
  /** Digits after the decimal point for numbers (default 2). */
  digits?: number;
}

function fmt(v: Cell, digits: number): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'string') return v;
  if (!Number.isFinite(v)) return String(v);
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/**
 * Prints a Markdown table. `engines[0]` is ours; for every other engine a
 * ratio column "<peer>/ours" is added for numeric rows.
 */
export function printTable(title: string, engines: string[], rows: Row[]): string {
  const header = ['figure', ...engines, ...engines.slice(1).map((e) => `${e}/${engines[0]}`)];
  const body = rows.map((r) => {
    const digits = r.digits ?? 2;
    const ours = r.values[0];
    const ratios = r.values
      .slice(1)
      .map((v) => (typeof v === 'number' && typeof ours === 'number' && ours !== 0 ? `${fmt(v / ours, 2)}x` : '-'));
    return [r.label, ...r.values.map((v) => fmt(v, digits)), ...ratios];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  const out = [
    `\n### ${title}\n`,
    line(header),
    `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...body.map(line),
    '',
    machineLine(),
    '',
  ].join('\n');
  console.log(out);
  return out;
}
