/**
 * Prometheus text parsed by `parse-prometheus-text-format` (a port of the Prometheus Python
 * client's parser; it ships no type declarations), with lookups for the tests of /metrics.
 *
 * The parser reads every line (a malformed one throws), but it folds a histogram's samples into
 * one unlabelled histogram. So the text is parsed twice: as served, for the families and their
 * types, and with the histograms' TYPE lines marked untyped, for the samples: then `x_bucket`,
 * `x_sum` and `x_count` come out as families of their own (one per run of lines) with every label kept.
 */
import { createRequire } from 'node:module';

export interface Sample {
  labels?: Record<string, string>;
  value: string;
}

export interface Family {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: Sample[];
}

const parse = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => Family[];

export interface Exposition {
  /** The families as served, by name (types and help). */
  families: Map<string, Family>;
  /** Samples by sample name (`x`, or `x_bucket`, `x_sum`, `x_count` of a histogram). */
  samples: Map<string, Sample[]>;
}

export function parsePrometheus(text: string): Exposition {
  const families = new Map(parse(text).map((f) => [f.name, f]));
  const flat = parse(text.replace(/^# TYPE (\S+) (histogram|summary)$/gm, '# TYPE $1 untyped'));
  // A histogram's lines alternate between its sample names, so one name comes out as several families.
  const samples = new Map<string, Sample[]>();
  for (const f of flat) samples.set(f.name, [...(samples.get(f.name) ?? []), ...f.metrics]);
  return { families, samples };
}

/** The samples named `name` whose labels include `labels`. */
export function samples(m: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  const found = m.samples.get(name);
  if (!found) throw new Error(`no samples named ${name}`);
  return found.filter((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v));
}

/** The sum over matching samples: of a counter or gauge its values, of a histogram its counts. */
export function total(m: Exposition, family: string, labels: Record<string, string> = {}): number {
  const name = m.families.get(family)?.type === 'HISTOGRAM' ? `${family}_count` : family;
  return samples(m, name, labels).reduce((n, s) => n + Number(s.value), 0);
}
