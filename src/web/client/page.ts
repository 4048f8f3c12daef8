/**
 * Shared browser module of every page: small progressive enhancements that
 * need no data (the page works without it). Loaded as an ES module; it never
 * writes HTML strings into the page (Trusted Types forbid it).
 */
export function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

/** The inert JSON the server put into the page for its modules (layout.tsx `data`). */
export function pageData<T>(): T | undefined {
  const el = document.getElementById('page-data');
  return el?.textContent ? (JSON.parse(el.textContent) as T) : undefined;
}
