import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company } from '~/domain/company';
import { addSessionCookie, createUser, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { insertTestOrder } from '../support/orders';
import { type ServerWithSmtp, startServerWithSmtp } from '../support/server-with-smtp';

/*
 * Everyday work with customers in the back office, in Chromium against the real server
 * and a real SMTP peer: guests in « Clients » grouped by e-mail, sorting by orders, a customer's
 * details edited (a wrong value refused, nothing changed), « Contacter le client » from an order
 * (Reply-To the shop's address, kept in the history) and an order's e-mail sent again from there.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };

let env: ServerWithSmtp;
let browser: Browser;
let admin: TestUser;

beforeAll(async () => {
  [env, browser] = await Promise.all([startServerWithSmtp(), launchBrowser()]);
  admin = await createUser({ url: env.server.url, databaseUrl: env.server.databaseUrl, role: 'admin' });
});

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

async function office(path: string): Promise<Page> {
  const page = await openPage(browser, undefined, DESKTOP);
  await addSessionCookie(page, env.server.url, admin.cookie);
  await page.goto(`${env.server.url}${path}`);
  return page;
}

/** The first message the SMTP peer received that matches, waiting for it. */
async function received(predicate: (subject: string, to: string) => boolean) {
  let found: (typeof env.smtp.messages)[number] | undefined;
  await expect
    .poll(() => {
      found = env.smtp.messages.find((message) => predicate(message.subject, message.headers.get('to') ?? ''));
      return found !== undefined;
    })
    .toBe(true);
  return found as (typeof env.smtp.messages)[number];
}

describe('Clients', () => {
  it('lists guests once per e-mail, sorts by orders and edits an account’s details', async () => {
    const guestEmail = 'odette.guest@example.fr';
    for (const extraCents of [0, 100, 200]) {
      await insertTestOrder(env.server.databaseUrl, {
        guestEmail,
        guestFirstName: 'Odette',
        guestLastName: 'Invitée',
        paymentStatus: 'paid',
        extraCents,
      });
    }
    const customer = await createUser({ url: env.server.url, databaseUrl: env.server.databaseUrl });
    await insertTestOrder(env.server.databaseUrl, { userId: customer.id, paymentStatus: 'paid' });

    const page = await office('/admin/clients?sort=orders&dir=desc');
    const table = page.getByRole('table');
    const guestRow = table.getByRole('row').filter({ hasText: guestEmail });
    await expect.poll(() => guestRow.count()).toBe(1);
    await expect.poll(() => guestRow.innerText()).toContain('Sans compte');
    expect((await guestRow.innerText()).replace(/\s+/g, ' ')).toMatch(/\b3\b/);
    // Sorted by orders, most first: the guest with three orders leads.
    const firstRow = table.locator('tbody tr').first();
    expect(await firstRow.innerText()).toContain(guestEmail);
    await expectNoSeriousA11yViolations(page);

    // An account's details: a wrong postal code is refused under its field and nothing is saved.
    await page.goto(`${env.server.url}/admin/clients?client=${customer.id}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Modifier les coordonnées' }).click();
    await dialog.getByLabel('Ville').fill('Lyon');
    await dialog.getByLabel('Code postal').fill('690');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.getByText('Le code postal doit contenir 5 chiffres').waitFor();
    const before = await env.db.query('select city from "user" where id = $1', [customer.id]);
    expect(before.rows[0].city).not.toBe('Lyon');

    await dialog.getByLabel('Code postal').fill('69001');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect
      .poll(
        async () => (await env.db.query('select city, postal_code from "user" where id = $1', [customer.id])).rows[0],
      )
      .toEqual({ city: 'Lyon', postal_code: '69001' });
  });
});

describe('an order’s e-mails', () => {
  it('sends a message to the customer with the shop’s Reply-To, keeps it in the history, re-sends an e-mail', async () => {
    const order = await insertTestOrder(env.server.databaseUrl, {
      guestEmail: 'lucien.vhs@example.fr',
      guestFirstName: 'Lucien',
      guestLastName: 'Magnétoscope',
    });
    const page = await office(`/admin?commande=${order.id}`);
    const dialog = page.getByRole('dialog', { name: `Commande ${order.number}` });
    const contact = dialog.getByRole('region', { name: 'Contacter le client' });

    // An empty message is refused under its field and nothing is sent.
    await contact.getByLabel('Objet').fill('Cassette moisie');
    await contact.getByRole('button', { name: 'Envoyer le message' }).click();
    await contact.getByText('Écrivez votre message').waitFor();
    const none = await env.db.query(`select count(*)::int as n from email_outbox where template = 'order-message'`);
    expect(none.rows[0].n).toBe(0);

    await contact
      .getByLabel('Message')
      .fill('Votre cassette VHS « Mariage 1987 » présente des traces de moisissure. Souhaitez-vous un nettoyage ?');
    await contact.getByRole('button', { name: 'Envoyer le message' }).click();
    await contact.getByText('Message envoyé à lucien.vhs@example.fr.').waitFor();

    const message = await received((subject) => subject.startsWith('Cassette moisie'));
    expect(message.headers.get('to')).toContain('lucien.vhs@example.fr');
    expect(message.headers.get('reply-to')).toBe(company.email);
    expect(message.subject).toBe(`Cassette moisie (commande ${order.number})`);
    expect(message.text).toContain('traces de moisissure');
    expect(message.text).toContain(`/confirmation?orderId=${order.id}`);

    // The history keeps what was written, and the e-mail, once sent, can be sent again from there.
    const history = dialog.getByRole('region', { name: 'Historique' });
    const resend = history.getByRole('button', { name: /^Renvoyer l’e-mail « Message de l’atelier/ });
    await expect
      .poll(async () => {
        await page.reload();
        await history.waitFor();
        return resend.count();
      })
      .toBe(1);
    await history.getByText('Cassette moisie — Votre cassette VHS').waitFor();
    await resend.click();
    await history.getByText('E-mail renvoyé').waitFor();
    await expect.poll(() => env.smtp.messages.filter((m) => m.subject.startsWith('Cassette moisie')).length).toBe(2);
    await expectNoSeriousA11yViolations(page);
  });
});
