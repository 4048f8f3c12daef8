/**
 * Browser module of the search page. The page works without it (a GET form
 * with an Apply button); with it:
 * - `/` moves the focus to the query box (not while typing in a field);
 * - a filter picked with the pointer applies at once; one changed with the
 *   keyboard (arrow keys move through a closed select) applies on Enter or
 *   with the Apply button, which shows while such a change waits and while
 *   the custom date range is open (two dates, then Apply or Enter);
 * - the control that applied a filter has the focus again on the new page;
 * - empty fields are left out of the address, so it stays short;
 * - a page restored by the back button shows the filters of its address.
 * - clicks on results are reported for search analytics (search/clicks.ts).
 * It only moves focus and toggles `hidden`: no markup is written.
 */
import { trackClicks } from './search/clicks.ts';

const FOCUS_KEY = 'search.focus';
/** A change this soon after a key press in the filters came from the keyboard. */
const KEY_WINDOW_MS = 500;

const form = document.getElementById('search-form') as HTMLFormElement | null;
const query = document.getElementById('q') as HTMLInputElement | null;
const filters = document.getElementById('filters');
const apply = document.getElementById('f-apply') as HTMLButtonElement | null;
const date = document.getElementById('f-date') as HTMLSelectElement | null;

function remember(id: string): void {
  try {
    sessionStorage.setItem(FOCUS_KEY, id);
  } catch {
    // storage disabled: the query box keeps the focus
  }
}

function restoreFocus(): void {
  try {
    const id = sessionStorage.getItem(FOCUS_KEY);
    sessionStorage.removeItem(FOCUS_KEY);
    if (id) document.getElementById(id)?.focus();
  } catch {
    // storage disabled
  }
}

function focusShortcut(e: KeyboardEvent): void {
  if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || !query) return;
  const target = e.target instanceof Element ? e.target : null;
  if (target?.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])')) return;
  e.preventDefault();
  query.focus();
  query.select();
}

function enhanceFilters(form: HTMLFormElement, filters: HTMLElement, apply: HTMLButtonElement): void {
  let keyAt = -Infinity;
  let pending = false;
  const sync = () => {
    apply.hidden = !(pending || date?.value === 'custom');
  };
  const submitFrom = (control: HTMLElement) => {
    remember(control.id);
    form.requestSubmit();
  };
  filters.addEventListener('keydown', (e) => {
    keyAt = performance.now();
    if (e.key === 'Enter' && e.target instanceof HTMLSelectElement && pending) {
      e.preventDefault();
      submitFrom(e.target);
    }
  });
  filters.addEventListener('change', (e) => {
    const control = e.target;
    if (!(control instanceof HTMLSelectElement)) return; // dates apply with Enter or Apply
    if (performance.now() - keyAt < KEY_WINDOW_MS) pending = true;
    else if (control === date && date.value === 'custom') document.getElementById('f-from')?.focus();
    else submitFrom(control);
    sync();
  });
  const hint = document.getElementById('filters-hint');
  if (hint) {
    hint.hidden = false;
    filters.setAttribute('aria-describedby', hint.id);
  }
  sync();
}

if (form) {
  // A page restored from the back-forward cache shows the controls as the address says, not as left.
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) form.reset();
  });
  form.addEventListener('formdata', (e) => {
    const custom = e.formData.get('date') === 'custom';
    for (const [name, value] of [...e.formData]) {
      if (value === '' || (!custom && (name === 'from' || name === 'to'))) e.formData.delete(name);
    }
  });
  if (filters && apply) enhanceFilters(form, filters, apply);
}
document.addEventListener('keydown', focusShortcut);
restoreFocus();
trackClicks();
