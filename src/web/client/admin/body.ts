/**
 * The JSON body of a dashboard form (pages/admin/forms.tsx ApiForm): one entry
 * per named field, a dotted name nesting (`user.email` -> {user: {email}}),
 * converted by the field's `data-kind`:
 *   list      checked checkboxes of one name collect into an array (empty when none)
 *   bool      a checkbox as true / false
 *   json      the text parsed as JSON
 *   csv       comma-separated text as an array of trimmed values; null when empty
 *   number    the text as a number; null when empty
 *   datetime  a datetime-local value, read as UTC, as ISO 8601; null when empty
 *   optional  left out when empty
 *   nullable  null when empty
 * Fields named `_…` (confirmations) and disabled fields are not sent.
 * Throws BodyError naming the field when a value cannot be converted.
 */
export class BodyError extends Error {}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function put(target: Record<string, Json>, path: string, value: Json): void {
  const parts = path.split('.');
  let at = target;
  for (const p of parts.slice(0, -1)) {
    if (typeof at[p] !== 'object' || at[p] === null || Array.isArray(at[p])) at[p] = {};
    at = at[p] as Record<string, Json>;
  }
  at[parts[parts.length - 1]] = value;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function convert(el: Control, label: string): Json | undefined {
  const kind = el.dataset.kind;
  const value = el.value;
  if (kind === 'bool') return (el as HTMLInputElement).checked;
  if (kind === 'json') {
    try {
      return JSON.parse(value) as Json;
    } catch {
      throw new BodyError(label);
    }
  }
  if (kind === 'number') {
    if (value.trim() === '') return null;
    const n = Number(value);
    if (!Number.isFinite(n)) throw new BodyError(label);
    return n;
  }
  if (kind === 'csv') {
    const items = value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    return items.length === 0 ? null : items;
  }
  if (kind === 'datetime')
    return value === '' ? null : new Date(`${value.length === 16 ? `${value}:00` : value}Z`).toISOString();
  if (kind === 'optional') return value === '' ? undefined : value;
  if (kind === 'nullable') return value === '' ? null : value;
  return value;
}

export function formBody(form: HTMLFormElement): Record<string, Json> {
  const body: Record<string, Json> = {};
  const lists = new Map<string, string[]>();
  for (const el of Array.from(form.elements) as Control[]) {
    const name = el.name;
    if (!name || name.startsWith('_') || el.disabled || !('value' in el)) continue;
    if (el instanceof HTMLInputElement && el.type === 'checkbox' && el.dataset.kind === 'list') {
      const list = lists.get(name) ?? [];
      lists.set(name, list);
      if (el.checked) list.push(el.value);
      continue;
    }
    const label = el.labels?.[0]?.textContent ?? name;
    const value = convert(el, label);
    if (value !== undefined) put(body, name, value);
  }
  for (const [name, list] of lists) put(body, name, list);
  return body;
}
