import pg from 'pg';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_PRICE_LIST } from '~/domain/pricing/default-price-list';
import { closeDatabase } from '~/server/db/client.server';
import { publishPriceList } from '~/server/pricing/price-lists.server';
import { addSessionCookie, createUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { startServer, type TestServer } from '../support/server';

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };

/** The text as a person reads it: French no-break spaces count as spaces. */
async function textOf(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/[\u00A0\u202F]/g, ' ').trim();
}

/** The card of a support in the configurator (its checkbox, and the options it reveals). */
function support(page: Page, title: string): Locator {
  return page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: new RegExp(`^${title}\\s`) }) });
}

function total(page: Page): Locator {
  return page.locator('#estimate-total [data-total-cents]');
}

async function expectTotal(page: Page, text: string) {
  await expect.poll(() => textOf(total(page))).toBe(text);
}

/**
 * Like openPage (a console error fails the test, the checkout reached by `Commander` included),
 * with a context of its own. `expectedStatus` names an HTTP status a test provokes on purpose
 * (Chromium logs any non-2xx answer to the console).
 */
async function openShopPage(
  browser: Browser,
  options: BrowserContextOptions = {},
  expectedStatus?: number,
): Promise<Page> {
  const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const at = message.location().url;
    if (expectedStatus && message.text().includes(`status of ${expectedStatus}`)) return;
    errors.push(`console.error: ${message.text()} (${at})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  onTestFinished(async () => {
    await context.close();
    expect(errors, 'errors in the browser console').toEqual([]);
  });
  return page;
}

describe('the configurator in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let client: pg.Client;

  async function query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await client.query(sql, params)).rows as T[];
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    // The back office's publication, run against the server's database (see the live prices test).
    process.env.DATABASE_URL = server.databaseUrl;
  });
  afterAll(async () => {
    await closeDatabase();
    await client?.end();
    await browser?.close();
    await server?.dispose();
  });

  it('builds an estimate equal to the server’s, saves it, reopens it from Mes devis and orders it', async () => {
    const customer = await createUser({ url: server.url, firstName: 'Claire' });
    const page = await openShopPage(browser, DESKTOP);
    await addSessionCookie(page, server.url, customer.cookie);
    await page.goto(`${server.url}/configurateur`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Estimer ma commande');
    expect(await textOf(page.locator('#estimate-total'))).toBe(
      'Choisissez au moins un support pour obtenir votre estimation.',
    );

    const photos = support(page, 'Photos papier');
    await photos.getByRole('checkbox').check();
    await photos.getByLabel('Quantité').fill('100');
    await expectTotal(page, '35,00 €');
    await photos.getByRole('radio', { name: /^4800 dpi/ }).check();
    await photos.getByRole('radio', { name: /^TIFF/ }).check();
    await expectTotal(page, '58,36 €');

    const film = support(page, 'Films Super 8 et 16 mm');
    await film.getByRole('checkbox').check();
    await film.getByLabel(/^Petite bobine/).fill('0');
    await film.getByLabel(/^Bobine moyenne/).fill('2');
    await expectTotal(page, '108,36 €');
    await page.getByRole('radio', { name: /^Clé USB/ }).check();
    await expectTotal(page, '124,26 €');
    expect(await textOf(page.getByRole('list', { name: 'Lignes de l’estimation' }))).toContain('Livraison — Clé USB');

    // The URL holds the selection: the server renders the same total from it, to the cent.
    await expect.poll(() => new URL(page.url()).searchParams.get('delivery')).toBe('usb');
    const shownCents = Number(await total(page).getAttribute('data-total-cents'));
    const html = await (await fetch(page.url())).text();
    expect(Number(/data-total-cents="(\d+)"/.exec(html)?.[1])).toBe(shownCents);
    expect(shownCents).toBe(12_426);

    await page.getByRole('button', { name: 'Enregistrer le devis' }).click();
    await page.waitForURL(/\/mes-devis\/[0-9a-f-]{36}\?enregistre=1$/);
    const quoteId = new URL(page.url()).pathname.split('/').pop();
    expect(await textOf(page.getByRole('status').filter({ hasText: 'Votre devis est enregistré' }))).toContain(
      'Mes devis',
    );
    const [quote] = await query('select user_id, total_price from quotes where id = $1', [quoteId]);
    expect(quote).toEqual({ user_id: customer.id, total_price: shownCents });

    await page.goto(`${server.url}/mes-devis`);
    await expectNoSeriousA11yViolations(page);
    const link = page.getByRole('link', { name: /^Devis du \d\d\/\d\d\/\d{4}$/ });
    expect(await link.count()).toBe(1);
    await link.click();
    await page.waitForURL(`${server.url}/mes-devis/${quoteId}`);
    expect(await textOf(page.locator('#quote-total'))).toContain('124,26 €');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Commander' }).click();
    await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
    // The checkout opens for this visitor (its loader answers, no error in the console).
    await expect.poll(() => page.getByRole('heading', { name: 'Finaliser ma commande' }).isVisible()).toBe(true);
    const orderId = new URL(page.url()).searchParams.get('orderId');
    const [order] = await query(
      `select o.user_id, o.total_price, o.status, o.payment_status, o.number, p.version
       from orders o join price_lists p on p.id = o.price_list_id where o.id = $1`,
      [orderId],
    );
    expect(order).toMatchObject({
      user_id: customer.id,
      total_price: shownCents,
      status: 'pending',
      payment_status: 'pending',
      version: 1,
    });
    expect(order?.number).toMatch(/^SV-\d{4}-\d{6}$/);
    expect(await query('select order_id from quotes where id = $1', [quoteId])).toEqual([{ order_id: orderId }]);
    expect(await query('select count(*)::int as n from order_items where order_id = $1', [orderId])).toEqual([
      { n: 2 },
    ]);
  });

  it('has no serious accessibility violation, empty or filled', async () => {
    const page = await openPage(browser, `${server.url}/configurateur`, DESKTOP);
    await expectNoSeriousA11yViolations(page);
    await page.goto(
      `${server.url}/configurateur?support=photos&photos.quantity=0&support=vhs&vhs.denoise=on&support=film&delivery=disc`,
    );
    expect(await textOf(support(page, 'Photos papier'))).toContain(
      'La quantité doit être comprise entre 1 et 100 000.',
    );
    await expectNoSeriousA11yViolations(page);
  });

  it('works with the keyboard, live, and Enter does not submit', async () => {
    const page = await openPage(browser, `${server.url}/configurateur`, DESKTOP);
    const photos = support(page, 'Photos papier');
    await photos.getByRole('checkbox').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await photos.getByLabel('Quantité').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('250');
    await expectTotal(page, '87,50 €');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab'); // "Dont à restaurer"
    await page.keyboard.press('Tab'); // Qualité: the checked radio
    await page.keyboard.press('ArrowRight');
    expect(await photos.getByRole('radio', { name: /^Premium/ }).isChecked()).toBe(true);
    await expectTotal(page, '113,75 €');
    expect(new URL(page.url()).pathname).toBe('/configurateur');

    // A wrong value: a French message on the field, no estimate, no wrong price.
    await photos.getByLabel('Quantité').fill('2.5');
    await photos.getByLabel('Quantité').blur();
    await expect.poll(() => textOf(photos)).toContain('La quantité doit être un nombre entier.');
    expect(await textOf(page.locator('#estimate-total'))).toBe(
      'Corrigez les champs signalés pour obtenir votre estimation.',
    );
  });

  it('keeps the selection in the URL: a link reproduces the estimate', async () => {
    const page = await openPage(browser, `${server.url}/configurateur`, DESKTOP);
    const vhs = support(page, 'Cassettes VHS');
    await vhs.getByRole('checkbox').check();
    await vhs.getByLabel('Quantité').fill('3');
    await vhs.getByRole('checkbox', { name: /^Débruitage/ }).check();
    await page.getByRole('radio', { name: /^Étiquette d’envoi prépayée/ }).check();
    await page.getByRole('checkbox', { name: /^Me renvoyer mes originaux/ }).check();
    // 51 + 15 + 9,90 + 12,90
    await expectTotal(page, '88,80 €');
    await expect.poll(() => page.url()).toContain('returnOriginals=on');
    const link = page.url();
    expect(link).toBe(
      `${server.url}/configurateur?support=vhs&vhs.quantity=3&vhs.denoise=on&send=label&returnOriginals=on`,
    );

    const other = await openPage(browser, link, PHONE);
    await expectTotal(other, '88,80 €');
    expect(await other.getByRole('checkbox', { name: /^Débruitage/ }).isChecked()).toBe(true);
  });

  it('fits a phone, with the total always in sight', async () => {
    const page = await openPage(
      browser,
      `${server.url}/configurateur?support=photos&photos.quantity=100&support=film&film.reels.large=1`,
      PHONE,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const bar = page.getByText('Total estimé');
    expect(await bar.isVisible()).toBe(true);
    expect(await textOf(bar)).toBe('Total estimé 70,00 €');
    await expectNoSeriousA11yViolations(page);
  });

  it('works before JavaScript: the server computes the estimate and takes the order', async () => {
    const page = await openShopPage(browser, { ...DESKTOP, javaScriptEnabled: false });
    await page.goto(`${server.url}/configurateur`);
    const slides = support(page, 'Diapositives');
    await slides.getByRole('checkbox').check();
    // Ticking reveals the options without any script (CSS :has).
    await slides.getByLabel('Quantité').fill('200');
    await slides.getByRole('radio', { name: /^3600 dpi/ }).check();
    await page.getByRole('button', { name: 'Mettre à jour l’estimation' }).click();
    await page.waitForURL(/support=slides/);
    // 200 x 0,45 x 1,2
    expect(await textOf(total(page))).toBe('108,00 €');

    await page.getByRole('button', { name: 'Commander' }).click();
    await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
    // The checkout opens for this visitor (its loader answers, no error in the console).
    await expect.poll(() => page.getByRole('heading', { name: 'Finaliser ma commande' }).isVisible()).toBe(true);
    const orderId = new URL(page.url()).searchParams.get('orderId')!;
    const [order] = await query('select total_price, user_id, access_token_hash from orders where id = $1', [orderId]);
    expect(order).toMatchObject({ total_price: 10_800, user_id: null });
    const cookies = await page.context().cookies(server.url);
    const access = cookies.find((cookie) => cookie.name === `sv_order_${orderId}`);
    expect(access).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(order?.access_token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('shows a new price list without a restart: on focus, and in the other tabs', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', ...DESKTOP });
    onTestFinished(() => context.close());
    const url = `${server.url}/configurateur?support=negatives&negatives.quantity=100`;
    const [first, second] = [await context.newPage(), await context.newPage()];
    const errors: string[] = [];
    for (const page of [first, second]) {
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      await expectTotal(page, '40,00 €');
    }

    const edited = structuredClone(DEFAULT_PRICE_LIST);
    edited.supports.negatives.basePrice = 42;
    await publishPriceList(edited, null);

    // The first tab comes back to the foreground; the second one hears of it from the first.
    await first.bringToFront();
    await first.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expectTotal(first, '42,00 €');
    expect(await textOf(first.getByRole('status').filter({ hasText: 'Les tarifs ont été mis à jour' }))).toBe(
      'Les tarifs ont été mis à jour : votre estimation a été recalculée.',
    );
    await expectTotal(second, '42,00 €');
    expect(errors).toEqual([]);

    // Ordering from a page that still shows the old prices is refused, with the reason.
    const stale = await openShopPage(browser, DESKTOP, 409);
    await stale.goto(url);
    await publishPriceList(DEFAULT_PRICE_LIST, null);
    const before = await query<{ n: number }>('select count(*)::int as n from orders');
    await stale.getByRole('button', { name: 'Commander' }).click();
    await expect
      .poll(() => textOf(stale.getByRole('alert')))
      .toBe('Les tarifs viennent d’être mis à jour : vérifiez le nouveau montant avant de continuer.');
    await expectTotal(stale, '40,00 €');
    expect(await query('select count(*)::int as n from orders')).toEqual(before);
  });
});
