/**
 * Click tracking of the search page: when the server recorded the result
 * page (page data `analytics`: the query id, the page number and the result
 * ids in rank order), a click on a result's title link (primary, middle or
 * with a modifier, by pointer or keyboard) sends `{type: "click", query_id,
 * result_id, rank, page}`. The link opens as usual; the event is sent with
 * `keepalive` and its outcome is not awaited.
 */
import { sendEvent } from '../analytics/send.ts';
import { pageData } from '../page.ts';

interface Tracking {
  query_id: string;
  page: number;
  results: string[];
}

function onClick(tracking: Tracking, list: HTMLElement, e: MouseEvent): void {
  if (e.type === 'auxclick' && e.button !== 1) return;
  const link = e.target instanceof Element ? e.target.closest('.result-title a') : null;
  const item = link?.closest('li.result');
  if (!link || !item || item.parentElement !== list) return;
  const rank = [...list.children].indexOf(item) + 1;
  const resultId = tracking.results[rank - 1];
  if (rank < 1 || resultId === undefined) return;
  void sendEvent({ type: 'click', query_id: tracking.query_id, result_id: resultId, rank, page: tracking.page });
}

export function trackClicks(): void {
  const tracking = pageData<{ analytics?: Tracking }>()?.analytics;
  const list = document.querySelector<HTMLElement>('ol.result-list');
  if (!tracking || !list) return;
  list.addEventListener('click', (e) => onClick(tracking, list, e));
  list.addEventListener('auxclick', (e) => onClick(tracking, list, e));
}
