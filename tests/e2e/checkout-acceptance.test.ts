import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedMessage, TestSmtpServer } from '~/server/email/testing/smtp-test-server';
import { addSessionCookie, randomIp } from '../support/auth';
import { fillBillingAddress } from '../support/billing';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { facturXBatch } from '../support/factur-x';
import { insertTestOrder, orderState, type TestOrder } from '../support/orders';
import { isPdf, pdfText } from '../support/pdf';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';
import type { SharedServer } from '../support/shared-shop';

/*
 * The checkout from start to end in Chromium, on the built app with a real SMTP peer: a guest
 * orders in the configurator, pays at the sandbox (a declined card first), lands on /confirmation,
 * opens the invoice and downloads its PDF, and receives both e-mails (order confirmation, payment
 * received with the invoice). Then the offline methods (bank transfer, cheque) with their
 * instructions, and the confirmation page that waits for the gateway's notification.
 */

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');
const CONSENT = /Je demande expressément que la numérisation de ma commande commence/;

let server: SharedServer;
let browser: Browser;
let smtp: TestSmtpServer;
let db: pg.Client;

let shop: SharedServerWithSmtp;

beforeAll(async () => {
  [shop, browser] = await Promise.all([sharedServerWithSmtp({ PAYMENT_SANDBOX: 'on' }), launchBrowser()]);
  ({ server, smtp, db } = shop);
});

afterAll(async () => {
  await browser?.close();
  await shop?.dispose();
});

/** The messages the SMTP peer received for an address, once there are `count` of them. */
async function mailFor(address: string, count: number): Promise<ReceivedMessage[]> {
  const received = () => smtp.messages.filter((m) => m.envelopeTo.includes(address));
  await expect.poll(() => received().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(count);
  return received();
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Titulaire de la carte').fill('Irène Joliot-Curie');
  await page.getByLabel('Numéro de carte').fill(number);
  await page.getByLabel('Date d’expiration').fill('12/30');
  await page.getByLabel('CVV').fill('123');
}

async function guestPage(order: TestOrder): Promise<Page> {
  const page = await openPage(browser, undefined, { extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
  await addSessionCookie(page, server.url, order.cookie as string);
  return page;
}

// The invoices and credit notes this file downloads, validated together once it is done.
const facturX = facturXBatch();
afterAll(() => facturX.expectAllValid(), 240_000);

describe('a guest’s card payment, from the configurator to the invoice', () => {
  it('pays with 4242 after a declined card, opens the invoice, downloads its PDF and receives both e-mails', async () => {
    const email = `irene-${randomBytes(3).toString('hex')}@example.fr`;
    const page = await openPage(browser, undefined, { extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
    await page.goto(`${server.url}/configurateur`);
    const slides = page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: /^Diapositives\s/ }) });
    await slides.getByRole('checkbox').check();
    await slides.getByLabel('Quantité').fill('200');
    await page.getByRole('button', { name: 'Commander' }).click();
    await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
    const orderId = new URL(page.url()).searchParams.get('orderId') as string;
    const pay = 'Payer 90,00\u00A0€'; // 200 x 0,45 €

    await page.getByLabel('Adresse e-mail').fill(email);
    await page.getByLabel('Prénom').fill('Irène');
    await page.getByLabel('Nom', { exact: true }).fill('Joliot-Curie');
    await page.getByRole('checkbox', { name: CONSENT }).check();
    await fillBillingAddress(page);
    await page.getByRole('button', { name: pay }).click();
    await page.waitForURL(/\/paiement\/sandbox\//);

    // Declined: a French message, and nothing changes. The order's confirmation leaves the outbox on
    // the worker's own schedule (its « email_sent » history line): wait for it, so that it does not
    // land between the two snapshots.
    await expect
      .poll(async () => (await orderState(server.databaseUrl, orderId)).events.includes('email_sent'), {
        timeout: 20_000,
      })
      .toBe(true);
    const before = await orderState(server.databaseUrl, orderId);
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: pay }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Erreur de paiement' });
    await expect.poll(() => alert.textContent()).toContain('Votre carte a été refusée');
    expect(await orderState(server.databaseUrl, orderId)).toEqual(before);

    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: pay }).click();
    await page.waitForURL(`${server.url}/confirmation?orderId=${orderId}&paiement=retour`);
    // Whether the notification came first or not, the page shows the payment without a reload.
    await expect
      .poll(() => page.getByText('Votre paiement a bien été reçu').isVisible(), { timeout: 15_000 })
      .toBe(true);
    const { invoices, paymentStatus } = await orderState(server.databaseUrl, orderId);
    expect(paymentStatus).toBe('paid');
    const invoiceNumber = invoices[0] as string;
    // Paid through the sandbox: a demonstration invoice, in its own series.
    expect(invoiceNumber).toMatch(/^TEST-FA-\d{4}-\d{6}$/);
    await expectNoSeriousA11yViolations(page);

    // The invoice, then its PDF: a real download.
    await page.getByRole('link', { name: `Voir la facture ${invoiceNumber}` }).click();
    await page.waitForURL(`${server.url}/facture/${orderId}`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: `Facture ${invoiceNumber}` }).isVisible())
      .toBe(true);
    expect(await page.getByText('Document de démonstration — sans valeur').isVisible()).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Télécharger le PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`facture-${invoiceNumber}.pdf`);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const pdf = Buffer.concat(chunks);
    expect(isPdf(pdf)).toBe(true);
    expect(pdfText(pdf)).toContain(`Facture ${invoiceNumber}`);
    // A Factur-X: its XML passes the XSD, EN 16931 and BR-FR; its fonts are embedded (afterAll).
    facturX.add(pdf, invoiceNumber);

    // Both e-mails reached the SMTP peer.
    const messages = await mailFor(email, 2);
    const { rows } = await db.query<{ number: string }>('select number from orders where id = $1', [orderId]);
    const number = rows[0]?.number;
    const confirmation = messages.find((m) => m.subject === `Confirmation de votre commande ${number}`);
    expect(confirmation, 'the order confirmation').toBeDefined();
    expect(plain(confirmation?.text ?? '')).toContain('90,00 €');
    expect(confirmation?.text).toContain(`/confirmation?orderId=${orderId}&token=`);
    const received = messages.find((m) => m.subject === `Paiement reçu pour la commande ${number}`);
    expect(received, 'the payment received e-mail').toBeDefined();
    expect(received?.text).toContain(`Votre facture ${invoiceNumber}`);
    expect(received?.text).toContain(`/facture/${orderId}`);
  });
});

describe('paying by bank transfer or cheque', () => {
  it('by transfer: the order stays to pay, /confirmation and the e-mail give the bank details and the reference', async () => {
    const email = `virement-${randomBytes(3).toString('hex')}@example.fr`;
    const order = await insertTestOrder(server.databaseUrl, { guestEmail: email });
    const page = await guestPage(order);
    await page.goto(`${server.url}/checkout?orderId=${order.id}`);
    await page.getByRole('radio', { name: 'Virement bancaire' }).check();
    await page.getByRole('checkbox', { name: CONSENT }).check();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Commander et payer 94,90\u00A0€ par virement' }).click();
    await page.waitForURL(`${server.url}/confirmation?orderId=${order.id}`);

    const instructions = page.getByRole('region', { name: 'Paiement par virement bancaire' });
    await expect.poll(() => instructions.isVisible()).toBe(true);
    const shown = plain((await instructions.textContent()) ?? '');
    for (const expected of [
      'Soovenirs SAS',
      'FR76 3000 4008 2800 0123 4567 841',
      'BNPAFRPPXXX',
      '94,90 €',
      `en indiquant la référence ${order.number} dans le libellé du virement`,
    ]) {
      expect(shown).toContain(expected);
    }
    expect(await page.getByRole('status').filter({ hasText: 'dès réception de votre paiement' }).isVisible()).toBe(
      true,
    );
    await expectNoSeriousA11yViolations(page);
    expect(await orderState(server.databaseUrl, order.id)).toMatchObject({
      paymentStatus: 'pending',
      payments: [],
      invoices: [],
    });

    const [message] = await mailFor(email, 1);
    expect(plain(message?.subject ?? '')).toBe(
      `Confirmation de votre commande ${order.number} : paiement par virement`,
    );
    expect(plain(message?.text ?? '')).toContain('FR76 3000 4008 2800 0123 4567 841');
    expect(message?.text).toContain(order.number);

    // The customer may still change their mind and pay by card.
    await page.getByRole('link', { name: 'Payer plutôt par carte bancaire' }).click();
    await page.waitForURL(`${server.url}/checkout?orderId=${order.id}`);
    await expect.poll(() => page.getByRole('radio', { name: 'Carte bancaire' }).isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: 'Payer 94,90\u00A0€' }).isVisible()).toBe(true);
  });

  it('by cheque, without JavaScript: the payee and the address to send it to', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const page = await openPage(browser, undefined, {
      javaScriptEnabled: false,
      extraHTTPHeaders: { 'x-forwarded-for': randomIp() },
    });
    await addSessionCookie(page, server.url, order.cookie as string);
    await page.goto(`${server.url}/checkout?orderId=${order.id}`);
    await page.getByRole('radio', { name: 'Chèque' }).check();
    await page.getByRole('checkbox', { name: CONSENT }).check();
    await page.getByRole('button', { name: 'Payer 94,90\u00A0€' }).click();
    await page.waitForURL(`${server.url}/confirmation?orderId=${order.id}`);
    const shown = plain((await page.getByRole('region', { name: 'Paiement par chèque' }).textContent()) ?? '');
    expect(shown).toContain('à l’ordre de Soovenirs SAS');
    expect(shown).toContain('12 rue des Archives, 75004 Paris');
    expect(shown).toContain(order.number);
    const [row] = (await db.query('select payment_method, payment_status from orders where id = $1', [order.id])).rows;
    expect(row).toEqual({ payment_method: 'cheque', payment_status: 'pending' });
  });

  it('refuses an unknown method in French and changes nothing', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const before = await orderState(server.databaseUrl, order.id);
    const response = await fetch(`${server.url}/checkout?orderId=${order.id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: order.cookie as string,
        origin: server.url,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': randomIp(),
      },
      body: new URLSearchParams({ intent: 'pay', earlyStartConsent: 'on', paymentMethod: 'paypal' }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Moyen de paiement invalide');
    expect(await orderState(server.databaseUrl, order.id)).toEqual(before);
  });
});

describe('back from the gateway before its notification', () => {
  async function openSession(order: TestOrder): Promise<string> {
    const response = await fetch(`${server.url}/api/create-checkout`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: server.url,
        'x-forwarded-for': randomIp(),
        cookie: order.cookie as string,
      },
      body: JSON.stringify({ orderId: order.id, returnUrl: `/confirmation?orderId=${order.id}&paiement=retour` }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { url: string }).url;
  }

  it('shows “Paiement en cours de confirmation”, then the payment, without a reload', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const sessionUrl = await openSession(order);
    const page = await guestPage(order);
    await page.goto(`${server.url}/confirmation?orderId=${order.id}&paiement=retour`);
    const confirming = page.getByRole('status').filter({ hasText: 'Paiement en cours de confirmation' });
    await expect.poll(() => confirming.isVisible()).toBe(true);
    expect(await confirming.textContent()).toContain('Cette page se met à jour toute seule');
    await page.locator('section[data-hydrated="true"]').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });

    // The payment completes elsewhere (another tab); the gateway notifies the shop.
    const gateway = await page.context().newPage();
    await gateway.goto(sessionUrl);
    await fillCard(gateway, '4242 4242 4242 4242');
    await gateway.getByRole('button', { name: 'Payer 94,90\u00A0€' }).click();
    await gateway.waitForURL(`${server.url}/confirmation?orderId=${order.id}&paiement=retour`);
    // Back to the first tab, as the customer would: a hidden tab's timers are throttled by Chromium.
    await page.bringToFront();

    await expect
      // The page asks every 3 s; on a loaded 2-core machine the notification and a refresh can take longer
      // (25 s was once not enough in a whole run).
      .poll(() => page.getByText('Votre paiement a bien été reçu').isVisible(), { timeout: 45_000 })
      .toBe(true);
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    expect(await confirming.count()).toBe(0);
  });

  it('after a minute without news, says the e-mail will follow', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    await openSession(order);
    const page = await guestPage(order);
    await page.clock.install();
    await page.goto(`${server.url}/confirmation?orderId=${order.id}&paiement=retour`);
    await page.locator('section[data-hydrated="true"]').waitFor();
    expect(await page.getByText('Paiement en cours de confirmation').isVisible()).toBe(true);
    await page.clock.runFor(61_000);
    await expect.poll(() => page.getByText('La confirmation prend plus de temps que prévu').isVisible()).toBe(true);
    expect(plain((await page.getByRole('status').first().textContent()) ?? '')).toContain(
      'Vous recevrez un e-mail dès que votre paiement sera confirmé',
    );
    expect((await orderState(server.databaseUrl, order.id)).paymentStatus).toBe('pending');
  });

  it('reached from elsewhere than the gateway (an abandoned session), the order is simply to pay', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    await openSession(order);
    const page = await guestPage(order);
    await page.goto(`${server.url}/confirmation?orderId=${order.id}`);
    await expect.poll(() => page.getByText('dès réception de votre paiement').isVisible()).toBe(true);
    expect(await page.getByText('Paiement en cours de confirmation').count()).toBe(0);
    await page.getByRole('link', { name: 'Payer ma commande' }).click();
    await page.waitForURL(`${server.url}/checkout?orderId=${order.id}`);
  });
});
