/**
 * The dashboard module's messages in the page language (the server sends them
 * as page data: pages/admin/shell.tsx) and `tr(key)`. Client code never
 * hard-codes UI text.
 */
import { pageData } from '../page.ts';

const messages: Record<string, string> = pageData<{ t: Record<string, string> }>()?.t ?? {};

export function tr(key: string, params?: Record<string, string | number>): string {
  const text = messages[`admin.js.${key}`] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
