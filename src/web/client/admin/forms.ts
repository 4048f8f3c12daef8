/**
 * The dashboard's forms (pages/admin/forms.tsx ApiForm) sent to the public
 * API with the session cookie and the X-CSRF-Token header: confirmation
 * first (window.confirm, or a field that must equal a name), then the
 * request; on success the page reloads (or opens `data-next`) and says what
 * happened, or shows a secret once, or the answer's message. A refusal is
 * shown in the form's alert as the API worded it, with its status code.
 * Only text nodes are written (Trusted Types forbid HTML strings).
 */
import { csrfToken } from '../page.ts';
import { BodyError, formBody } from './body.ts';
import { showSecret } from './secret.ts';
import { flashNext } from './flash.ts';
import { tr } from './text.ts';

/** The API's message of a failed answer: `{detail}` as a string or the 422 items. */
async function refusal(res: Response): Promise<string> {
  let message = '';
  try {
    const body = (await res.json()) as { detail?: unknown };
    if (typeof body.detail === 'string') message = body.detail;
    else if (Array.isArray(body.detail))
      message = body.detail
        .map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join('.')}: ${d.msg ?? ''}`)
        .join('; ');
  } catch {
    // not JSON: the status says it
  }
  return `${res.status}: ${message || res.statusText}`;
}

function fail(form: HTMLFormElement, message: string): void {
  const alert = form.querySelector<HTMLElement>('[data-error]');
  if (!alert) return;
  alert.textContent = message;
  alert.hidden = false;
}

function confirmed(form: HTMLFormElement): boolean {
  for (const el of Array.from(form.querySelectorAll<HTMLInputElement>('[data-must-equal]'))) {
    if (el.value.trim() !== el.dataset.mustEqual) {
      fail(form, el.dataset.mismatch ?? tr('mismatch'));
      el.focus();
      return false;
    }
  }
  const question = form.dataset.confirm;
  return !question || window.confirm(question);
}

function showResult(form: HTMLFormElement, answer: { ok?: boolean; message?: string }): void {
  const out = form.querySelector<HTMLElement>('[data-result-text]');
  if (!out) return;
  out.textContent = `${tr(answer.ok ? 'ok' : 'failed')}: ${answer.message ?? ''}`;
  out.className = `check-result ${answer.ok ? 'status' : 'error'}`;
}

async function send(form: HTMLFormElement, submitter: HTMLButtonElement | null): Promise<void> {
  const alert = form.querySelector<HTMLElement>('[data-error]');
  if (alert) alert.hidden = true;
  if (!confirmed(form)) return;
  let body: Record<string, unknown>;
  try {
    body = formBody(form);
  } catch (err) {
    if (err instanceof BodyError) return fail(form, tr('badJson', { field: err.message }));
    throw err;
  }
  const method = form.dataset.method ?? 'POST';
  const headers: Record<string, string> = { 'X-CSRF-Token': csrfToken() };
  const hasBody = method !== 'DELETE';
  if (hasBody) headers['content-type'] = 'application/json';
  if (submitter) submitter.disabled = true;
  form.setAttribute('aria-busy', 'true');
  let res: Response;
  try {
    res = await fetch(form.dataset.path ?? '', {
      method,
      headers,
      body: hasBody ? JSON.stringify(body) : undefined,
      credentials: 'same-origin',
    });
  } catch {
    return fail(form, tr('offline'));
  } finally {
    if (submitter) submitter.disabled = false;
    form.removeAttribute('aria-busy');
  }
  if (!res.ok) return fail(form, await refusal(res));
  const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (form.dataset.result) return showResult(form, answer);
  if (form.dataset.secret) return showSecret(form, String(answer[form.dataset.secret] ?? ''));
  flashNext(form.dataset.done ?? '', form.dataset.next, answer);
}

export function enhanceForms(): void {
  for (const form of Array.from(document.querySelectorAll<HTMLFormElement>('form.api-form'))) {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const submitter = e.submitter instanceof HTMLButtonElement ? e.submitter : null;
      void send(form, submitter);
    });
  }
}
