/**
 * A secret shown once (a new key, a sign-in link): the form's fields are
 * hidden, the secret is shown with a copy button, and the Done button
 * reloads the page, which never shows it again (the server keeps only its
 * digest). Copying uses the Clipboard API, or selects the text when the
 * browser refuses.
 */
import { flashNext } from './flash.ts';
import { tr } from './text.ts';

async function copy(text: string, value: HTMLElement, button: HTMLButtonElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = tr('copied');
  } catch {
    const range = document.createRange();
    range.selectNodeContents(value);
    const selection = getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    button.textContent = tr('copyFailed');
  }
}

export function showSecret(form: HTMLFormElement, secret: string): void {
  const panel = form.querySelector<HTMLElement>('[data-secret-panel]');
  const value = panel?.querySelector<HTMLElement>('[data-secret-value]');
  if (!panel || !value) return;
  for (const child of Array.from(form.children) as HTMLElement[]) if (child !== panel) child.hidden = true;
  value.textContent = secret;
  panel.hidden = false;
  const copyButton = panel.querySelector<HTMLButtonElement>('[data-copy]');
  const done = panel.querySelector<HTMLButtonElement>('[data-secret-done]');
  copyButton?.addEventListener('click', () => void copy(secret, value, copyButton));
  done?.addEventListener('click', () => flashNext(form.dataset.done ?? '', undefined, {}));
  copyButton?.focus();
}
