import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser, type TestUser } from '../support/auth';
import {
  expectNoSeriousA11yViolations,
  launchBrowser,
  openPage,
  openStaffPage,
  waitForToast,
} from '../support/browser';
import { insertTestOrder } from '../support/orders';
import { startServer, type TestServer } from '../support/server';

/*
 * The audit log and its « Journal » page (docs/decisions/017), in Chromium against the production
 * server: an administrator changes an order's status, a price and a setting through the back
 * office's own forms, then finds the three in /admin/journal with their before and after in
 * French, filters them by action, person and date, and reads them as cards on a phone. A customer
 * is sent away, an anonymous visitor to the sign-in page.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };

let server: TestServer;
let browser: Browser;
let admin: TestUser;
let customer: TestUser;

/** The text as a person reads it: French no-break spaces count as spaces. */
const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');
const textOf = async (locator: Locator) => plain(await locator.innerText());

/** Today in Paris, as a date field holds it (2026-11-24). */
function parisDay(offsetDays = 0): string {
  const day = new Date(Date.now() + offsetDays * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(day);
}

function adminPage(path: string, options = DESKTOP): Promise<Page> {
  return openStaffPage(browser, server.url, admin.cookie, path, options);
}

const journalTable = (page: Page) => page.getByRole('table', { name: 'Journal des actions' });
const journalRows = (page: Page) => journalTable(page).locator('tbody tr');

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  admin = await createUser({
    url: server.url,
    databaseUrl: server.databaseUrl,
    role: 'admin',
    firstName: 'Ada',
    lastName: 'Lovelace',
  });
  customer = await createUser({ url: server.url });
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('the Journal', () => {
  it('shows a status, a price and a setting changed in the back office, with before and after', async () => {
    // 1. An order's status, from its dialog (paid: « En traitement » is offered without more).
    const order = await insertTestOrder(server.databaseUrl, { paymentStatus: 'paid' });
    const orders = await adminPage(`/admin?commande=${order.id}`);
    const dialog = orders.getByRole('dialog', { name: `Commande ${order.number}` });
    await dialog.waitFor();
    await dialog.getByLabel('Nouveau statut').selectOption({ label: 'En traitement' });
    await dialog.getByRole('button', { name: 'Mettre à jour le statut' }).click();
    await waitForToast(orders, 'Statut de la commande mis à jour');

    // 2. A price, from Tarifs (its summary, then the confirmation).
    const tarifs = await adminPage('/admin/tarifs');
    await tarifs.getByLabel('Photos papier', { exact: true }).fill('0,38');
    await tarifs.getByRole('button', { name: 'Mettre à jour' }).click();
    await tarifs
      .getByRole('dialog', { name: 'Publier les nouveaux tarifs ?' })
      .getByRole('button', { name: 'Publier les nouveaux tarifs' })
      .click();
    await waitForToast(tarifs, 'Tarifs mis à jour');

    // 3. A setting: how long delivered files are kept.
    const settings = await adminPage('/admin');
    await settings.getByRole('button', { name: 'Paramètres' }).click();
    await settings.getByRole('menuitem', { name: 'Fichiers livrés' }).click();
    const files = settings.getByRole('dialog', { name: 'Fichiers livrés' });
    await files.getByRole('spinbutton', { name: 'Durée de conservation des fichiers (jours)' }).fill('90');
    await files.getByRole('button', { name: 'Enregistrer' }).click();
    await settings
      .getByText('Les fichiers sont désormais conservés 90 jours après leur publication.')
      .waitFor({ timeout: 20_000 });

    const page = await adminPage('/admin/journal');
    await page.getByRole('heading', { name: 'Journal' }).waitFor();
    const rows = journalRows(page);
    expect(await rows.count()).toBe(3);
    // Newest first: the setting, the price, the status.
    const [setting, price, status] = await Promise.all([0, 1, 2].map((i) => textOf(rows.nth(i))));
    expect(setting).toContain('Conservation des fichiers');
    expect(setting).toContain('Durée de conservation : 60 jours → 90 jours');
    expect(price).toContain('Modification des tarifs');
    expect(price).toContain('Prix photos papier : 0,35 € → 0,38 €');
    expect(status).toContain('Statut de commande');
    expect(status).toContain('Statut : En attente → En traitement');
    for (const row of [setting, price, status]) {
      expect(row).toContain('Ada Lovelace');
      expect(row).toContain('Administrateur');
      expect(row).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    }
    // The order is named by its number and opens its dialog; no raw code, no identifier shows.
    const link = rows.nth(2).getByRole('link', { name: order.number });
    expect(await link.getAttribute('href')).toBe(`/admin?commande=${order.id}`);
    const table = await textOf(journalTable(page));
    expect(table).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}/i);
    expect(table).not.toMatch(/\b(order|price|settings)\.[a-z_]+/);
    expect(table).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
    expect(setting).toContain('Fichiers livrés');
    // Read-only: nothing on the page edits or deletes an entry.
    expect(await page.getByRole('button', { name: /Supprimer|Modifier/ }).count()).toBe(0);
    await expectNoSeriousA11yViolations(page);

    // Filter by action.
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Modification des tarifs' });
    await page.getByRole('button', { name: 'Filtrer' }).click();
    await page.waitForURL(/action=price\.change/);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await textOf(rows.first())).toContain('Prix photos papier');

    // By person, and by date: today holds the three, tomorrow nothing.
    await page.getByRole('link', { name: 'Effacer' }).click();
    await page.waitForURL((url) => url.search === '');
    await expect.poll(() => page.getByLabel('Action', { exact: true }).inputValue()).toBe('');
    await page.getByLabel('Personne', { exact: true }).selectOption({ label: 'Ada Lovelace' });
    await page.getByLabel('Du', { exact: true }).fill(parisDay());
    await page.getByLabel('Au', { exact: true }).fill(parisDay());
    await page.getByRole('button', { name: 'Filtrer' }).click();
    await page.waitForURL(/du=/);
    await expect.poll(() => rows.count()).toBe(3);
    await page.getByLabel('Du', { exact: true }).fill(parisDay(1));
    await page.getByLabel('Au', { exact: true }).fill(parisDay(2));
    await page.getByRole('button', { name: 'Filtrer' }).click();
    await page.getByText('Aucune action ne correspond à ces filtres.').waitFor();
    expect(await journalTable(page).count()).toBe(0);
  });

  it('reads as cards on a phone', async () => {
    const page = await adminPage('/admin/journal', PHONE);
    const cards = page.getByRole('list', { name: 'Journal des actions' }).getByRole('listitem');
    await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(3);
    expect(await journalTable(page).isVisible()).toBe(false);
    expect(await textOf(page.getByRole('list', { name: 'Journal des actions' }))).toContain(
      'Prix photos papier : 0,35 € → 0,38 €',
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousA11yViolations(page);
  });

  it('sends a customer to the home page and an anonymous visitor to the sign-in page', async () => {
    const asCustomer = await openPage(browser, undefined, DESKTOP);
    await addSessionCookie(asCustomer, server.url, customer.cookie);
    await asCustomer.goto(`${server.url}/admin/journal`);
    await asCustomer.waitForURL(`${server.url}/`);
    expect(await asCustomer.getByText('Ada Lovelace').count()).toBe(0);

    const anonymous = await openPage(browser, `${server.url}/admin/journal`, DESKTOP);
    await anonymous.waitForURL(/\/login\?redirectTo=%2Fadmin%2Fjournal/);
  });
});
