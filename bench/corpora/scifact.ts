/**
 * BEIR SciFact loader: corpus.jsonl (5,183 docs), queries-train.jsonl (809
 * claims) and qrels/train.tsv (919 judgments, all gain 1, CRLF, header line).
 */
import { readFileSync } from 'node:fs';
import { corpusPath } from '../lib/paths.ts';
import { addJudgment, type BenchDoc, type BenchQuery, type Qrels, type RelevanceSet } from './types.ts';

function jsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

export function loadSciFact(): RelevanceSet {
  const docs: BenchDoc[] = jsonl<{ _id: string; title: string; text: string }>(
    corpusPath('scifact', 'corpus.jsonl'),
  ).map((d) => ({ id: String(d._id), title: d.title ?? '', body: d.text ?? '' }));
  const qrels: Qrels = new Map();
  const lines = readFileSync(corpusPath('scifact', 'qrels', 'train.tsv'), 'utf8').split(/\r?\n/);
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue;
    const [qid, did, score] = line.split('\t');
    addJudgment(qrels, qid, did, Number(score));
  }
  const queries: BenchQuery[] = jsonl<{ _id: string; text: string }>(corpusPath('scifact', 'queries-train.jsonl'))
    .map((q) => ({ id: String(q._id), text: q.text }))
    .filter((q) => qrels.has(q.id));
  return { name: 'SciFact train', docs, queries, qrels };
}
