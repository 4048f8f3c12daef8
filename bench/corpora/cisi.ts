/**
 * CISI loader. Docs: title = `.T`, body = `.W`. Queries: `.W` (with `.T` when
 * present). Qrels: `qid docid 0 0.0`, binary relevance (gain 1); 76 of the
 * 112 queries are judged and only those are evaluated.
 */
import { readFileSync } from 'node:fs';
import { corpusPath } from '../lib/paths.ts';
import { parseSmart } from './smart.ts';
import { addJudgment, type BenchDoc, type BenchQuery, type Qrels, type RelevanceSet } from './types.ts';

export function loadCisi(): RelevanceSet {
  const docs: BenchDoc[] = parseSmart(readFileSync(corpusPath('cisi', 'CISI.ALL'), 'utf8')).map((r) => ({
    id: String(Number(r.id)),
    title: r.fields.T ?? '',
    body: r.fields.W ?? '',
  }));
  const qrels: Qrels = new Map();
  for (const line of readFileSync(corpusPath('cisi', 'CISI.REL'), 'utf8').split(/\r?\n/)) {
    const parts = line.trim().split(/\s+/);
    if (parts.length < 2) continue;
    addJudgment(qrels, String(Number(parts[0])), String(Number(parts[1])), 1);
  }
  const queries: BenchQuery[] = parseSmart(readFileSync(corpusPath('cisi', 'CISI.QRY'), 'utf8'))
    .map((r) => ({ id: String(Number(r.id)), text: [r.fields.T, r.fields.W].filter(Boolean).join('\n') }))
    .filter((q) => qrels.has(q.id));
  return { name: 'CISI', docs, queries, qrels };
}
