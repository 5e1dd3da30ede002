// Chromium for the browser tests (test/browser/): headless, from /usr/bin/chromium or CHROMIUM_PATH, through
// playwright-core (no browser download).
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where Chromium is: CHROMIUM_PATH, else /usr/bin/chromium. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** A headless Chromium with one page, and the page's script errors and console errors as they happen. */
export interface ChromiumPage {
  readonly browser: Browser;
  readonly page: Page;
  /** Uncaught page errors and console errors, in order. */
  readonly errors: string[];
}

/** Launches Chromium and opens a 1280×900 page (downloads accepted) whose actions wait up to `timeoutMs` (default 15 s). */
export async function openChromiumPage(timeoutMs = 15_000): Promise<ChromiumPage> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await (await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(timeoutMs);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { browser, page, errors };
}
