import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOrderFile } from '~/server/files/order-files.server';
import { publishOrderFiles } from '~/server/files/publish.server';
import { createLocalStorage } from '~/server/files/storage.server';
import { createUser, signIn, type TestUser } from '../support/auth';
import { fillBillingAddress } from '../support/billing';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';

/*
 * Extra copies and the paid retention in Chromium against the production server (decision 029):
 * from the gallery the owner orders 2 USB keys of a selection for a relative with a gift message,
 * pays by card (the sandbox), the workshop board shows the order with the files to copy and its
 * source, the invoice states the keys and the parcel at the Tarifs prices; then the owner buys
 * « Prolonger d’un an » and the gallery shows the new date.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
let env: SharedServerWithSmtp;
let browser: Browser;
let owner: TestUser;
let admin: TestUser;
let order: TestOrder;
const plain = (text: string | null) => (text ?? '').replace(/[\u00A0\u202F]/g, ' ');

beforeAll(async () => {
  [env, browser] = await Promise.all([sharedServerWithSmtp({ PAYMENT_SANDBOX: 'on' }), launchBrowser()]);
  process.env.BASE_URL = env.server.url;
  const storage = createLocalStorage(path.join(env.server.dataDir, 'files'));
  [owner, admin] = await Promise.all([
    createUser({ url: env.server.url, firstName: 'Odile', lastName: 'Propriétaire' }),
    createUser({ url: env.server.url, databaseUrl: env.server.databaseUrl, role: 'admin' }),
  ]);
  admin.cookie = await signIn({ url: env.server.url, email: admin.email });
  order = await insertTestOrder(env.server.databaseUrl, {
    userId: owner.id,
    paymentStatus: 'paid',
    status: 'processing',
  });
  await env.db.query(`update orders set stage = 'quality_check', paid_at = now() where id = $1`, [order.id]);
  for (const name of ['Noël 1985.jpg', 'Mariage.jpg', 'Vacances.jpg']) {
    await storeOrderFile(
      { orderId: order.id, name, support: 'photos', body: Readable.from([randomBytes(3000)]), uploadedBy: admin.id },
      { storage },
    );
  }
  expect(await publishOrderFiles(order.id, admin.id)).toMatchObject({ ok: true });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

async function ownerPage(): Promise<Page> {
  const page = await openPage(browser, undefined, DESKTOP);
  await signIn({ url: env.server.url, email: owner.email, page });
  return page;
}

async function payWithSandboxCard(page: Page) {
  await page.waitForURL(/\/paiement\/sandbox\//);
  await page.getByLabel('Titulaire de la carte').fill('Odile Propriétaire');
  await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
  await page.getByLabel('Date d’expiration').fill('12/30');
  await page.getByLabel('CVV').fill('123');
  await page.getByRole('button', { name: /^Payer/ }).click();
  await page.waitForURL(/\/confirmation\?orderId=/);
  await expect.poll(() => page.getByText('Votre paiement a bien été reçu').isVisible(), { timeout: 15_000 }).toBe(true);
}

describe('extra copies from the gallery', () => {
  it('orders 2 USB keys of a selection for a relative, pays by card, reaches the workshop board and the invoice', async () => {
    const page = await ownerPage();
    await page.goto(`${env.server.url}/commande/${order.id}/fichiers`);
    await page.getByRole('link', { name: 'Commander des copies sur clé USB ou DVD' }).click();
    await page.waitForURL(`${env.server.url}/commande/${order.id}/copies`);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('radio', { name: 'Une sélection' }).check();
    // The files are grouped by support, each group opened by its title.
    await page.locator('summary', { hasText: 'Photos papier' }).click();
    await page.getByRole('checkbox', { name: 'Mariage.jpg' }).check();
    await page.getByRole('checkbox', { name: 'Noël 1985.jpg' }).check();
    await page.getByRole('radio', { name: /^Clé USB/ }).check();
    await page.getByLabel('Nombre de copies').fill('2');
    await page.getByRole('radio', { name: /Pour un proche/ }).check();
    // A missing address is refused in French, with what was typed kept.
    await page.getByLabel('Prénom').fill('Louise');
    await page.getByLabel('Message glissé dans le colis (facultatif)').fill('Joyeux anniversaire, Louise !');
    await page.getByRole('button', { name: 'Commander et payer' }).click();
    await expect.poll(() => page.getByText('Veuillez saisir la ville').isVisible()).toBe(true);
    expect(await page.getByLabel('Prénom').inputValue()).toBe('Louise');
    expect(await page.getByRole('checkbox', { name: 'Mariage.jpg' }).isChecked()).toBe(true);
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel(/^Nom$/).fill('Martin');
    await page.getByLabel('Numéro et rue').fill('3 rue des Lilas');
    await page.getByLabel('Code postal').fill('69003');
    await page.getByLabel('Ville').fill('Lyon');
    await page.getByLabel('Téléphone (pour le transporteur)').fill('06 11 22 33 44');
    await page.getByRole('button', { name: 'Commander et payer' }).click();
    await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
    const copyId = new URL(page.url()).searchParams.get('orderId') as string;
    // The relative's address is the parcel's, pre-filled; 2 × 15,90 € + 6,90 € of shipping.
    expect(await page.getByRole('group', { name: 'Livraison' }).getByLabel('Ville').inputValue()).toBe('Lyon');
    const recap = plain(await page.getByRole('region', { name: 'Récapitulatif de la commande' }).textContent());
    expect(recap).toContain('Copie sur clé USB');
    expect(recap).toContain('31,80 €');
    expect(recap).toContain('6,90 €');
    expect(recap).toContain('38,70 €');
    await page.getByRole('button', { name: /^Payer/ }).click();
    await payWithSandboxCard(page);

    await page.goto(`${env.server.url}/facture/${copyId}`);
    const invoice = plain(await page.locator('main').textContent());
    expect(invoice).toContain('Copie sur clé USB');
    expect(invoice).toContain('15,90 €');
    expect(invoice).toContain('31,80 €');
    expect(invoice).toContain('6,90 €');
    expect(invoice).toContain('38,70 €');
    expect(invoice).toContain('Lyon');
    await page.context().close();

    const staff = await openPage(browser, undefined, DESKTOP);
    await signIn({ url: env.server.url, email: admin.email, page: staff });
    await staff.goto(`${env.server.url}/admin/atelier`);
    const { rows } = await env.db.query<{ number: string }>('select number from orders where id = $1', [copyId]);
    const card = staff.getByRole('article', { name: `Commande ${rows[0]?.number}` });
    const shown = plain(await card.textContent());
    expect(shown).toContain(`Copier 2 fichiers de la commande ${order.number} sur 2 clés USB`);
    expect(shown).toContain('Mariage.jpg');
    expect(shown).toContain('Noël 1985.jpg');
    expect(shown).not.toContain('Vacances.jpg');
    expect(shown).toContain('Joyeux anniversaire, Louise !');
    await staff.context().close();
  });

  it('buys a year more of retention and the gallery shows the new date', async () => {
    const before = await env.db.query<{ files_expire_at: Date }>('select files_expire_at from orders where id = $1', [
      order.id,
    ]);
    const expiresBefore = before.rows[0]?.files_expire_at as Date;
    const page = await ownerPage();
    await page.goto(`${env.server.url}/commande/${order.id}/fichiers`);
    await page.getByRole('button', { name: /^Prolonger la conservation d’un an \(12,00/ }).click();
    await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
    const recap = plain(await page.getByRole('region', { name: 'Récapitulatif de la commande' }).textContent());
    expect(recap).toContain('Prolongation de la conservation');
    expect(recap).toContain('12,00 €');
    await fillBillingAddress(page);
    await page.getByRole('button', { name: /^Payer/ }).click();
    await payWithSandboxCard(page);

    const expected = new Date(expiresBefore.getTime() + 365 * 86_400_000);
    const day = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris' }).format(expected);
    await page.goto(`${env.server.url}/commande/${order.id}/fichiers`);
    expect(plain(await page.locator('main').textContent())).toContain(`Conservés jusqu’au ${day}`);
    await expectNoSeriousA11yViolations(page);
    await page.context().close();
  });
});
