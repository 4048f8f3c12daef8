/**
 * The chat page's messages in the page language (sent by the server as page
 * data, chat.en.ts / chat.de.ts) and `tr(key, params)` to fill `{name}`
 * placeholders. Client code never hard-codes UI text.
 */
let messages: Record<string, string> = {};

export function setMessages(m: Record<string, string>): void {
  messages = m;
}

export function tr(key: string, params?: Record<string, string | number>): string {
  const text = messages[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** An element with an optional class and text (text always as a text node). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A button of type `button`. */
export function button(text: string, className?: string, label?: string): HTMLButtonElement {
  const b = el('button', className, text);
  b.type = 'button';
  if (label) b.setAttribute('aria-label', label);
  return b;
}
