import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedMessage } from '~/server/email/testing/smtp-test-server';
import { addSessionCookie, createUser, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { facturXBatch } from '../support/factur-x';
import { insertTestOrder, orderState } from '../support/orders';
import { payBySandboxCard } from '../support/payments';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';

/*
 * The customer's way back in (docs/decisions/023), on the built app with a real SMTP peer. An
 * account holder pays an order by card, then withdraws from it (paid, not started: refunded in full
 * with a credit note). Every link of every e-mail they received, opened signed out in a fresh
 * browser, leads to /login and, once signed in, back to that page or document, never « Page
 * introuvable »; another customer gets a 404. Then the account: the credit note in « Mes
 * factures », a draft kept in « Devis et brouillons » without the withdrawal button, and the order
 * page counting its files.
 */

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

let env: SharedServerWithSmtp;
let browser: Browser;
let customer: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  [env, browser] = await Promise.all([sharedServerWithSmtp({ PAYMENT_SANDBOX: 'on' }), launchBrowser()]);
  [customer, stranger] = await Promise.all([
    createUser({ url: env.server.url, firstName: 'Jeanne' }),
    createUser({ url: env.server.url, firstName: 'Paul' }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

async function signedInPage(path: string): Promise<Page> {
  const page = await openPage(browser);
  await addSessionCookie(page, env.server.url, customer.cookie);
  await page.goto(`${env.server.url}${path}`);
  return page;
}

/** The messages to `address` once the outbox has sent all it queued for it. */
async function mailFor(address: string, atLeast: number): Promise<ReceivedMessage[]> {
  await expect
    .poll(
      async () => {
        const { rows } = await env.db.query<{ total: number; open: number }>(
          `select count(*)::int as total, count(*) filter (where status <> 'sent')::int as open
             from email_outbox where "to" = $1`,
          [address],
        );
        const { total, open } = rows[0] ?? { total: 0, open: 0 };
        return total >= atLeast && open === 0 && env.smtp.messages.filter((m) => m.envelopeTo.includes(address)).length;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(atLeast);
  return env.smtp.messages.filter((m) => m.envelopeTo.includes(address));
}

/** The shop's links of a message (its buttons and spelled-out addresses), as paths. */
function shopLinks(message: ReceivedMessage): string[] {
  const links = new Set<string>();
  for (const [, href] of message.html.matchAll(/href="([^"]+)"/g)) {
    const url = new URL((href as string).replace(/&amp;/g, '&'), env.server.url);
    if (url.origin === new URL(env.server.url).origin) links.add(`${url.pathname}${url.search}`);
  }
  return [...links];
}

const DOCUMENT = /\/pdf(\?|$)|\.pdf$|\.zip$/;

async function signIn(page: Page) {
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(customer.password);
}

// The invoices and credit notes this file downloads, validated together once it is done.
const facturX = facturXBatch();
afterAll(() => facturX.expectAllValid(), 240_000);

describe('the links of an account holder’s e-mails, opened signed out', () => {
  it('lead to /login and back to the page or the document, and answer 404 to another customer', async () => {
    const url = env.server.url;
    const order = await insertTestOrder(env.server.databaseUrl, { userId: customer.id });
    // A draft placed at the checkout's « Payer »: the order confirmation (order page, slip) is sent too.
    await env.db.query('update orders set placed_at = null where id = $1', [order.id]);
    await payBySandboxCard(url, { id: order.id, cookie: customer.cookie }, customer.email);

    // Withdrawing from a paid order whose work has not started: its own words, then a full refund.
    const withdrawal = await signedInPage(`/retractation/${order.id}`);
    const outcome = plain(await withdrawal.getByTestId('withdrawal-outcome').innerText());
    expect(outcome).toContain(
      'Les travaux n’ont pas commencé : nous vous rembourserons la totalité des sommes versées',
    );
    expect(outcome).toContain('Vos originaux ne nous sont pas encore parvenus : ne nous les envoyez pas.');
    expect(outcome).not.toContain('rien ne vous sera demandé');
    await expectNoSeriousA11yViolations(withdrawal);
    await withdrawal.getByRole('button', { name: 'Confirmer la rétractation' }).click();
    await withdrawal.getByText('Votre rétractation est enregistrée.').first().waitFor();
    expect(plain(await withdrawal.locator('main').innerText())).toContain(
      'Les travaux n’avaient pas commencé : nous vous remboursons la totalité des sommes versées',
    );
    await expect.poll(async () => (await orderState(env.server.databaseUrl, order.id)).paymentStatus).toBe('refunded');

    // Welcome, confirmation, payment, acknowledgement and refund (« Voir mon avoir »).
    const messages = await mailFor(customer.email, 5);
    const acknowledgement = messages.find((m) => /Accusé de réception de votre rétractation/.test(m.subject));
    expect(plain(acknowledgement?.text ?? '')).toContain('nous vous remboursons la totalité des sommes versées');
    expect(plain(acknowledgement?.text ?? '')).not.toContain('rien ne vous sera demandé');
    for (const message of messages) {
      // Readable on a phone, marked automatic.
      expect(message.html).toContain('name="viewport"');
      expect(message.headers.get('auto-submitted')).toBe('auto-generated');
    }

    // The order's links (the welcome's address confirmation is the account's, not the order's).
    const links = [...new Set(messages.flatMap(shopLinks))].filter((link) => link.includes(order.id));
    expect(links).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^/confirmation\\?orderId=${order.id}$`)),
        `/facture/${order.id}`,
        expect.stringMatching(new RegExp(`^/facture/${order.id}\\?avoir=`)),
        `/commande/${order.id}/bordereau.pdf`,
      ]),
    );

    for (const link of links) {
      // Another customer: the 404 of an unknown order, nothing more.
      const foreign = await fetch(`${url}${link}`, { redirect: 'manual', headers: { cookie: stranger.cookie } });
      expect(foreign.status, link).toBe(404);
      // Signed out: to sign in, with the way back.
      const signedOut = await fetch(`${url}${link}`, { redirect: 'manual' });
      expect([signedOut.status, signedOut.headers.get('location')], link).toEqual([
        302,
        `/login?${new URLSearchParams({ redirectTo: link })}`,
      ]);
    }

    // Then through a fresh browser and a real sign-in (seconds each on a shared machine): the page
    // with a query to carry back (the credit note) and the documents come back once signed in.
    const creditNote = links.find((link) => link.includes('?avoir=')) as string;
    for (const link of [creditNote, ...links.filter((link) => DOCUMENT.test(link))]) {
      const login = `${url}/login?${new URLSearchParams({ redirectTo: link })}`;
      if (DOCUMENT.test(link)) {
        // A document: back to it once signed in, loaded by the browser (a PDF shown or downloaded).
        // A bare context: the PDF viewer's own favicon request is not the shop's console error.
        const context = await browser.newContext({ locale: 'fr-FR' });
        const page = await context.newPage();
        await page.goto(`${url}${link}`);
        await page.waitForURL(login);
        await signIn(page);
        // The browser's way back to the document is held at the browser: Chromium's PDF viewer (a
        // page of its own, or a download) is not what is tested, and a whole run once hung on it.
        const target = `${url}${link}`;
        await context.route(
          (address) => address.href === target,
          (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'document' }),
        );
        const cameBack = page.waitForRequest((request) => request.url() === target, { timeout: 30_000 });
        await page.getByRole('button', { name: 'Se connecter' }).click();
        await cameBack;
        // The session the sign-in set opens the document itself.
        const document = await context.request.get(target, { maxRedirects: 0 });
        expect({ status: document.status(), type: document.headers()['content-type'] }, link).toEqual({
          status: 200,
          type: 'application/pdf',
        });
        await context.close();
        continue;
      }
      const page = await openPage(browser);
      await page.goto(`${url}${link}`);
      await page.waitForURL(login);
      await signIn(page);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.waitForURL(`${url}${link}`);
      expect(await page.title(), link).not.toMatch(/introuvable/i);
      await page.getByText(order.number).first().waitFor();
      await page.context().close();
    }
  }, 240_000);
});

describe('the account and the order page', () => {
  it('list the credit note with the invoices and link it from the invoice and the order', async () => {
    const { rows } = await env.db.query<{ number: string; order_id: string }>(
      `select c.number, c.order_id from credit_notes c join orders o on o.id = c.order_id where o.user_id = $1`,
      [customer.id],
    );
    const note = rows[0];
    expect(note).toBeDefined();
    const invoices = await signedInPage('/profile?tab=factures');
    const listed = plain(await invoices.getByRole('tabpanel').innerText());
    expect(listed).toContain(note?.number);
    expect(listed).toContain('Avoir');
    await expectNoSeriousA11yViolations(invoices);
    await invoices
      .getByRole('link', { name: `Voir l’avoir ${note?.number}` })
      .first()
      .click();
    await invoices.waitForURL(/\/facture\/.+\?avoir=/);
    await invoices.getByRole('heading', { name: `Avoir ${note?.number}` }).waitFor();

    const invoice = await signedInPage(`/facture/${note?.order_id}`);
    await invoice.getByRole('link', { name: `Voir l’avoir ${note?.number}` }).waitFor();
    // The withdrawal's credit note, as the customer downloads it: a valid Factur-X.
    const notePdf = await invoice.request.get(`${env.server.url}/facture/${note?.order_id}/pdf?avoir=${note?.number}`);
    expect(notePdf.status()).toBe(200);
    facturX.add(await notePdf.body(), note?.number as string);
    await expectNoSeriousA11yViolations(invoice);
    const orderPage = await signedInPage(`/confirmation?orderId=${note?.order_id}`);
    await orderPage.getByRole('link', { name: `Voir l’avoir ${note?.number}` }).waitFor();
    // Withdrawn and refunded: no « Les travaux commenceront le … ».
    expect(plain(await orderPage.locator('main').innerText())).not.toContain('Les travaux commenceront');
    await expectNoSeriousA11yViolations(orderPage);
  });

  it('keeps a draft apart, without the withdrawal button, and counts the files of the order page', async () => {
    const draft = await insertTestOrder(env.server.databaseUrl, { userId: customer.id });
    await env.db.query('update orders set placed_at = null where id = $1', [draft.id]);
    const delivered = await insertTestOrder(env.server.databaseUrl, {
      userId: customer.id,
      paymentStatus: 'paid',
      status: 'processing',
    });
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg']) {
      await env.db.query(
        `insert into order_files (order_id, storage_key, name, support, kind, content_type, size_bytes, sha256, crc32,
           uploaded_by, preview_status)
         values ($1, $2, $3, 'photos', 'image', 'image/jpeg', 2048, $4, 0, 'atelier', 'none')`,
        [delivered.id, `test/${randomUUID()}`, name, randomBytes(32).toString('hex')],
      );
    }
    await env.db.query(`update orders set files_published_at = now(), stage = 'ready' where id = $1`, [delivered.id]);

    const account = await signedInPage('/profile');
    const orders = account.getByRole('tabpanel');
    const drafts = orders.getByRole('region', { name: 'Devis et brouillons' });
    await drafts.getByText(`Brouillon ${draft.number}`).waitFor();
    await drafts.getByRole('link', { name: `Reprendre le brouillon ${draft.number}` }).waitFor();
    expect(await drafts.getByRole('link', { name: /Renoncer au contrat ici/ }).count()).toBe(0);
    // « Mes commandes » lists placed orders only.
    const listed = plain(await orders.locator('table').first().innerText());
    expect(listed).toContain(delivered.number);
    expect(listed).not.toContain(draft.number);
    await expectNoSeriousA11yViolations(account);

    const orderPage = await signedInPage(`/confirmation?orderId=${delivered.id}`);
    const files = orderPage.getByRole('region', { name: 'Vos fichiers' });
    expect(plain(await files.innerText())).toContain('3 fichiers');

    // The gallery's address, signed out: to /login and back.
    const gallery = `/commande/${delivered.id}/fichiers`;
    const page = await openPage(browser);
    await page.goto(`${env.server.url}${gallery}`);
    await page.waitForURL(`${env.server.url}/login?${new URLSearchParams({ redirectTo: gallery })}`);
    await signIn(page);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(`${env.server.url}${gallery}`);
    await page.getByText(delivered.number).first().waitFor();
  });
});
