import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { BUSINESS_MESSAGES } from '~/domain/invoices/business-buyer';
import { randomIp, uniqueEmail } from '../support/auth';
import { expectNoSeriousA11yViolations, openPage } from '../support/browser';
import { facturXBatch } from '../support/factur-x';
import { isPdf, popplerText } from '../support/pdf';
import { type SharedServer, test } from '../support/shared-shop';

/*
 * A business buyer in Chromium (docs/invoicing.md): a guest orders a digital service for a company
 * with its SIREN and VAT number, pays with the sandbox, and finds on the invoice page and in its PDF
 * every mention (billing address, business identity, unit prices excluding VAT, category of
 * operation, VAT on debits, payment terms); a wrong SIREN, or a public body's SIRET that is not its
 * SIREN's, is refused in French without JavaScript, with what was typed kept.
 */

const DIGITAL = '/configurateur?support=photos&photos.quantity=100&delivery=digital';
const CONSENT = /Je demande expressément que la numérisation de ma commande commence/;
const BUSINESS = 'Je commande pour une entreprise, une association ou un organisme public';

async function orderFromConfigurator(shop: SharedServer, page: Page): Promise<string> {
  await page.goto(`${shop.url}${DIGITAL}`);
  await page.getByRole('button', { name: 'Commander' }).click();
  await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
  return new URL(page.url()).searchParams.get('orderId') as string;
}

async function fillBusinessCheckout(page: Page, siren: string): Promise<void> {
  await page.getByLabel('Adresse e-mail').fill(uniqueEmail('archives'));
  const invoicing = page.getByRole('region', { name: 'Facturation' });
  await invoicing.getByLabel('Prénom').fill('Marie');
  await invoicing.getByLabel('Nom', { exact: true }).fill('Curie');
  await invoicing.getByLabel('Numéro et rue').fill('12 rue des Lilas');
  await invoicing.getByLabel('Code postal').fill('69002');
  await invoicing.getByLabel('Ville').fill('Lyon');
  await invoicing.getByRole('checkbox', { name: BUSINESS }).check();
  await invoicing.getByLabel('Raison sociale').fill('Archives Curie SARL');
  await invoicing.getByLabel('Numéro SIREN').fill(siren);
  await invoicing.getByLabel(/^Numéro de TVA/).fill('FR96 552 100 554');
  await invoicing.getByLabel(/^Référence de bon de commande/).fill('BC-2027-12');
  await page.getByRole('checkbox', { name: CONSENT }).check();
}

async function withDatabase<T>(shop: SharedServer, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: shop.databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const MENTIONS = [
  'Archives Curie SARL',
  'SIREN 552 100 554',
  'TVA intracommunautaire FR96552100554',
  'Bon de commande BC-2027-12',
  'Marie Curie',
  '12 rue des Lilas',
  '69002 Lyon',
  'Prix unit. HT',
  'Prestation de services',
  'Option pour le paiement de la taxe d’après les débits',
  'Date d’échéance du paiement',
  'Pénalités de retard',
  'article D441-5 du Code de commerce',
  'Facture acquittée le',
];

/** The text with every kind of space as one plain space (the PDF's no-break spaces read as plain ones). */
const spaced = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');

const facturX = facturXBatch();
afterAll(() => facturX.expectAllValid(), 240_000);

describe('a business buyer’s invoice', () => {
  test('orders a digital service with SIREN and VAT number, pays, and reads every mention on the page and the PDF', async ({
    sandboxShop: shop,
    browser,
  }: {
    sandboxShop: SharedServer;
    browser: Browser;
  }) => {
    // The shop opts for VAT on debits (the back office's « Facturation » setting).
    await withDatabase(shop, (client) =>
      client.query(
        `insert into config_options (option_name, option_value) values ('invoicing_config', $1)
           on conflict (option_name) do update set option_value = excluded.option_value`,
        [
          JSON.stringify({
            vatOnDebits: true,
            paymentDueDays: 30,
            latePenaltyRate: 'trois fois le taux d’intérêt légal',
          }),
        ],
      ),
    );
    try {
      const page = await openPage(browser, undefined, { extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
      const orderId = await orderFromConfigurator(shop, page);
      await fillBusinessCheckout(page, '552 100 554');
      await expectNoSeriousA11yViolations(page);
      await page.getByRole('button', { name: /^Payer/ }).click();
      await page.waitForURL(/\/paiement\/sandbox\//);
      await page.getByLabel('Titulaire de la carte').fill('Marie Curie');
      await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
      await page.getByLabel('Date d’expiration').fill('12/30');
      await page.getByLabel('CVV').fill('123');
      await page.getByRole('button', { name: /^Payer/ }).click();
      await page.waitForURL(`${shop.url}/confirmation?orderId=${orderId}&paiement=retour`);
      await expect
        .poll(() => page.getByText('Votre paiement a bien été reçu').isVisible(), { timeout: 15_000 })
        .toBe(true);

      await page.goto(`${shop.url}/facture/${orderId}`);
      const shown = spaced((await page.locator('main').textContent()) ?? '');
      for (const mention of MENTIONS) expect(shown).toContain(spaced(mention));
      // 100 photos at 0,35 € TTC: 29,17 € HT, 0,2917 € each.
      expect(shown).toContain('0,2917 €');
      await expectNoSeriousA11yViolations(page);

      const answer = await page.request.get(`${shop.url}/facture/${orderId}/pdf`);
      expect(answer.status()).toBe(200);
      const pdf = Buffer.from(await answer.body());
      expect(isPdf(pdf)).toBe(true);
      const text = spaced(popplerText(pdf));
      for (const mention of MENTIONS) expect(text).toContain(spaced(mention));
      expect(text).toContain('0,2917 €');
      // A business invoice is a Factur-X with the buyer's SIREN and VAT number (checked in afterAll).
      facturX.add(pdf, 'business invoice');
      await page.context().close();
    } finally {
      await withDatabase(shop, (client) =>
        client.query(`delete from config_options where option_name = 'invoicing_config'`),
      );
    }
  });

  test('refuses a wrong SIREN, or a public body’s SIRET of another SIREN, in French without JavaScript, keeping what was typed', async ({
    sandboxShop: shop,
    browser,
  }: {
    sandboxShop: SharedServer;
    browser: Browser;
  }) => {
    // The configurator is a script's page: the draft is made there; « Payer » is then the plain
    // form post a browser without JavaScript sends, answered with the page in HTML.
    const ip = randomIp();
    const page = await openPage(browser, undefined, { extraHTTPHeaders: { 'x-forwarded-for': ip } });
    const orderId = await orderFromConfigurator(shop, page);
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    await page.context().close();
    const pay = (fields: Record<string, string>) =>
      fetch(`${shop.url}/checkout?orderId=${orderId}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie,
          origin: shop.url,
          'x-forwarded-for': ip,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(fields),
      });
    const answer = await pay({
      intent: 'pay',
      paymentMethod: 'card',
      earlyStartConsent: 'on',
      'contact.email': uniqueEmail('archives'),
      'billing.firstName': 'Marie',
      'billing.lastName': 'Curie',
      'billing.line1': '12 rue des Lilas',
      'billing.postalCode': '69002',
      'billing.city': 'Lyon',
      'billing.country': 'FR',
      isBusiness: 'on',
      'business.companyName': 'Archives Curie SARL',
      'business.siren': '552 100 555',
      'business.vatNumber': 'FR96 552 100 554',
    });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain('Ce numéro SIREN n’existe pas\u00a0: vérifiez les 9 chiffres');
    expect(html).toContain('value="552 100 555"');
    expect(html).toContain('value="Archives Curie SARL"');
    expect(html).toContain('value="12 rue des Lilas"');

    // A public body: the SIRET of its establishment, which must start with its SIREN.
    const publicBody = await pay({
      intent: 'pay',
      paymentMethod: 'transfer',
      earlyStartConsent: 'on',
      'contact.email': uniqueEmail('mairie'),
      'billing.firstName': 'Marie',
      'billing.lastName': 'Curie',
      'billing.line1': '1 place de la Comédie',
      'billing.postalCode': '69001',
      'billing.city': 'Lyon',
      'billing.country': 'FR',
      isBusiness: 'on',
      'business.companyName': 'Mairie de Lyon',
      'business.siren': '552 100 554',
      'business.publicBody': 'on',
      'business.siret': '219 300 480 00015',
      'business.chorusServiceCode': 'ARCHIVES',
    });
    expect(publicBody.status).toBe(200);
    const refusedSiret = await publicBody.text();
    expect(refusedSiret).toContain(BUSINESS_MESSAGES.siretSiren);
    expect(refusedSiret).toContain('value="219 300 480 00015"');
    expect(refusedSiret).toContain('value="ARCHIVES"');
    const placed = await withDatabase(shop, (client) =>
      client.query<{ placed_at: Date | null }>('select placed_at from orders where id = $1', [orderId]),
    );
    expect(placed.rows[0]?.placed_at).toBeNull();
  });
});
