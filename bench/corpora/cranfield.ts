/**
 * Cranfield 1400 loader. Docs: title = `.T`, body = `.W`. Queries are numbered
 * 1..225 by their position in cran.qry (the `.I` numbers are not consecutive).
 * Qrels: `qid docid code`, gain = 5 - code (1 = complete answer -> 4), code -1 dropped.
 */
import { readFileSync } from 'node:fs';
import { corpusPath } from '../lib/paths.ts';
import { parseSmart } from './smart.ts';
import { addJudgment, type BenchDoc, type BenchQuery, type Qrels, type RelevanceSet } from './types.ts';

export function loadCranfield(): RelevanceSet {
  const docs: BenchDoc[] = parseSmart(readFileSync(corpusPath('cran', 'cran.all.1400'), 'utf8')).map((r) => ({
    id: String(Number(r.id)),
    title: r.fields.T ?? '',
    body: r.fields.W ?? '',
  }));
  const qrels: Qrels = new Map();
  for (const line of readFileSync(corpusPath('cran', 'cranqrel'), 'utf8').split(/\r?\n/)) {
    const parts = line.trim().split(/\s+/);
    if (parts.length < 3) continue;
    const code = Number(parts[2]);
    if (code < 1) continue;
    addJudgment(qrels, String(Number(parts[0])), String(Number(parts[1])), 5 - code);
  }
  const queries: BenchQuery[] = parseSmart(readFileSync(corpusPath('cran', 'cran.qry'), 'utf8'))
    .map((r, i) => ({ id: String(i + 1), text: r.fields.W ?? '' }))
    .filter((q) => qrels.has(q.id));
  return { name: 'Cranfield', docs, queries, qrels };
}
