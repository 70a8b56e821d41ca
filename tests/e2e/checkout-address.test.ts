import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser, randomIp } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { SANDBOX_ENV, type SharedServer, sharedServer } from '../support/shared-shop';

/*
 * The delivery address at checkout in Chromium: a guest orders a USB key with the return of the
 * originals, gets French messages for a wrong postal code and a missing phone, fixes them, pays
 * with the sandbox and finds the address on the confirmation and the invoice; a signed-in customer
 * finds the form filled from their profile.
 */

let server: SharedServer;
let browser: Browser;
let client: pg.Client;

const CONSENT = /Je demande expressément que la numérisation de ma commande commence/;
const PHYSICAL = '/configurateur?support=photos&photos.quantity=100&delivery=usb&returnOriginals=on';

beforeAll(async () => {
  [server, browser] = await Promise.all([sharedServer(SANDBOX_ENV), launchBrowser()]);
  client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await browser?.close();
  await server?.dispose();
});

async function orderFromConfigurator(page: Page): Promise<string> {
  await page.goto(`${server.url}${PHYSICAL}`);
  await page.getByRole('button', { name: 'Commander' }).click();
  await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
  return new URL(page.url()).searchParams.get('orderId') as string;
}

async function placedAt(orderId: string): Promise<Date | null> {
  const { rows } = await client.query<{ placed_at: Date | null }>('select placed_at from orders where id = $1', [
    orderId,
  ]);
  return rows[0]?.placed_at ?? null;
}

describe('the delivery address at checkout', () => {
  it('guides a guest through a wrong postal code and a missing phone, then shows the address on the confirmation and the invoice', async () => {
    const page = await openPage(browser, undefined, { extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
    const orderId = await orderFromConfigurator(page);

    const guest = page.getByRole('region', { name: 'Vos coordonnées' });
    await guest.getByLabel('Adresse e-mail').fill('marie.curie@example.fr');

    const delivery = page.getByRole('group', { name: 'Livraison' });
    await delivery.getByLabel('Prénom').fill('Marie');
    await delivery.getByLabel(/^Nom/).fill('Curie');
    await delivery.getByLabel('Numéro et rue').fill('12 rue des Lilas');
    await delivery.getByLabel('Code postal').fill('7501');
    await delivery.getByLabel('Ville').fill('Paris');
    await page.getByRole('checkbox', { name: CONSENT }).check();
    await page.getByRole('button', { name: /^Payer/ }).click();

    await expect
      .poll(() => delivery.getByText('Code postal invalide pour ce pays (exemple\u00a0: 75011)').isVisible())
      .toBe(true);
    expect(
      await delivery
        .getByText('Veuillez saisir un numéro de téléphone (le transporteur peut en avoir besoin)')
        .isVisible(),
    ).toBe(true);
    expect(await delivery.getByLabel('Code postal').getAttribute('aria-invalid')).toBe('true');
    expect(await placedAt(orderId)).toBeNull();
    await expectNoSeriousA11yViolations(page);

    await delivery.getByLabel('Code postal').fill('75011');
    await delivery.getByLabel('Téléphone').fill('06 12 34 56 78');
    await page.getByRole('checkbox', { name: CONSENT }).check();
    await page.getByRole('button', { name: /^Payer/ }).click();
    await page.waitForURL(/\/paiement\/sandbox\//);
    await page.getByLabel('Titulaire de la carte').fill('Marie Curie');
    await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
    await page.getByLabel('Date d’expiration').fill('12/30');
    await page.getByLabel('CVV').fill('123');
    await page.getByRole('button', { name: /^Payer/ }).click();
    await page.waitForURL(`${server.url}/confirmation?orderId=${orderId}&paiement=retour`);
    await expect
      .poll(() => page.getByText('Votre paiement a bien été reçu').isVisible(), { timeout: 15_000 })
      .toBe(true);

    const addresses = page.getByRole('region', { name: 'Adresses de la commande' });
    const shown = await addresses.textContent();
    expect(shown).toContain('Marie Curie');
    expect(shown).toContain('12 rue des Lilas');
    expect(shown).toContain('75011 Paris');
    expect(shown).toContain('France');

    await page.reload();
    await page.getByRole('link', { name: /^Voir la facture/ }).click();
    await page.waitForURL(`${server.url}/facture/${orderId}`);
    const invoice = await page.locator('main').textContent();
    expect(invoice).toContain('12 rue des Lilas');
    expect(invoice).toContain('75011 Paris');
    expect(invoice).toContain('France');
    await page.context().close();
  });

  it('fills a signed-in customer’s address from their profile', async () => {
    const customer = await createUser({ url: server.url, firstName: 'Irène', lastName: 'Joliot' });
    await client.query(
      `update "user" set street = '3 place du Marché', postal_code = '69002', city = 'Lyon', phone = '0712345678',
         country = 'FR' where id = $1`,
      [customer.id],
    );
    const page = await openPage(browser, undefined, { extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
    await addSessionCookie(page, server.url, customer.cookie);
    await orderFromConfigurator(page);
    const delivery = page.getByRole('group', { name: 'Livraison' });
    expect(await delivery.getByLabel('Prénom').inputValue()).toBe('Irène');
    expect(await delivery.getByLabel('Numéro et rue').inputValue()).toBe('3 place du Marché');
    expect(await delivery.getByLabel('Code postal').inputValue()).toBe('69002');
    expect(await delivery.getByLabel('Ville').inputValue()).toBe('Lyon');
    expect(await delivery.getByLabel('Téléphone').inputValue()).toBe('0712345678');
    expect(await page.getByRole('checkbox', { name: 'Enregistrer cette adresse dans mon profil' }).isVisible()).toBe(
      true,
    );
    await page.context().close();
  });
});
