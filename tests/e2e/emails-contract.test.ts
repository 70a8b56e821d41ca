import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company } from '~/domain/company';
import { TERMS_VERSION } from '~/domain/terms';
import type { ReceivedMessage, TestSmtpServer } from '~/server/email/testing/smtp-test-server';
import { addSessionCookie, createUser, randomIp } from '../support/auth';
import { fillBillingAddress, TEST_BILLING_ADDRESS } from '../support/billing';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { isPdf, pdfText, popplerText } from '../support/pdf';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';
import type { SharedServer } from '../support/shared-shop';

/*
 * The e-mails and the contract on a durable medium (docs/decisions/015), on the built app with a
 * real SMTP peer: a guest pays and opens the invoice link of « Paiement reçu » on another device (a
 * new browser, no cookie); a signed-in customer who orders and pays receives each e-mail once; the
 * order confirmation is the contract on a durable medium (terms of sale and withdrawal form
 * attached); every message answers to the shop's mailbox (Reply-To).
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

/**
 * Every message for `address`, once the outbox has sent all it queued for it (so that a late
 * duplicate would be counted): the SMTP peer's record, in the order received.
 */
async function allMailFor(address: string, atLeast: number): Promise<ReceivedMessage[]> {
  const pending = async () => {
    const { rows } = await db.query<{ total: number; open: number }>(
      `select count(*)::int as total, count(*) filter (where status <> 'sent')::int as open
       from email_outbox where "to" = $1`,
      [address],
    );
    return rows[0] ?? { total: 0, open: 0 };
  };
  await expect
    .poll(
      async () => {
        const { total, open } = await pending();
        return total >= atLeast && open === 0;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  const { total } = await pending();
  const received = () => smtp.messages.filter((m) => m.envelopeTo.includes(address));
  await expect.poll(() => received().length).toBe(total);
  return received();
}

/** The PDF attachments of a message: file name and bytes (nodemailer writes them in base64). */
function pdfAttachments(message: ReceivedMessage): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const part of message.raw.split(/\r\n--[^\r\n]+\r\n/)) {
    if (!/^Content-Type: application\/pdf/im.test(part)) continue;
    const name = /filename="?([^";\r\n]+)"?/i.exec(part)?.[1] ?? '';
    const body = part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n--[\s\S]*$/, '');
    found.set(name, Buffer.from(body.replace(/\s+/g, ''), 'base64'));
  }
  return found;
}

/** An address of the shop named in a message's text (the links are spelled out beside the buttons). */
function linkIn(message: ReceivedMessage, path: RegExp): string {
  const url = message.text.match(new RegExp(`${server.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${path.source}`));
  expect(url, `a link matching ${path} in « ${message.subject} »`).not.toBeNull();
  return (url as RegExpMatchArray)[0];
}

/** Configurator: 200 slides (90,00 €, nothing to post back), then « Commander »: the checkout of a draft. */
async function orderSlides(page: Page): Promise<string> {
  await page.goto(`${server.url}/configurateur`);
  const slides = page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: /^Diapositives\s/ }) });
  await slides.getByRole('checkbox').check();
  await slides.getByLabel('Quantité').fill('200');
  await page.getByRole('button', { name: 'Commander' }).click();
  await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
  return new URL(page.url()).searchParams.get('orderId') as string;
}

/**
 * « Payer » at checkout with the billing address completed (a digital order asks it of everyone),
 * then the sandbox's card form posted as a plain form (its page's own fields).
 */
async function payByCard(page: Page, orderId: string): Promise<void> {
  await fillBillingAddress(page);
  await page.getByRole('checkbox', { name: CONSENT }).check();
  await page.getByRole('button', { name: 'Payer 90,00\u00A0€' }).click();
  await page.waitForURL(/\/paiement\/sandbox\//);
  const paid = await fetch(page.url(), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: server.url,
      'x-forwarded-for': randomIp(),
    },
    body: new URLSearchParams({
      intent: 'pay',
      cardHolder: 'Marie Curie',
      cardNumber: '4242424242424242',
      expiryDate: '12/30',
      cvv: '123',
    }),
  });
  expect(paid.status).toBe(302);
  await expect
    .poll(async () => {
      const { rows } = await db.query<{ payment_status: string }>('select payment_status from orders where id = $1', [
        orderId,
      ]);
      return rows[0]?.payment_status;
    })
    .toBe('paid');
}

async function orderRow(orderId: string) {
  const { rows } = await db.query<{ number: string; invoice: string }>(
    `select o.number, i.number as invoice from orders o join invoices i on i.order_id = o.id where o.id = $1`,
    [orderId],
  );
  return rows[0] as { number: string; invoice: string };
}

function expectReplyToShop(messages: ReceivedMessage[]) {
  for (const message of messages) {
    expect(message.headers.get('reply-to'), `Reply-To of « ${message.subject} »`).toBe(company.email);
  }
}

describe('a guest’s e-mails open their order on another device', () => {
  it('« Paiement reçu » links to the invoice with a token: a new browser sees it, and its PDF', async () => {
    const email = `invite-${randomBytes(3).toString('hex')}@example.fr`;
    const page = await openPage(browser, undefined, { extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
    const orderId = await orderSlides(page);
    await page.getByLabel('Adresse e-mail').fill(email);
    await page.getByLabel('Prénom').fill('Irène');
    await page.getByLabel('Nom', { exact: true }).fill('Joliot-Curie');
    await payByCard(page, orderId);
    await page.close();
    const { number, invoice } = await orderRow(orderId);

    const messages = await allMailFor(email, 2);
    expect(messages.map((m) => plain(m.subject)).sort()).toEqual(
      [`Confirmation de votre commande ${number}`, `Paiement reçu pour la commande ${number}`].sort(),
    );
    expectReplyToShop(messages);
    const received = messages.find((m) => m.subject.startsWith('Paiement reçu')) as ReceivedMessage;
    const text = plain(received.text);
    // A guest has no customer area: the invoice is « ici », behind the link.
    expect(text).toContain(`Votre facture ${invoice} est disponible ici :`);
    expect(text).not.toContain('espace client');
    const invoiceLink = linkIn(received, new RegExp(`/facture/${orderId}\\?token=[A-Za-z0-9_-]{43}`));

    // The phone's mail app: another browser, without the ordering browser's cookie.
    const phone = await openPage(browser, undefined, { extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
    await phone.goto(invoiceLink);
    await phone.getByRole('heading', { level: 1, name: `Facture ${invoice}` }).waitFor();
    // The token left the address bar (and the history) once the cookie was set.
    expect(phone.url()).toBe(`${server.url}/facture/${orderId}`);
    // A consumer's digital order: the invoice names the buyer at the billing address given at checkout.
    const billingLines = [
      'Irène Joliot-Curie',
      TEST_BILLING_ADDRESS.line1,
      `${TEST_BILLING_ADDRESS.postalCode} ${TEST_BILLING_ADDRESS.city}`,
    ];
    const pageText = plain(await phone.locator('main').innerText()).replace(/\s+/g, ' ');
    for (const line of billingLines) expect(pageText).toContain(line);
    await expectNoSeriousA11yViolations(phone);
    await phone.close();

    // The PDF takes the same token.
    const token = new URL(invoiceLink).searchParams.get('token') as string;
    const first = await fetch(`${server.url}/facture/${orderId}/pdf?token=${token}`, { redirect: 'manual' });
    expect(first.status).toBe(302);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const pdf = await fetch(new URL(first.headers.get('location') as string, server.url), { headers: { cookie } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(isPdf(bytes)).toBe(true);
    expect(pdfText(bytes)).toContain(`Facture ${invoice}`);
    const pdfWords = popplerText(bytes).replace(/\s+/g, ' ');
    for (const line of billingLines) expect(pdfWords).toContain(line);

    // The confirmation's links (the order, the slip) carry the same token: every e-mail opens the order.
    const confirmation = messages.find((m) => m.subject.startsWith('Confirmation')) as ReceivedMessage;
    expect(linkIn(confirmation, new RegExp(`/confirmation\\?orderId=${orderId}&token=[A-Za-z0-9_-]{43}`))).toContain(
      `token=${token}`,
    );
    expect(
      linkIn(confirmation, new RegExp(`/commande/${orderId}/bordereau\\.pdf\\?token=[A-Za-z0-9_-]{43}`)),
    ).toContain(`token=${token}`);
    // Without the token, or with another one, a stranger still gets « Page introuvable ».
    expect((await fetch(`${server.url}/facture/${orderId}`)).status).toBe(404);
    const forged = await fetch(`${server.url}/facture/${orderId}?token=${'x'.repeat(43)}`, { redirect: 'manual' });
    expect(forged.headers.get('set-cookie')).toBeNull();
  });
});

describe('a signed-in customer’s order and payment', () => {
  it('sends each e-mail once: the confirmation with the contract, then the receipt with the invoice', async () => {
    const customer = await createUser({ url: server.url, firstName: 'Marie' });
    const page = await openPage(browser, undefined, { extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
    await addSessionCookie(page, server.url, customer.cookie);
    const orderId = await orderSlides(page);
    await payByCard(page, orderId);
    const { number, invoice } = await orderRow(orderId);

    const messages = await allMailFor(customer.email, 3);
    const subjects = messages.map((m) => plain(m.subject));
    expect(subjects.sort()).toEqual(
      [
        // Registration: one e-mail, the welcome with the address confirmation.
        'Bienvenue chez Soovenirs : confirmez votre adresse e-mail',
        `Confirmation de votre commande ${number}`,
        `Paiement reçu pour la commande ${number}`,
      ].sort(),
    );
    expectReplyToShop(messages);

    const confirmation = messages.find((m) => m.subject.startsWith('Confirmation')) as ReceivedMessage;
    const text = plain(confirmation.text);
    expect(text).toContain('Votre contrat');
    expect(text).toMatch(
      /Vous avez accepté le \d{2}\/\d{2}\/\d{4} nos conditions générales de vente \(CGV du 24\/11\/2026\)/,
    );
    expect(text).toContain('Droit de rétractation');
    expect(text).toMatch(
      /vous avez demandé expressément que la numérisation commence avant la fin du délai de rétractation/,
    );
    expect(text).toContain('vous perdez votre droit de rétractation');
    const attachments = pdfAttachments(confirmation);
    expect([...attachments.keys()].sort()).toEqual(
      [`conditions-generales-de-vente-${TERMS_VERSION}.pdf`, `formulaire-de-retractation-${number}.pdf`].sort(),
    );
    const terms = attachments.get(`conditions-generales-de-vente-${TERMS_VERSION}.pdf`) as Buffer;
    expect(isPdf(terms)).toBe(true);
    const termsText = plain(pdfText(terms));
    expect(termsText).toContain('Conditions générales de vente');
    expect(termsText).toContain('CGV du 24/11/2026');
    expect(termsText).toContain('Le droit de rétractation');
    expect(termsText).toContain('Annexe : formulaire de rétractation');
    const form = plain(pdfText(attachments.get(`formulaire-de-retractation-${number}.pdf`) as Buffer));
    expect(form).toContain('Formulaire de rétractation');
    expect(form).toContain('Annexe à l’article R221-1 du Code de la consommation');
    expect(form).toContain(plain(`${company.legalName}, ${company.street}, ${company.postalCode} ${company.city}`));
    expect(form).toContain(`Commande n° ${number}`);

    // The receipt says something else: the payment and the invoice, in the customer area.
    const receipt = messages.find((m) => m.subject.startsWith('Paiement reçu')) as ReceivedMessage;
    expect(plain(receipt.text)).toContain(`Votre facture ${invoice} est disponible dans votre espace client :`);
    expect(receipt.text).not.toContain('Votre contrat');
    expect(pdfAttachments(receipt).size).toBe(0);
  });
});
