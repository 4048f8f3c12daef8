/**
 * The body of the search page: the search form (query box and filters) and,
 * depending on the outcome, the introduction (no query yet), the results
 * with paging, the zero-result state, or why the search could not run.
 */
import type { SearchResult } from '../../../search/result.ts';
import { t, type Lang, type MessageKey } from '../../i18n/i18n.ts';
import type { SourceNames } from './labels.ts';
import { Filters, QueryBox } from './filters.tsx';
import { NoResults, Paging } from './paging.tsx';
import { Result } from './result.tsx';
import { hasFilters, PAGE_SIZE, withoutFilters, type SearchState } from './state.ts';

export type Outcome =
  | { kind: 'start' }
  | { kind: 'results'; results: SearchResult[]; page: number }
  | { kind: 'invalid'; problems: MessageKey[] }
  | { kind: 'unavailable' };

function Problems(props: { lang: Lang; state: SearchState; problems: MessageKey[] }) {
  const { lang, state } = props;
  return (
    <div class="error search-error" role="alert">
      <p>{t(lang, 'search.invalid')}</p>
      <ul>
        {props.problems.map((key) => (
          <li>{t(lang, key)}</li>
        ))}
      </ul>
      {hasFilters(state) && (
        <p>
          <a href={withoutFilters(state)}>{t(lang, 'search.clearFilters')}</a>
        </p>
      )}
    </div>
  );
}

function Results(props: { lang: Lang; state: SearchState; names: SourceNames; results: SearchResult[]; page: number }) {
  const { lang, state, page, results } = props;
  const ctx = { lang, names: props.names };
  return (
    <section class="results" aria-labelledby="results-title">
      <h2 id="results-title" class="results-title">
        {t(lang, 'search.resultsFor', { query: state.q, page })}
      </h2>
      {results.length === 0 ? (
        <NoResults lang={lang} state={state} page={page} />
      ) : (
        <ol class="result-list" start={(page - 1) * PAGE_SIZE + 1}>
          {results.map((r, i) => (
            <Result ctx={ctx} r={r} index={i} />
          ))}
        </ol>
      )}
      <Paging lang={lang} state={state} page={page} hasNext={results.length === PAGE_SIZE} />
    </section>
  );
}

export function SearchView(props: { lang: Lang; state: SearchState; names: SourceNames; outcome: Outcome }) {
  const { lang, state, names, outcome } = props;
  return (
    <div class="search-page">
      <h1 class="visually-hidden">{t(lang, 'search.label')}</h1>
      <form role="search" method="get" action="/" id="search-form" class="search-form" autocomplete="off">
        <QueryBox lang={lang} q={state.q} />
        <Filters lang={lang} state={state} names={names} />
      </form>
      {outcome.kind === 'start' && <p class="hint search-intro">{t(lang, 'search.start')}</p>}
      {outcome.kind === 'unavailable' && (
        <p class="error" role="alert">
          {t(lang, 'search.unavailable')}
        </p>
      )}
      {outcome.kind === 'invalid' && <Problems lang={lang} state={state} problems={outcome.problems} />}
      {outcome.kind === 'results' && (
        <Results lang={lang} state={state} names={names} results={outcome.results} page={outcome.page} />
      )}
    </div>
  );
}
