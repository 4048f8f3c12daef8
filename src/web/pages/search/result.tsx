/**
 * One search result as the API gives it: the title linking to `path_preview`
 * (text when that is not an http(s) address), the breadcrumb `path`, the
 * datasource and subs by display name, the localized file type, author and
 * date, the highlights (text runs with `<mark>`, never raw markup; the
 * highlight of the title marks the title itself) and the summary; then the
 * related lists, collapsed: the duplicates ("also in N places", expanding to
 * every location), the same-thread and the similar documents. `<details>`
 * needs no script. All text is escaped by JSX.
 */
import type { RelatedDoc, SearchResult } from '../../../search/result.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { fileTypeLabel, type SourceNames } from './labels.ts';
import { formatDay, highlightRuns, safeHref, type Run } from './text.ts';

export interface ResultContext {
  lang: Lang;
  names: SourceNames;
}

const Runs = (props: { runs: Run[] }) => (
  <>{props.runs.map((run) => (run.mark ? <mark>{run.text}</mark> : run.text))}</>
);

function DocLink(props: { lang: Lang; title: string; href: string; runs?: Run[] }) {
  const title =
    props.runs !== undefined ? (
      <Runs runs={props.runs} />
    ) : props.title.trim() === '' ? (
      t(props.lang, 'search.untitled')
    ) : (
      props.title
    );
  const href = safeHref(props.href);
  return href === undefined ? <span class="doc-text">{title}</span> : <a href={href}>{title}</a>;
}

function RelatedList(props: { ctx: ResultContext; summary: string; docs: RelatedDoc[]; kind: string }) {
  if (props.docs.length === 0) return null;
  const { ctx } = props;
  return (
    <details class={`related ${props.kind}`}>
      <summary>{props.summary}</summary>
      <ul>
        {props.docs.map((d) => (
          <li>
            <DocLink lang={ctx.lang} title={d.title} href={d.path_preview} />
            <span class="related-source">{ctx.names.datasource(d.data_source)}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Datasource › sub › child, by display names. */
function sourceTrail(r: SearchResult, names: SourceNames): string {
  return [names.datasource(r.data_source), names.sub(r.data_source_sub), names.sub(r.data_source_sub_sub)]
    .filter((part) => part !== '')
    .join(' › ');
}

function Meta(props: { ctx: ResultContext; r: SearchResult }) {
  const { ctx, r } = props;
  const day = formatDay(ctx.lang, r.last_modified);
  return (
    <p class="result-meta">
      <span class="result-source">{sourceTrail(r, ctx.names)}</span>
      <span class="result-type">{fileTypeLabel(ctx.lang, r.file_type)}</span>
      {r.author.trim() !== '' && <span class="result-author">{t(ctx.lang, 'search.by', { author: r.author })}</span>}
      {day !== undefined && (
        <span class="result-date">
          <span class="visually-hidden">{t(ctx.lang, 'search.modified')} </span>
          <time datetime={r.last_modified}>{day}</time>
        </span>
      )}
    </p>
  );
}

/** The highlight of the title (shown in the title itself), and the others. */
function splitHighlights(title: string, highlights: string[]): { title?: Run[]; others: Run[][] } {
  const out: { title?: Run[]; others: Run[][] } = { others: [] };
  for (const h of highlights) {
    const runs = highlightRuns(h);
    if (out.title === undefined && title.trim() !== '' && runs.map((r) => r.text).join('') === title) out.title = runs;
    else out.others.push(runs);
  }
  return out;
}

export function Result(props: { ctx: ResultContext; r: SearchResult; index: number }) {
  const { ctx, r, index } = props;
  const headingId = `result-${index}`;
  const dupCount = r.duplicates.length;
  const highlights = splitHighlights(r.title, r.highlights);
  return (
    <li class="result">
      <article aria-labelledby={headingId}>
        {/* elementtiming: the paint of the first result is measured (bench/web/search-page.ts). */}
        <h3 id={headingId} class="result-title" elementtiming={index === 0 ? 'first-result' : undefined}>
          <DocLink lang={ctx.lang} title={r.title} href={r.path_preview} runs={highlights.title} />
        </h3>
        {r.path.trim() !== '' && <p class="result-path">{r.path}</p>}
        <Meta ctx={ctx} r={r} />
        {highlights.others.length > 0 && (
          <ul class="result-highlights" aria-label={t(ctx.lang, 'search.highlights')}>
            {highlights.others.map((runs) => (
              <li>
                <Runs runs={runs} />
              </li>
            ))}
          </ul>
        )}
        {r.summary.trim() !== '' && <p class="result-summary">{r.summary}</p>}
        <RelatedList
          ctx={ctx}
          kind="duplicates"
          docs={r.duplicates}
          summary={
            dupCount === 1 ? t(ctx.lang, 'search.duplicatesOne') : t(ctx.lang, 'search.duplicates', { count: dupCount })
          }
        />
        <RelatedList
          ctx={ctx}
          kind="same-thread"
          docs={r.same_thread_docs}
          summary={t(ctx.lang, 'search.sameThread', { count: r.same_thread_docs.length })}
        />
        <RelatedList
          ctx={ctx}
          kind="similar"
          docs={r.similar_docs}
          summary={t(ctx.lang, 'search.similar', { count: r.similar_docs.length })}
        />
      </article>
    </li>
  );
}
