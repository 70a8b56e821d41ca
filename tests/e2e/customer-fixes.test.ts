import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser, randomIp, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { insertTestOrder, orderState } from '../support/orders';
import { SANDBOX_ENV, type SharedServer, sharedServer } from '../support/shared-shop';

/*
 * The customer side as a French customer finds it in Chromium, on a phone and a desktop (each
 * number names a describe block below): the sandbox card form on a phone (5), one versioned terms
 * text (6), /admin's redirects (7), the phone layouts (8), prices whose arithmetic adds up (10) and
 * the small items (12), including the mobile menu without JavaScript.
 */

const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const NBSP = /[\u00A0\u202F]/g;

let server: SharedServer;
let browser: Browser;
let customer: TestUser;

beforeAll(async () => {
  // A production server takes sandbox payments only as a demo shop.
  [server, browser] = await Promise.all([sharedServer(SANDBOX_ENV), launchBrowser()]);
  customer = await createUser({ url: server.url });
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

async function sandboxSession(order: { id: string; cookie: string | null }): Promise<string> {
  const response = await fetch(`${server.url}/api/create-checkout`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: server.url,
      'x-forwarded-for': randomIp(),
      cookie: order.cookie as string,
    },
    body: JSON.stringify({ orderId: order.id, returnUrl: `${server.url}/?commande=${order.id}` }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { url: string }).url;
}

async function guestPage(cookie: string, options: BrowserContextOptions = PHONE): Promise<Page> {
  const page = await openPage(browser, undefined, options);
  const [name, value] = cookie.split('=') as [string, string];
  await page.context().addCookies([{ name, value, url: server.url }]);
  return page;
}

/** The page is no wider than the screen: nothing cut, nothing to scroll sideways. */
async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element not laid out');
  return found;
}

/** The element really under the centre of this one, once scrolled into view (nothing covers it). */
async function isOnTop(locator: Locator): Promise<boolean> {
  await locator.scrollIntoViewIfNeeded();
  return locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });
}

/** « 2 × 17,00 € » -> cents. */
function cents(text: string): number {
  const match = /(-?[\d\s\u00A0\u202F]+),(\d{2})\s*€/.exec(text);
  if (!match) throw new Error(`no amount in « ${text} »`);
  return Number((match[1] as string).replace(/\D/g, '')) * 100 + Number(match[2]);
}

/** The rows of an order's items table: each quantity × unit price = amount, and with the delivery the total. */
/** The back office's table also lists the delivery (15,90 €, a USB key) after the items. */
async function expectRowsAddUp(table: Locator, totalCents: number, { withDelivery = false } = {}) {
  await table.waitFor();
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => (td.textContent ?? '').trim())),
    );
  // Label and detail, as textContent joins them.
  expect(rows.map((cells) => (cells[0] as string).replace(NBSP, ' '))).toEqual([
    'Photos papierLot de 100 photos · Qualité standard, 2400 dpi, JPEG',
    'Cassettes VHSQualité standard',
    'DébruitageCassettes VHS',
    ...(withDelivery ? ['LivraisonClé USB'] : []),
  ]);
  let sum = 0;
  for (const [, quantity, unit, total] of rows) {
    expect(Number(quantity) * cents(unit as string)).toBe(cents(total as string));
    sum += cents(total as string);
  }
  // With the delivery (15,90 €), the order's total.
  expect(withDelivery ? sum : sum + 1590).toBe(totalCents);
}

describe('the sandbox card form on a phone (5, 8)', () => {
  it('pays with « 1229 » typed on the numeric keypad, shown « 12/29 », expiry and CVV side by side', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const page = await openPage(browser, await sandboxSession(order), PHONE);
    await page.getByRole('heading', { name: 'Payer 94,90\u00A0€' }).waitFor();
    const expiry = page.getByLabel('Date d’expiration');
    const cvv = page.getByLabel('CVV');
    // The phone's numeric keypad, the browser's card autofill.
    expect(await expiry.getAttribute('inputmode')).toBe('numeric');
    expect(await expiry.getAttribute('autocomplete')).toBe('cc-exp');
    expect(await expiry.getAttribute('pattern')).toBeNull();
    expect(await cvv.getAttribute('inputmode')).toBe('numeric');
    expect(await cvv.getAttribute('autocomplete')).toBe('cc-csc');
    expect(await page.getByLabel('Numéro de carte').getAttribute('inputmode')).toBe('numeric');

    // Aligned: same top, same height, side by side.
    const [e, c] = [await box(expiry), await box(cvv)];
    expect(Math.abs(e.y - c.y)).toBeLessThanOrEqual(1);
    expect(Math.abs(e.height - c.height)).toBeLessThanOrEqual(1);
    expect(c.x).toBeGreaterThan(e.x + e.width);
    await expectNoHorizontalOverflow(page);
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('Titulaire de la carte').fill('Marie Curie');
    await page.getByLabel('Numéro de carte').pressSequentially('4242424242424242');
    expect(await page.getByLabel('Numéro de carte').inputValue()).toBe('4242 4242 4242 4242');
    await expiry.pressSequentially('1229');
    expect(await expiry.inputValue()).toBe('12/29');
    await cvv.pressSequentially('123');
    await page.getByRole('button', { name: 'Payer 94,90\u00A0€' }).click();
    await page.waitForURL(`${server.url}/?commande=${order.id}`);
    await expect.poll(async () => (await orderState(server.databaseUrl, order.id)).paymentStatus).toBe('paid');
  });

  it('takes « 1229 » without JavaScript too: the server reads it', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const context = await browser.newContext({ ...PHONE, locale: 'fr-FR', javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(await sandboxSession(order));
      await page.getByLabel('Titulaire de la carte').fill('Marie Curie');
      await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
      await page.getByLabel('Date d’expiration').fill('1229');
      await page.getByLabel('CVV').fill('123');
      await page.getByRole('button', { name: 'Payer 94,90\u00A0€' }).click();
      await page.waitForURL(`${server.url}/?commande=${order.id}`);
      await expect.poll(async () => (await orderState(server.databaseUrl, order.id)).paymentStatus).toBe('paid');
    } finally {
      await context.close();
    }
  });
});

describe('one terms text (6)', () => {
  it('shows in the registration dialog the /cgv text itself, same version, same sections', async () => {
    const cgv = await openPage(browser, `${server.url}/cgv`, DESKTOP);
    await cgv.getByText('Version du 24/11/2026').waitFor();
    const pageSections = await cgv.getByRole('main').locator('h2').allInnerTexts();
    expect(pageSections.length).toBeGreaterThanOrEqual(16);
    expect(pageSections).toContain('16. Droit applicable');

    const page = await openPage(browser, `${server.url}/register`, DESKTOP);
    await page.locator('form#register').getByRole('link', { name: 'conditions générales de vente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Conditions générales de vente' });
    await dialog.getByText('Version du 24/11/2026').waitFor();
    await dialog.getByRole('heading', { name: '16. Droit applicable' }).waitFor();
    const text = dialog.getByRole('region', { name: 'Texte des conditions générales de vente' });
    expect(await text.locator('h2').allInnerTexts()).toEqual(pageSections);
    expect(
      await dialog.getByRole('link', { name: 'ouvrir la page des conditions générales de vente' }).getAttribute('href'),
    ).toBe('/cgv');
    await expectNoSeriousA11yViolations(page);
  });
});

describe('/admin for those who are not staff (7)', () => {
  it('sends the anonymous to /login remembering the page, and customers home', async () => {
    const anonymous = await openPage(browser, undefined, PHONE);
    await anonymous.goto(`${server.url}/admin/tarifs`);
    await anonymous.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === '/admin/tarifs',
    );

    const signedIn = await openPage(browser, undefined, PHONE);
    await addSessionCookie(signedIn, server.url, customer.cookie);
    await signedIn.goto(`${server.url}/admin`);
    await signedIn.waitForURL((url) => url.pathname === '/');
    expect(await signedIn.getByText('Accès non autorisé').count()).toBe(0);
  });
});

describe('phone layouts (8)', () => {
  it('shows the whole invoice at 375 px, with the PDF’s line details and readable totals', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const pay = await openPage(browser, await sandboxSession(order), DESKTOP);
    await pay.getByLabel('Titulaire de la carte').fill('Marie Curie');
    await pay.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
    await pay.getByLabel('Date d’expiration').fill('12/29');
    await pay.getByLabel('CVV').fill('123');
    await pay.getByRole('button', { name: 'Payer 94,90\u00A0€' }).click();
    await pay.waitForURL(`${server.url}/?commande=${order.id}`);
    await expect.poll(async () => (await orderState(server.databaseUrl, order.id)).invoices.length).toBe(1);

    const page = await guestPage(order.cookie as string);
    await page.goto(`${server.url}/facture/${order.id}`);
    await page.getByRole('heading', { level: 1, name: /^Facture / }).waitFor();
    await expectNoHorizontalOverflow(page);
    const totals = page.locator('dl').filter({ hasText: 'Total TTC' });
    const totalText = (await totals.innerText()).replace(NBSP, ' ');
    expect(totalText).toContain('Total TTC');
    expect(totalText).toContain('94,90 €');
    const totalBox = await box(totals);
    expect(totalBox.x + totalBox.width).toBeLessThanOrEqual(375);
    const main = (await page.getByRole('main').innerText()).replace(NBSP, ' ');
    // The PDF's detail of each line (frozen in the invoice), and each line's arithmetic.
    expect(main).toContain('Qualité standard, 2400 dpi, JPEG');
    expect(main).toContain('100 × 0,35 €');
    expect(main).toContain('2 × 17,00 €');
    expect(main).toContain('2 × 5,00 €');
    await expectNoSeriousA11yViolations(page);
  });

  it('keeps the footer’s last links clickable under the configurator’s total bar', async () => {
    const page = await openPage(browser, `${server.url}/configurateur?support=vhs&vhs.quantity=3`, PHONE);
    const bar = page.getByText('Total estimé');
    await bar.waitFor();
    expect(await isOnTop(bar)).toBe(true);
    const footer = page.getByRole('contentinfo');
    for (const name of ['Legal notice (English)', 'Administration', 'Politique de confidentialité']) {
      expect(await isOnTop(footer.getByRole('link', { name, exact: true })), name).toBe(true);
    }
    await footer.getByRole('link', { name: 'Politique de confidentialité', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/politique-de-confidentialite');
  });
});

describe('prices that add up as read (10)', () => {
  it('states every line of an order as quantity × unit price = amount', async () => {
    // 100 photos at 35,07 € (not a whole number of cents each: one lot), 2 VHS with denoising.
    const order = await insertTestOrder(server.databaseUrl, { extraCents: 7 });
    const page = await guestPage(order.cookie as string, DESKTOP);
    await page.goto(`${server.url}/confirmation?orderId=${order.id}`);
    await expectRowsAddUp(page.getByRole('table', { name: 'Articles de la commande' }), order.totalCents);

    // The back office's order dialog reads the same rows.
    const admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
    const office = await openPage(browser, undefined, DESKTOP);
    await addSessionCookie(office, server.url, admin.cookie);
    await office.goto(`${server.url}/admin?commande=${order.id}`);
    const dialog = office.getByRole('dialog', { name: `Commande ${order.number}` });
    await expectRowsAddUp(dialog.getByRole('region', { name: 'Articles' }).getByRole('table'), order.totalCents, {
      withDelivery: true,
    });
  });

  it('shows the configurator’s denoising on its own row: 3 × 25,00 € and 3 × 5,00 €', async () => {
    const page = await openPage(
      browser,
      `${server.url}/configurateur?support=film&film.reels.medium=3&film.denoise=on`,
      DESKTOP,
    );
    const lines = page.getByRole('list', { name: 'Lignes de l’estimation' });
    await lines.waitFor();
    const text = (await lines.innerText()).replace(NBSP, ' ');
    expect(text).toContain('75,00 €');
    expect(text).toContain('Débruitage : 3 × 5,00 €');
    expect(text).toContain('15,00 €');
    expect(text).not.toContain('90,00 €');
  });
});

describe('small items (12)', () => {
  it('says « DVD livré »', async () => {
    const page = await openPage(browser, `${server.url}/configurateur?support=photos&delivery=disc`, DESKTOP);
    await page.getByText(/^DVD livré sous 3 à 5 jours ouvrés/).waitFor();
    expect(await page.getByText('DVD livrée').count()).toBe(0);
  });

  it('counts the services the same on the home page and on /services', async () => {
    const home = await openPage(browser, `${server.url}/`, DESKTOP);
    const link = home.getByRole('link', { name: /^Voir les \d+ prestations/ });
    const count = Number(/\d+/.exec((await link.innerText()) ?? '')?.[0]);
    await link.click();
    await home.waitForURL((url) => url.pathname === '/services');
    await home.getByRole('heading', { level: 2, name: `Nos ${count} prestations` }).waitFor();
    const cards = home.getByRole('heading', { level: 2, name: `Nos ${count} prestations` }).locator('xpath=..//ul/li');
    expect(await cards.count()).toBe(count);
  });

  it('links the box once in the footer, to /boite-soovenirs', async () => {
    const page = await openPage(browser, `${server.url}/faq`, DESKTOP);
    const links = page.getByRole('contentinfo').getByRole('link', { name: /boîte soovenirs/i });
    expect(await links.count()).toBe(1);
    expect(await links.getAttribute('href')).toBe('/boite-soovenirs');
  });

  it('keeps the blog illustration’s label inside its pill', async () => {
    // The image alone (no page around it, hence no page checks).
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${server.url}/images/blog/resolution-ideale-numerisation.svg`);
    const inside = await page.evaluate(() => {
      const text = document.querySelector('text') as SVGTextElement;
      const pill = text.previousElementSibling as SVGRectElement;
      const t = text.getBBox();
      const p = pill.getBBox();
      return t.x >= p.x + 10 && t.x + t.width <= p.x + p.width - 10 && t.y >= p.y && t.y + t.height <= p.y + p.height;
    });
    await context.close();
    expect(inside).toBe(true);
  });

  it('leaves no empty column under the contact form', async () => {
    const page = await openPage(browser, `${server.url}/contact`, DESKTOP);
    const form = page.getByRole('region', { name: 'Votre message' });
    const map = page.getByRole('region', { name: 'Venir à l’atelier' });
    const details = page.getByRole('region', { name: 'Nos coordonnées' });
    const [f, m, d] = [await box(form), await box(map), await box(details)];
    // The map fills the column under the form; the details run beside both.
    expect(m.y - (f.y + f.height)).toBeLessThanOrEqual(64);
    expect(Math.abs(m.x - f.x)).toBeLessThanOrEqual(1);
    expect(d.x).toBeGreaterThan(f.x + f.width);
    await expectNoSeriousA11yViolations(page);
  });

  it('gives /configurateur a canonical address and Open Graph tags', async () => {
    const html = await (await fetch(`${server.url}/configurateur?support=photos`)).text();
    expect(html).toMatch(/<link rel="canonical" href="[^"]+\/configurateur"/);
    expect(html).toContain('property="og:title" content="Estimer ma commande"');
    expect(html).toMatch(/property="og:url" content="[^"]+\/configurateur"/);
    expect(html).toContain('property="og:image"');
  });

  it('marks the English legal notice as English', async () => {
    const page = await openPage(browser, `${server.url}/legal-notice`, DESKTOP);
    const english = page.getByRole('main').locator('[lang="en"]');
    await english.first().waitFor();
    const text = await english.allInnerTexts();
    expect(text.join(' ')).toContain('Publisher');
    expect(text.join(' ')).toContain('Legal notice');
  });

  it('opens the mobile menu without JavaScript, from the keyboard too', async () => {
    const context = await browser.newContext({ ...PHONE, locale: 'fr-FR', javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/faq`);
      const menu = page.getByRole('banner').getByText('Menu', { exact: true });
      await menu.click();
      const nav = page.getByRole('navigation', { name: 'Menu mobile' });
      await nav.waitFor();
      await nav.getByText('Infos', { exact: true }).click();
      await nav.getByRole('link', { name: 'Contact', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/contact');

      // The keyboard: Tab to « Menu », Enter opens it.
      await page.goto(`${server.url}/faq`);
      await page
        .getByRole('banner')
        .locator('summary')
        .filter({ hasText: /^Menu$/ })
        .focus();
      await page.keyboard.press('Enter');
      await page.getByRole('navigation', { name: 'Menu mobile' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
