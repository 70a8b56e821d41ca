import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocumentSnapshot } from '~/domain/invoices/snapshot';
import { addSessionCookie, createUser, randomIp, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { testOrderLine } from '../support/order-lines';
import { type SharedServer, sharedServer } from '../support/shared-shop';

/*
 * The customer account in Chromium: /profile and its tabs, the order details on /confirmation, the
 * invoice view, the withdrawal, and the walls between customers (another customer's order or
 * invoice is a 404, exactly like an order that does not exist).
 */

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };
const DAY = 24 * 60 * 60 * 1000;

let server: SharedServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([sharedServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

let sequence = 0;

interface SeededOrder {
  id: string;
  number: string;
  invoiceNumber: string | null;
}

/**
 * An order as the checkout writes it: two lines, its history, optionally an invoice whose snapshot
 * the shop's own builder makes (the worker's other files export every document of the day: the FEC
 * reads each snapshot, and a shape the shop never writes would stop it).
 */
async function seedOrder({
  userId = null,
  createdAt = new Date(),
  status = 'processing',
  invoice = false,
  accessTokenHash = null,
  guestEmail = null,
}: {
  userId?: string | null;
  createdAt?: Date;
  status?: string;
  invoice?: boolean;
  accessTokenHash?: string | null;
  guestEmail?: string | null;
}): Promise<SeededOrder> {
  sequence += 1;
  const number = `SV-2026-${String(900000 + sequence)}-${randomBytes(2).toString('hex')}`;
  const [order] = await query<{ id: string }>(
    `insert into orders (number, created_at, user_id, guest_email, access_token_hash, status, payment_status,
       base_price, delivery_cost, total_price, delivery_method)
     values ($1, $2, $3, $4, $5, $6, 'paid', 7600, 1590, 9190, 'usb') returning id`,
    [number, createdAt, userId, guestEmail, accessTokenHash, status],
  );
  const id = order?.id as string;
  await query(
    `insert into order_items (order_id, position, type, quantity, quality, resolution, format, unit_price, line_total)
     values ($1, 0, 'photos', 120, 'standard', '2400dpi', 'jpeg', 35, 4200), ($1, 1, 'vhs', 2, 'standard', null, null, 1700, 3400)`,
    [id],
  );
  await query(
    `insert into order_events (order_id, at, actor, kind, "from", "to") values
       ($1, $2, 'customer', 'created', null, 'pending'),
       ($1, $2::timestamptz + interval '10 minutes', 'sandbox', 'payment_paid', 'pending', 'paid'),
       ($1, $2::timestamptz + interval '1 hour', 'staff', 'status_changed', 'pending', 'processing'),
       ($1, $2::timestamptz + interval '2 hours', 'staff', 'note', null, null)`,
    [id, createdAt],
  );
  let invoiceNumber: string | null = null;
  if (invoice) {
    invoiceNumber = `FA-2026-${String(500000 + sequence)}`;
    await query(
      `insert into invoices (number, order_id, issued_at, amount, vat, is_paid, snapshot) values ($1, $2, $3, 9190, 1532, true, $4)`,
      [
        invoiceNumber,
        id,
        createdAt,
        JSON.stringify(
          buildDocumentSnapshot({
            kind: 'invoice',
            number: invoiceNumber,
            issuedAt: createdAt,
            order: {
              id,
              number,
              createdAt,
              deliveryMethod: 'usb',
              deliveryCostCents: 1590,
              sendShippingCostCents: 0,
              returnShippingCostCents: 0,
              totalPriceCents: 9190,
              items: [
                testOrderLine({ quantity: 120, lineTotalCents: 4200 }),
                testOrderLine({
                  type: 'vhs',
                  quantity: 2,
                  resolution: null,
                  format: null,
                  unitPriceCents: 1700,
                  lineTotalCents: 3400,
                }),
              ],
            },
            buyer: null,
            payment: { method: 'card', paidAt: createdAt, provider: 'stripe' },
          }),
        ),
      ],
    );
  }
  return { id, number, invoiceNumber };
}

function as(options: BrowserContextOptions = DESKTOP): BrowserContextOptions {
  return { ...options, extraHTTPHeaders: { 'x-forwarded-for': randomIp() } };
}

async function signedInPage(user: TestUser, path: string, options = as()): Promise<Page> {
  const page = await openPage(browser, undefined, options);
  await addSessionCookie(page, server.url, user.cookie);
  await page.goto(`${server.url}${path}`);
  await page.locator('[data-hydrated="true"]').first().waitFor();
  return page;
}

function toast(page: Page, text: string) {
  return page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
}

function get(path: string, cookie?: string) {
  return fetch(`${server.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
}

describe('/profile', () => {
  it('lists the customer’s own orders, newest first, ten per page', async () => {
    const customer = await createUser({ url: server.url, firstName: 'Éloïse' });
    const other = await createUser({ url: server.url });
    await seedOrder({ userId: other.id });
    const seeded: SeededOrder[] = [];
    for (let i = 0; i < 12; i++)
      seeded.push(await seedOrder({ userId: customer.id, createdAt: new Date(Date.now() - (20 - i) * DAY) }));
    const newest = seeded.at(-1) as SeededOrder;

    const page = await signedInPage(customer, '/profile');
    await page.getByRole('heading', { level: 1, name: 'Mon compte' }).waitFor();
    await page.getByRole('tab', { name: 'Commandes', selected: true }).waitFor();
    const rows = page.getByRole('table').getByRole('row');
    expect(await rows.count()).toBe(11); // header + 10
    const first = rows.nth(1);
    expect(await first.getByRole('cell').first().textContent()).toBe(newest.number);
    const firstText = (await first.textContent())?.replace(/[\u00A0\u202F]/g, ' ');
    expect(firstText).toContain('120 × Photos papier, 2 × Cassettes VHS');
    expect(firstText).toContain('En traitement');
    expect(firstText).toContain('91,90 €');
    await page.getByText('Page 1 sur 2').waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: 'Suivant' }).click();
    await page.getByText('Page 2 sur 2').waitFor();
    expect(await page.getByRole('table').getByRole('row').count()).toBe(3);
    await page
      .getByRole('table')
      .getByRole('cell', { name: seeded[0]?.number as string, exact: true })
      .waitFor();

    await page.getByRole('button', { name: 'Actualiser' }).click();
    await toast(page, 'Commandes actualisées').waitFor();
  });

  it('shows an empty state leading to the configurator, and is usable on a phone', async () => {
    const customer = await createUser({ url: server.url });
    const page = await signedInPage(customer, '/profile', as(PHONE));
    await page.getByText('Vous n’avez pas encore de commande.').waitFor();
    expect(await page.getByRole('link', { name: 'Estimer ma commande' }).last().getAttribute('href')).toBe(
      '/configurateur',
    );
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('tab', { name: 'Factures' }).click();
    await page.getByRole('tab', { name: 'Factures', selected: true }).waitFor();
    await page.getByText('Aucune facture pour le moment.').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('tab', { name: 'Profil' }).click();
    await page.getByRole('button', { name: 'Mettre à jour' }).waitFor();
    await expectNoSeriousA11yViolations(page);
  });

  it('opens the details with the history, and the invoice with its PDF link', async () => {
    const customer = await createUser({ url: server.url });
    const order = await seedOrder({ userId: customer.id, invoice: true, createdAt: new Date(Date.now() - 2 * DAY) });
    const page = await signedInPage(customer, '/profile');

    await page.getByRole('link', { name: `Détails de la commande ${order.number}` }).click();
    await page.waitForURL((url) => url.pathname === '/confirmation' && url.searchParams.get('orderId') === order.id);
    await page.getByRole('heading', { level: 1, name: `Commande ${order.number}` }).waitFor();
    const details = (await page.getByRole('main').innerText()).replace(/[\u00A0\u202F]/g, ' ');
    for (const text of [
      'Photos papier',
      'Cassettes VHS',
      'Clé USB',
      'Total TTC',
      '91,90 €',
      'Payée',
      'En traitement',
    ]) {
      expect(details).toContain(text);
    }
    const timeline = page.getByRole('region', { name: 'Suivi de la commande' });
    const steps = await timeline.getByRole('listitem').allInnerTexts();
    expect(steps.map((s) => s.split('\n')[0])).toEqual([
      'Commande enregistrée',
      'Paiement reçu',
      'Votre commande est en traitement',
    ]);
    await expectNoSeriousA11yViolations(page);

    await page.goto(`${server.url}/profile`);
    await page.locator('[data-hydrated="true"]').waitFor();
    await page.getByRole('link', { name: `Facture de la commande ${order.number}` }).click();
    await toast(page, 'Ouverture de la facture').waitFor();
    await page.waitForURL((url) => url.pathname === `/facture/${order.id}`);
    await page.getByRole('heading', { level: 1, name: `Facture ${order.invoiceNumber}` }).waitFor();
    const invoice = (await page.getByRole('main').innerText()).replace(/[\u00A0\u202F]/g, ' ');
    for (const text of [
      'Soovenirs SAS',
      'Total HT',
      '76,58 €',
      'TVA 20 %',
      '15,32 €',
      '91,90 €',
      'Livraison',
      'Clé USB',
    ]) {
      expect(invoice).toContain(text);
    }
    expect(await page.getByRole('link', { name: 'Télécharger le PDF' }).getAttribute('href')).toBe(
      `/facture/${order.id}/pdf`,
    );

    await page.goto(`${server.url}/profile?tab=factures`);
    const invoices = page.getByRole('table');
    await invoices.getByRole('cell', { name: order.invoiceNumber as string, exact: true }).waitFor();
    expect(
      await page
        .getByRole('link', { name: `Télécharger la facture ${order.invoiceNumber} en PDF` })
        .getAttribute('href'),
    ).toBe(`/facture/${order.id}/pdf`);
  });
});

describe('walls between customers', () => {
  it('answers 404 for another customer’s order, invoice and withdrawal, as for an unknown order', async () => {
    const alice = await createUser({ url: server.url });
    const bob = await createUser({ url: server.url });
    const order = await seedOrder({ userId: alice.id, invoice: true });

    for (const path of [`/confirmation?orderId=${order.id}`, `/facture/${order.id}`, `/retractation/${order.id}`]) {
      expect((await get(path, alice.cookie)).status, `${path} for the owner`).toBe(200);
      expect((await get(path, bob.cookie)).status, `${path} for another customer`).toBe(404);
      // Signed out, every page of an account's order asks to sign in first and comes back to it
      // (decision 023): the rightful owner opening an e-mail's link on another device is never lost.
      const signedOut = await get(path);
      expect(signedOut.status, `${path} signed out`).toBe(302);
      expect(signedOut.headers.get('location')).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`);
    }
    for (const path of [
      '/confirmation?orderId=00000000-0000-4000-8000-000000000000',
      '/confirmation?orderId=x',
      '/facture/x',
    ]) {
      expect((await get(path, bob.cookie)).status, path).toBe(404);
    }
    // Bob cannot withdraw from Alice's order either.
    const post = await fetch(`${server.url}/retractation/${order.id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: bob.cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(post.status).toBe(404);
    expect(await query('select withdrawn_at from orders where id = $1', [order.id])).toEqual([{ withdrawn_at: null }]);
    // Bob's own account lists none of it.
    const page = await signedInPage(bob, '/profile');
    expect(await page.getByText(order.number).count()).toBe(0);
    await page.getByRole('tab', { name: 'Factures' }).click();
    await page.getByText('Aucune facture pour le moment.').waitFor();
  });

  it('lets a guest holding the order’s token see it, and nobody else', async () => {
    const token = randomBytes(32).toString('base64url');
    const hash = createHash('sha256').update(token).digest('hex');
    const order = await seedOrder({ guestEmail: 'invite@example.fr', accessTokenHash: hash });
    expect((await get(`/confirmation?orderId=${order.id}`, `sv_order_${order.id}=${token}`)).status).toBe(200);
    expect((await get(`/confirmation?orderId=${order.id}`, `sv_order_${order.id}=${token.slice(2)}`)).status).toBe(404);
    expect((await get(`/confirmation?orderId=${order.id}`)).status).toBe(404);

    // The link of the order e-mail carries the token: it becomes the cookie and leaves the address.
    const fromLink = await get(`/retractation/${order.id}?token=${token}`);
    expect(fromLink.status).toBe(302);
    expect(fromLink.headers.get('location')).toBe(`/retractation/${order.id}`);
    const cookie = fromLink.headers.getSetCookie().find((c) => c.startsWith(`sv_order_${order.id}=`));
    expect(cookie).toMatch(/HttpOnly; SameSite=Lax/);
    expect((await get(`/retractation/${order.id}`, cookie?.split(';')[0])).status).toBe(200);
  });
});

describe('withdrawal', () => {
  it('records a withdrawal within 14 days and acknowledges it', async () => {
    const customer = await createUser({ url: server.url, firstName: 'Éloïse' });
    const recent = await seedOrder({ userId: customer.id, createdAt: new Date(Date.now() - 3 * DAY) });
    const old = await seedOrder({ userId: customer.id, createdAt: new Date(Date.now() - 30 * DAY) });
    const page = await signedInPage(customer, '/profile');

    expect(await page.getByRole('link', { name: `Renoncer au contrat ici : commande ${old.number}` }).count()).toBe(0);
    await page.getByRole('link', { name: `Renoncer au contrat ici : commande ${recent.number}` }).click();
    await page.waitForURL((url) => url.pathname === `/retractation/${recent.id}`);
    await page.getByRole('heading', { level: 1, name: 'Renoncer au contrat' }).waitFor();
    await page.locator('[data-hydrated="true"]').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Confirmer la rétractation' }).click();
    await toast(page, 'Rétractation enregistrée').waitFor();
    await page.getByText('Votre rétractation est enregistrée.').waitFor();
    expect(await page.getByRole('button', { name: 'Confirmer la rétractation' }).count()).toBe(0);

    const [row] = await query<{ withdrawn_at: Date | null }>('select withdrawn_at from orders where id = $1', [
      recent.id,
    ]);
    const withdrawnAt = row?.withdrawn_at as Date;
    expect(withdrawnAt).toBeInstanceOf(Date);
    expect(Date.now() - withdrawnAt.getTime()).toBeLessThan(60_000);
    expect(
      await query('select actor, kind from order_events where order_id = $1 and kind = $2', [
        recent.id,
        'withdrawal_requested',
      ]),
    ).toEqual([{ actor: customer.id, kind: 'withdrawal_requested' }]);
    // Paid and already in the workshop (started at the customer's express request): the staff now
    // settle the proportionate amount kept; nothing is refunded or cancelled by itself.
    expect(await query('select kind, status from notifications where order_id = $1 order by id', [recent.id])).toEqual([
      { kind: 'withdrawal', status: 'processing' },
    ]);
    const emails = await query<{ to: string; template: string; data: { orderNumber: string; requestedAt: string } }>(
      'select "to", template, data from email_outbox where order_id = $1',
      [recent.id],
    );
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      to: customer.email,
      template: 'withdrawal-acknowledgement',
      data: { orderNumber: recent.number },
    });
    expect(new Date(emails[0]?.data.requestedAt as string).getTime()).toBe(withdrawnAt.getTime());

    // The order's history shows it; a second request and a late one are refused in French.
    await page.goto(`${server.url}/confirmation?orderId=${recent.id}`);
    await page.getByRole('region', { name: 'Suivi de la commande' }).getByText('Rétractation demandée').waitFor();
    await page.getByText(/Votre rétractation a été enregistrée le/).waitFor();
    const post = (id: string) =>
      fetch(`${server.url}/retractation/${id}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: customer.cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
    const second = await post(recent.id);
    expect(second.status).toBe(200);
    expect(await second.text()).toContain('Votre rétractation a déjà été enregistrée pour cette commande.');
    const late = await post(old.id);
    expect(late.status).toBe(200);
    expect(await late.text()).toContain('Le délai de rétractation de 14 jours est dépassé pour cette commande.');
    expect(
      await query('select count(*)::int as n from order_events where kind = $1 and order_id = any($2)', [
        'withdrawal_requested',
        [recent.id, old.id],
      ]),
    ).toEqual([{ n: 1 }]);
  });
});
