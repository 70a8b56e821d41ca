import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportLabel } from '~/domain/account/order-details';
import { addSessionCookie, createUser, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { startServer, type TestServer } from '../support/server';
import { insertWorkshopOrder, type WorkshopOrder } from '../support/workshop-orders';

/*
 * The workshop board in Chromium: the staff see the late order first, filter the board by VHS,
 * select two orders and move them to the next stage, then find the new stage in the order dialog.
 */

const DAY = 86_400_000;
const DESKTOP = { viewport: { width: 1280, height: 900 } };

let server: TestServer;
let browser: Browser;
let admin: TestUser;
let late: WorkshopOrder;
let vhs: WorkshopOrder;
let photos: WorkshopOrder;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    photos = await insertWorkshopOrder(client, { lastName: 'Photos', dueAt: new Date(Date.now() + 2 * DAY) });
    vhs = await insertWorkshopOrder(client, {
      lastName: 'Cassettes',
      dueAt: new Date(Date.now() + 4 * DAY),
      items: [{ type: 'vhs', quantity: 3 }],
    });
    late = await insertWorkshopOrder(client, {
      lastName: 'Retard',
      dueAt: new Date(Date.now() - 2 * DAY),
      items: [{ type: 'vhs', quantity: 1 }],
    });
  } finally {
    await client.end();
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

async function adminPage(path: string): Promise<Page> {
  const page = await openPage(browser, undefined, DESKTOP);
  await addSessionCookie(page, server.url, admin.cookie);
  await page.goto(`${server.url}${path}`);
  await page.locator('[data-hydrated="true"]').waitFor();
  return page;
}

const column = (page: Page, name: string) => page.getByRole('region', { name: new RegExp(`^${name}`) });
const cards = (page: Page, name: string) => column(page, name).getByRole('article');

describe('the workshop board', () => {
  it('shows late orders first, filters by VHS and moves two orders to the next stage', async () => {
    const page = await adminPage('/admin');
    await page
      .getByRole('navigation', { name: 'Sections du tableau de bord' })
      .getByRole('link', { name: 'Atelier' })
      .click();
    await page.waitForURL(/\/admin\/atelier$/);

    const received = cards(page, 'Reçu');
    await expect.poll(() => received.count()).toBe(3);
    const first = received.first();
    expect(await first.getAttribute('aria-label')).toBe(`Commande ${late.number}`);
    await first.getByText('En retard').waitFor();
    expect(await received.nth(1).getByText('En retard').count()).toBe(0);
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('Support').selectOption({ label: supportLabel('vhs') });
    await page.getByRole('button', { name: 'Filtrer' }).click();
    await page.waitForURL(/support=vhs/);
    await expect.poll(() => received.count()).toBe(2);
    expect(await page.getByText(photos.number).count()).toBe(0);

    await page.getByLabel(`Sélectionner la commande ${late.number}`).check();
    await page.getByLabel(`Sélectionner la commande ${vhs.number}`).check();
    await page.getByRole('button', { name: 'Passer à l’étape suivante' }).click();
    const summary = page.getByRole('status').filter({ hasText: 'passées à l’étape suivante' });
    await summary.waitFor();
    expect(await summary.innerText()).toContain('2 commandes sur 2');
    await expect.poll(() => cards(page, 'Numérisation').count()).toBe(2);
    await expect.poll(() => received.count()).toBe(0);

    await page.getByRole('link', { name: `Détails de la commande ${vhs.number}` }).click();
    const dialog = page.getByRole('dialog', { name: `Commande ${vhs.number}` });
    await dialog.waitFor();
    const workshop = dialog.getByRole('region', { name: 'Atelier' });
    await workshop.getByText('Numérisation', { exact: true }).waitFor();
    await workshop.getByRole('button', { name: 'Passer à l’étape « Contrôle qualité »' }).waitFor();
  });
});
