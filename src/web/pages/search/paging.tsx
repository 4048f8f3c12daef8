/**
 * Paging and the empty states. The API has no total, so the pages known are
 * those up to this one, plus the next one when this page is full; a window
 * of page numbers around the current one, the first always reachable. The
 * zero-result state helps: spelling, fewer words, and a link to the same
 * query without filters (when there were any). A page past the last result
 * links back to the first page.
 */
import { t, type Lang } from '../../i18n/i18n.ts';
import { hasFilters, stateHref, withoutFilters, type SearchState } from './state.ts';

/** Page numbers shown before the current one. */
const WINDOW = 4;

export function Paging(props: { lang: Lang; state: SearchState; page: number; hasNext: boolean }) {
  const { lang, state, page, hasNext } = props;
  if (page === 1 && !hasNext) return null;
  const last = hasNext ? page + 1 : page;
  const first = Math.max(2, page - WINDOW);
  const numbers = [1, ...Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i)];
  const href = (n: number) => stateHref(state, { page: String(n) });
  return (
    <nav class="paging" aria-label={t(lang, 'search.paging')}>
      <ul>
        {page > 1 && (
          <li>
            <a href={href(page - 1)} rel="prev">
              {t(lang, 'search.previous')}
            </a>
          </li>
        )}
        {numbers.map((n, i) => (
          <>
            {i === 1 && n > 2 && (
              <li class="gap" aria-hidden="true">
                …
              </li>
            )}
            <li>
              <a
                href={href(n)}
                aria-current={n === page ? 'page' : undefined}
                aria-label={t(lang, 'search.pageN', { page: n })}
              >
                {String(n)}
              </a>
            </li>
          </>
        ))}
        {hasNext && (
          <li>
            <a href={href(page + 1)} rel="next">
              {t(lang, 'search.next')}
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}

export function NoResults(props: { lang: Lang; state: SearchState; page: number }) {
  const { lang, state, page } = props;
  if (page > 1) {
    return (
      <div class="empty" role="status">
        <p>{t(lang, 'search.noMore', { page })}</p>
        <p>
          <a href={stateHref(state, { page: '' })}>{t(lang, 'search.firstPage')}</a>
        </p>
      </div>
    );
  }
  return (
    <div class="empty" role="status">
      <p class="empty-title">{t(lang, 'search.none', { query: state.q })}</p>
      <p>{t(lang, 'search.noneHints')}</p>
      <ul>
        <li>{t(lang, 'search.noneSpelling')}</li>
        <li>{t(lang, 'search.noneFewer')}</li>
        {hasFilters(state) && (
          <li>
            <a href={withoutFilters(state)}>{t(lang, 'search.noneFilters')}</a>
          </li>
        )}
      </ul>
    </div>
  );
}
