/**
 * The search page at `/` (signed in). The address holds the whole state
 * (search/state.ts); the handler validates it with the API's own schema
 * (`validateSearchQuery`, search/schemas.ts), runs the API's domain function
 * (`searchWith`, with the route's dependencies and search budgets; cuts and refusals logged on the
 * request logger) for the viewer's email with the page language as the analysis hint, and renders
 * the result records as the API gives them (search/view.tsx). A bad parameter is answered 422 with
 * the page and a message saying what to change, never a 500. A result page
 * shown is recorded for search analytics (search/tracking.ts), and the page
 * ends with the viewer's search-history notice (search/history.tsx).
 */
import { Hono } from 'hono';
import { RequestValidationError, type ValidationItem } from '../../errors.ts';
import { indexingState } from '../../controlplane/datasources.ts';
import { searchDepsOf } from '../../routes/search.ts';
import { toSearchParams, validateSearchQuery } from '../../search/schemas.ts';
import { searchWith } from '../../search/service.ts';
import type { Services } from '../../services.ts';
import type { WebAssets } from '../assets/store.ts';
import type { WebEnv } from '../env.ts';
import { t, type MessageKey } from '../i18n/i18n.ts';
import { Page } from '../layout.tsx';
import { safeNext } from '../viewer.ts';
import { sourceNames } from './search/labels.ts';
import { apiQuery, pageNumber, readState } from './search/state.ts';
import { SearchView, type Outcome } from './search/view.tsx';
import { DELETED_PARAM, SearchHistory } from './search/history.tsx';
import { trackResults, type SearchTracking } from './search/tracking.ts';

/** Characters of the query shown in the window title. */
const TITLE_CHARS = 80;

const PROBLEMS: Record<string, MessageKey> = {
  query: 'search.invalid.query',
  data_source: 'search.invalid.source',
  file_type: 'search.invalid.type',
  last_modified_date: 'search.invalid.date',
  start_page: 'search.invalid.page',
};

/** One message per offending parameter, in a stable order. */
function problemsOf(items: ValidationItem[]): MessageKey[] {
  const keys = new Set(items.map((i) => PROBLEMS[String(i.loc[1])] ?? 'search.invalid.query'));
  return Object.values(PROBLEMS).filter((k) => keys.has(k));
}

export function searchPageRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  const deps = services.documents ? searchDepsOf({ ...services, documents: services.documents }) : undefined;
  app.get('/', async (c) => {
    const lang = c.get('lang');
    const viewer = c.get('viewer')!;
    const url = new URL(c.req.url);
    const state = readState(url.searchParams);
    const names = sourceNames(indexingState(services), viewer.email);
    let outcome: Outcome = { kind: 'start' };
    let tracking: SearchTracking | undefined;
    if (!deps) outcome = { kind: 'unavailable' };
    else if (state.q.trim() !== '') {
      try {
        const raw = apiQuery(state, lang);
        const params = toSearchParams(validateSearchQuery(raw));
        const body = await searchWith(deps, viewer.email, params, c.get('log'));
        outcome = { kind: 'results', results: body.results, page: pageNumber(state) ?? 1 };
        tracking = trackResults(services.analytics, viewer, raw, body.results, outcome.page);
      } catch (err) {
        if (!(err instanceof RequestValidationError)) throw err;
        outcome = { kind: 'invalid', problems: problemsOf(err.items) };
      }
    }
    const shown = state.q.length > TITLE_CHARS ? `${state.q.slice(0, TITLE_CHARS)}…` : state.q;
    const title = state.q.trim() === '' ? t(lang, 'nav.search') : `${shown} – ${t(lang, 'nav.search')}`;
    return c.html(
      <Page
        lang={lang}
        title={title}
        assets={assets}
        formToken={c.get('formToken')}
        viewer={viewer}
        current="search"
        scripts={['search']}
        data={tracking && { analytics: tracking }}
        here={safeNext(url.pathname + url.search)}
      >
        <SearchView lang={lang} state={state} names={names} outcome={outcome} />
        <SearchHistory
          lang={lang}
          services={services}
          formToken={c.get('formToken')}
          deleted={url.searchParams.get(DELETED_PARAM)}
        />
      </Page>,
      outcome.kind === 'invalid' ? 422 : 200,
    );
  });
  return app;
}
