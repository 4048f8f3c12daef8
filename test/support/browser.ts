/**
 * Browser tests' kit: Debian's Chromium driven by playwright-core (no browser
 * download; `.ci/run` installs the `chromium` package), started headless with
 * the flags this machine's closed network needs. Helpers sign a person in
 * through the real form and run axe-core on a page.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** The Chromium binary: CHROMIUM_PATH, else Debian's. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

/** A fresh context (own cookies) with a locale, a viewport and optionally a colour scheme. */
export function newContext(
  browser: Browser,
  opts: { locale?: string; width?: number; height?: number; colorScheme?: 'light' | 'dark'; bypassCSP?: boolean } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    locale: opts.locale ?? 'de-DE',
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
    colorScheme: opts.colorScheme ?? 'light',
    bypassCSP: opts.bypassCSP ?? false,
  });
}

/** Sign in through the page's form; resolves once the next page has loaded. */
export async function signIn(page: Page, base: string, email: string, password: string, next = '/'): Promise<void> {
  await page.goto(`${base}/signin?next=${encodeURIComponent(next)}`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith('/signin')),
    page.click('button[type=submit].primary'),
  ]);
}

const axeSource = () =>
  createRequire(import.meta.url)('node:fs').readFileSync(
    createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
    'utf8',
  ) as string;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's serious and critical violations on the page (WCAG 2.1 A and AA rules). The page's
 * context must be made with `bypassCSP: true` (the page's CSP forbids injected scripts).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource() });
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<any> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return (result.violations as any[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n: any) => n.target.join(' ')) }));
  });
}
