import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContextOptions, chromium, type Download, type Page } from 'playwright-core';
import { expect, inject, onTestFinished } from 'vitest';
import { addSessionCookie } from './auth';
import { RULES_BELOW_SERIOUS } from './axe-rules';
import { CHROMIUM, CHROMIUM_ARGS } from './browser-options';

/**
 * Debian's Chromium, headless. In the e2e project, the run's one Chromium (tests/support/shop-pool.ts)
 * that this file connects to: `close()` then only disconnects, closing this file's contexts.
 * Elsewhere (the resilience project, a script), a Chromium of its own.
 */
export async function launchBrowser({ own = false }: { own?: boolean } = {}): Promise<Browser> {
  const pool = inject('shopPoolUrl');
  // E2E_OWN_BROWSER=1: a Chromium per file, as before the pool (to compare the two on a quiet machine).
  // `own`: a file that moves megabytes through Playwright (uploads it intercepts and cuts): over the
  // shared Chromium's WebSocket each chunk crosses twice, and a 16 MB upload took over 45 s instead of 15.
  if (!pool || own || process.env.E2E_OWN_BROWSER === '1')
    return hydrating(await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }));
  const res = await fetch(`${pool}/browser`);
  if (!res.ok) throw new Error(`the shared browser did not start: ${await res.text()}`);
  const { wsEndpoint } = (await res.json()) as { wsEndpoint: string };
  return hydrating(await chromium.connect(wsEndpoint));
}

/**
 * Every page of this browser waits for React's hydration on goto and reload
 * (waitForHydrationOnLoad): a test that opens its pages by hand otherwise races the server-rendered
 * HTML against the listeners, and loses on a loaded machine.
 */
function hydrating(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    const newPage = context.newPage.bind(context);
    context.newPage = async () => {
      const page = await newPage();
      waitForHydrationOnLoad(page);
      return page;
    };
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args) => {
    const page = await newPage(...args);
    waitForHydrationOnLoad(page);
    return page;
  };
  return browser;
}

/**
 * A download's bytes. The run's Chromium is reached remotely (connect), where `download.path()`
 * does not exist: the file is streamed from the browser instead.
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A page in a fresh French context. Any console.error or uncaught exception in the browser fails
 * the test that opened the page.
 */
export async function openPage(browser: Browser, url?: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    // « Failed to load resource » names no address in its text: its location does.
    const { url } = message.location();
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}${url ? ` (${url})` : ''}`);
  });
  // With where it was thrown: a rejection from a library's internals says little by its message alone.
  page.on('pageerror', (error) =>
    errors.push(
      `uncaught: ${error.message}${error.stack ? ` (${error.stack.split('\n').slice(1, 3).join(' ').trim()})` : ''}`,
    ),
  );
  onTestFinished(async () => {
    await context.close();
    expect(errors, 'errors in the browser console').toEqual([]);
  });
  waitForHydrationOnLoad(page);
  if (url) await page.goto(url);
  return page;
}

const waiting = new WeakSet<Page>();

/**
 * React hydrates a page in a transition that can end after the `load` event page.goto waits for:
 * goto and reload also wait until it has (the root marks <html data-interactive>), so that a test
 * clicks a button that already works. The site's pages load no framework (docs/decisions/018):
 * their inline script has run by `load`.
 */
export function waitForHydrationOnLoad(page: Page): void {
  if (waiting.has(page)) return;
  waiting.add(page);
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  const hydrated = () =>
    page.waitForFunction(
      () => !('__reactRouterContext' in window) || document.documentElement.dataset.interactive === 'true',
    );
  page.goto = async (...args) => {
    const response = await goto(...args);
    await hydrated();
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await hydrated();
    return response;
  };
}

/** axe-core on the current page: no serious or critical violation is allowed. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  // Toasts fade in and out: axe measures their contrast mid-animation, at partial opacity, and
  // reports a contrast failure that no one sees. Their colours are the design system's (AA).
  // Legacy mode runs axe in the page itself: the default (runPartial) opens a second page in the
  // context to assemble the frames' results, injecting axe's 580 kB twice, for frames from other
  // sites our pages do not have (the map's frame loads only on request). Measured on a quiet
  // machine: 1.4–2.1 s → 1.0–1.5 s a check, with the same rules passed.
  const results = await new AxeBuilder({ page })
    .exclude('[data-sonner-toaster]')
    .disableRules([...RULES_BELOW_SERIOUS])
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `accessibility violations on ${page.url()}`).toEqual([]);
}

/** A back-office page opened with a staff member's session cookie, once React has hydrated it. */
export async function openStaffPage(
  browser: Browser,
  baseUrl: string,
  cookie: string,
  path: string,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const page = await openPage(browser, undefined, options);
  await addSessionCookie(page, baseUrl, cookie);
  await page.goto(`${baseUrl}${path}`);
  await page.locator('[data-hydrated="true"]').waitFor();
  return page;
}

/** Waits for a toast saying `text` in sonner's « Notifications » region. */
export async function waitForToast(page: Page, text: string | RegExp): Promise<void> {
  await page
    .getByRole('region', { name: /Notifications/ })
    .getByText(text)
    .first()
    .waitFor({ timeout: 20_000 });
}
