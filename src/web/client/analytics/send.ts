/**
 * Sends one search-analytics event (a click on a result, a rating of a chat
 * answer) to POST /api/analytics/events with the session cookie and the
 * page's CSRF token. `keepalive` lets a click's event finish while the
 * browser follows the link away from the page. Answers the API's refusal
 * message, or undefined once recorded.
 */
import { csrfToken } from '../page.ts';

export async function sendEvent(event: Record<string, unknown>): Promise<string | undefined> {
  let res: Response;
  try {
    res = await fetch('/api/analytics/events', {
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken() },
      body: JSON.stringify(event),
    });
  } catch (err) {
    return String((err as Error).message || err);
  }
  if (res.ok) return undefined;
  try {
    const body = (await res.json()) as { detail?: unknown };
    if (typeof body.detail === 'string') return body.detail;
    if (Array.isArray(body.detail)) return body.detail.map((d: { msg?: string }) => d.msg).join('; ');
  } catch {
    // not JSON: the status says enough
  }
  return `HTTP ${res.status}`;
}
