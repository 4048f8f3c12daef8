/**
 * The embedded default model `extractive`: what a fresh install answers with
 * when no upstream language model is configured. It generates no free text.
 * In its first round it calls every offered tool with the question; then it
 * quotes the sentences of the retrieved sources and attached files that best
 * match the question (BM25 over sentences, at most MAX_QUOTES, at most two
 * per source, without bracketed numbers of their own), each with its `[key]`
 * citation, under a sentence that says plainly it only quotes. Output is
 * streamed word by word; a `max_tokens` / `max_completion_tokens` cap (four
 * characters a token) ends it at the last whole word within the cap, with
 * finish reason `length`.
 */
import { withoutMarkers } from './citations.ts';
import { answerTokenCap } from './compatible-fields.ts';
import { bm25, questionTerms, sentences } from '../passages/relevance.ts';
import type { ChatModel, Language, ModelEvent, RoundRequest, Source } from './types.ts';

export const EXTRACTIVE_MODEL_ID = 'extractive';
const MAX_QUOTES = 5;
const MAX_QUOTE_CHARS = 400;

const TEXT = {
  de: {
    intro:
      'Ich bin das eingebaute extraktive Modell: Ich formuliere keinen freien Text, sondern zitiere die passendsten Stellen aus den Quellen.',
    none: 'Ich bin das eingebaute extraktive Modell und formuliere keinen freien Text. In den verfügbaren Quellen habe ich keine passende Stelle gefunden.',
    noSources:
      'Ich bin das eingebaute extraktive Modell und formuliere keinen freien Text. Ohne Suchwerkzeug (serviceSearch, webSearch) oder angehängte Dateien habe ich nichts, woraus ich zitieren kann.',
  },
  en: {
    intro:
      'I am the built-in extractive model: I do not generate free text; I quote the best-matching passages of the sources.',
    none: 'I am the built-in extractive model and do not generate free text. I found no matching passage in the available sources.',
    noSources:
      'I am the built-in extractive model and do not generate free text. Without a search tool (serviceSearch, webSearch) or attached files I have nothing to quote from.',
  },
} as const;

export function extractiveModel(): ChatModel {
  return {
    id: EXTRACTIVE_MODEL_ID,
    ownedBy: 'system',
    async *round(req: RoundRequest): AsyncGenerator<ModelEvent> {
      const searched = req.messages.some((m) => m.role === 'tool');
      if (!searched && req.tools.length > 0 && req.context.question.trim() !== '') {
        let n = 0;
        for (const tool of req.tools) {
          const args =
            tool.name === 'webSearch'
              ? { queries: [req.context.question.slice(0, 400)] }
              : { query: req.context.question.slice(0, 500) };
          yield {
            type: 'tool_call',
            call: { id: `call_extractive_${++n}`, name: tool.name, arguments: JSON.stringify(args) },
          };
        }
        return;
      }
      const answer = compose(req.context.sources, req.context.question, req.context.language, searched);
      // A token cap is kept as the service counts tokens when no model reports them: four characters each.
      const cap = answerTokenCap(req.options ?? {});
      let budget = cap === undefined ? Infinity : cap * 4;
      for (const piece of answer.match(/\S+\s*|\s+/g) ?? []) {
        if (piece.length > budget) {
          yield { type: 'finish', reason: 'length' };
          return;
        }
        budget -= piece.length;
        yield { type: 'text', text: piece };
      }
    },
  };
}

function compose(sources: readonly Source[], question: string, language: Language, searched: boolean): string {
  const t = TEXT[language];
  if (sources.length === 0) return searched ? t.none : t.noSources;
  const candidates: { key: number; text: string }[] = [];
  // A quote keeps no bracketed numbers of its own: they would be read as citations of other sources.
  for (const s of sources)
    for (const sentence of sentences(withoutMarkers(s.text)))
      candidates.push({ key: s.key, text: sentence.slice(0, MAX_QUOTE_CHARS) });
  const scores = bm25(
    candidates.map((c) => c.text),
    questionTerms(question, language),
    language,
  );
  const order = candidates
    .map((c, i) => ({ ...c, score: scores[i], i }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const perSource = new Map<number, number>();
  const chosen: typeof order = [];
  for (const c of order) {
    if (chosen.length >= MAX_QUOTES) break;
    if ((perSource.get(c.key) ?? 0) >= 2 || chosen.some((x) => x.text === c.text)) continue;
    perSource.set(c.key, (perSource.get(c.key) ?? 0) + 1);
    chosen.push(c);
  }
  if (chosen.length === 0) {
    // Nothing matches word for word (e.g. "summarise this file"): quote how each source begins.
    for (const s of sources.slice(0, MAX_QUOTES)) {
      const first = sentences(withoutMarkers(s.text))[0];
      if (first) chosen.push({ key: s.key, text: first.slice(0, MAX_QUOTE_CHARS), score: 0, i: 0 });
    }
  }
  if (chosen.length === 0) return t.none;
  return `${t.intro}\n\n${chosen.map((c) => `> ${c.text} [${c.key}]`).join('\n\n')}`;
}
