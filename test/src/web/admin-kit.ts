/**
 * Shared setup of the dashboard tests: the real server (webServer) with an
 * audit log in a temporary directory, an administrator with both roles
 * (`root`), and helpers: sign in over HTTP (HttpBrowser) and call the API with
 * the session cookie and the page's CSRF token, as the dashboard's browser
 * module does; in Chromium, open a dashboard page signed in and submit a
 * dashboard form, waiting for the page that follows.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { AuditLog } from '../../../src/audit/audit.ts';
import { silentLogger } from '../../../src/log.ts';
import type { DocsHarnessOptions } from '../../support/documents.ts';
import { newContext, signIn } from '../../support/browser.ts';
import { HttpBrowser, webServer, type Person, type WebServer } from '../../support/web.ts';

export interface AdminServer {
  s: WebServer;
  audit: AuditLog;
  root: Person;
  close(): Promise<void>;
}

export async function adminServer(opts: DocsHarnessOptions = {}): Promise<AdminServer> {
  const dir = await mkdtemp(join(tmpdir(), 'admin-audit-'));
  const audit = new AuditLog({ dir, log: silentLogger, now: () => Date.now(), retentionDays: 30 });
  const s = await webServer({ ...opts, services: { audit, ...opts.services } });
  const root = await s.person('root@example.com', { name: 'Rita Root', roles: ['administrator', 'developer'] });
  return {
    s,
    audit,
    root,
    async close() {
      await s.close();
      await audit.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A signed-in HTTP client that calls the API as the dashboard does: session cookie plus X-CSRF-Token. */
export class Dashboard {
  private constructor(
    readonly b: HttpBrowser,
    readonly csrf: string,
  ) {}

  static async signIn(base: string, p: Person): Promise<Dashboard> {
    const b = new HttpBrowser(base);
    const res = await b.signIn(p.email, p.password);
    if (res.status !== 303) throw new Error(`sign-in of ${p.email}: ${res.status}`);
    const page = await b.request('/');
    const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page.text)?.[1];
    if (!csrf) throw new Error('no csrf-token meta');
    return new Dashboard(b, csrf);
  }

  /** Send JSON to an API path with the session; `csrf: false` leaves the token out. */
  async call(
    method: string,
    path: string,
    body?: unknown,
    opts: { csrf?: boolean; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.csrf !== false) headers['x-csrf-token'] = this.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.b.request(path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: res.text ? JSON.parse(res.text) : undefined, text: res.text };
  }

  page(path: string) {
    return this.b.request(path);
  }
}

/** A browser context signed in as `p`, on `path`. */
export async function openSignedIn(
  browser: Browser,
  base: string,
  p: Person,
  path = '/admin',
  opts: Parameters<typeof newContext>[1] = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, { locale: 'en-GB', ...opts });
  const page = await context.newPage();
  page.on('dialog', (d) => void d.accept());
  await signIn(page, base, p.email, p.password, path);
  return { context, page };
}

/** Submit a dashboard form with its button and wait for the page that follows (a reload or the next address). */
export async function submitAndWait(page: Page, button: Locator): Promise<void> {
  await Promise.all([page.waitForEvent('load'), button.click()]);
}
