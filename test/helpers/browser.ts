// Browser tests: playwright-core drives Debian's Chromium (no browser is downloaded), headless, each
// launch with a fresh profile of its own. Tests find elements by role and accessible name, as a
// person with a screen reader would, never by CSS classes.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { WAIT_SCALE } from './eventually.js';

export const CHROMIUM = '/usr/bin/chromium';

export async function startBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`browser tests need Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  // launch() gives the browser a fresh temporary user-data-dir and removes it on close
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface ConsoleTab {
  context: BrowserContext;
  page: Page;
  /** What the page reported as errors (CSP violations, uncaught exceptions): a test ends with none. */
  problems: string[];
}

/** A new browser context (its own cookies) with one page at `url`. */
export async function openTab(browser: Browser, url: string): Promise<ConsoleTab> {
  const context = await browser.newContext();
  const page = await context.newPage();
  // a locator's wait, stretched on a loaded machine as every wait is
  page.setDefaultTimeout(15_000 * WAIT_SCALE);
  const problems: string[] = [];
  page.on('console', (m) => {
    // a refused API request (4xx) is logged by the browser too: refusals are what some tests check
    if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  return { context, page, problems };
}

/** Fills the sign-in form and signs in. */
export async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The status of a request made from the page (its cookie, its origin), with the console's headers. */
export function fetchFromPage(page: Page, method: string, path: string, projectId: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, path, projectId, body }) => {
      const me = (await (await fetch('/auth/me')).json()) as { csrfToken: string };
      const headers: Record<string, string> = { 'X-Postmill-Project': projectId, 'X-Postmill-CSRF': me.csrfToken, 'Content-Type': 'application/json' };
      const res = await fetch(path, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
      return res.status;
    },
    { method, path, projectId, body },
  );
}
