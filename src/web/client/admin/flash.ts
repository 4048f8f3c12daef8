/**
 * What a change left to say after the page reloads: the message is kept in
 * sessionStorage, the page reloads (or opens the next address, whose `{field}`
 * placeholders are filled from the API's answer), and the new page shows the
 * message in its status line and moves the focus there.
 */
const KEY = 'admin.flash';

export function flashNext(message: string, next: string | undefined, answer: Record<string, unknown>): void {
  try {
    if (message) sessionStorage.setItem(KEY, message);
  } catch {
    // storage disabled: the page still reloads
  }
  if (!next) return location.reload();
  location.assign(next.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(answer[k] ?? ''))));
}

export function showFlash(): void {
  let message: string | null = null;
  try {
    message = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
  } catch {
    return;
  }
  const line = document.getElementById('admin-flash');
  if (!message || !line) return;
  line.textContent = message;
  line.focus();
}
