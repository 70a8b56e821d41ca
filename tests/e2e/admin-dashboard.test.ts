import ExcelJS from 'exceljs';
import pg from 'pg';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtpServer, type TestSmtpServer } from '~/server/email/testing/smtp-test-server';
import { addSessionCookie, createUser, signIn, type TestUser } from '../support/auth';
import {
  downloadedBytes,
  expectNoSeriousA11yViolations,
  launchBrowser,
  openPage,
  openStaffPage,
  waitForToast,
} from '../support/browser';
import { facturXBatch } from '../support/factur-x';
import { type FakeColissimo, startFakeColissimo } from '../support/fake-colissimo';
import { startServer, type TestServer } from '../support/server';

/*
 * The back office in Chromium, as an administrator, against the real production server: access
 * states, the e-mail settings and a status change whose e-mail reaches a real SMTP peer, a price
 * published and seen by the configurator, a bank transfer validated and its invoice, an Excel
 * export opened with exceljs, Coliship credentials checked against a local fake of the web
 * service, the checklist and the platform test, live notifications, and axe on every tab.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };

let server: TestServer;
let browser: Browser;
let smtp: TestSmtpServer;
let colissimo: FakeColissimo;
let admin: TestUser;
let adminCookie: string;
let customer: TestUser;
const orders: { shipped: { id: string; number: string }; transfer: { id: string; number: string } } = {
  shipped: { id: '', number: 'SV-2026-000101' },
  transfer: { id: '', number: 'SV-2026-000102' },
};

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The text as a person reads it: French no-break spaces count as spaces. */
function plain(text: string): string {
  return text.replace(/[\u00A0\u202F]/g, ' ');
}

async function textOf(locator: Locator): Promise<string> {
  return plain(await locator.innerText());
}

async function insertOrder(input: {
  number: string;
  userId: string;
  status: string;
  paymentStatus: string;
  paymentMethod: string;
  totalCents: number;
}): Promise<string> {
  const [order] = await query<{ id: string }>(
    `insert into orders (number, user_id, status, payment_status, payment_method, base_price, total_price, search_text)
     values ($1, $2, $3, $4, $5, $6, $6, 'jeanne martin ' || (select email from "user" where id = $2))
     returning id`,
    [input.number, input.userId, input.status, input.paymentStatus, input.paymentMethod, input.totalCents],
  );
  const id = order?.id as string;
  await query(
    `insert into order_items (order_id, position, type, quantity, resolution, format, unit_price, line_total)
     values ($1, 0, 'photos', $2, '2400dpi', 'jpeg', 35, $3)`,
    [id, Math.round(input.totalCents / 35), input.totalCents],
  );
  await query(`insert into order_events (order_id, actor, kind, "to") values ($1, $2, 'created', 'pending')`, [
    id,
    input.userId,
  ]);
  if (input.paymentStatus === 'paid') {
    // A paid order has its invoice, and revenue is counted from invoices (net of credit notes).
    // Numbered from the counter, as the shop does, so that the numbering stays gapless.
    await query(
      `with n as (
         insert into invoice_counters (kind, year, last)
         values ('invoice', extract(year from (now() at time zone 'Europe/Paris'))::int, 1)
         on conflict (kind, year) do update set last = invoice_counters.last + 1
         returning year, last)
       insert into invoices (number, order_id, amount, vat, snapshot, is_paid)
       select 'FA-' || n.year || '-' || lpad(n.last::text, 6, '0'), $1, $2::int,
              ($2::int - round($2::int / 1.2))::int, '{}'::jsonb, true
       from n`,
      [id, input.totalCents],
    );
  }
  return id;
}

/** The first message to `to` the SMTP peer received that matches, waiting for its arrival. */
function receivedMessage(to: string, predicate?: (message: TestSmtpServer['messages'][number]) => boolean) {
  return smtp.waitForMail(to, predicate);
}

function adminPage(path = '/admin'): Promise<Page> {
  return openStaffPage(browser, server.url, adminCookie, path, DESKTOP);
}

async function openSettings(page: Page, entry: string) {
  await page.getByRole('button', { name: 'Paramètres' }).click();
  await page.getByRole('menuitem', { name: entry }).click();
  const dialog = page.getByRole('dialog', { name: entry });
  await dialog.waitFor();
  return dialog;
}

beforeAll(async () => {
  [smtp, colissimo, browser] = await Promise.all([
    startTestSmtpServer({ mode: 'starttls' }),
    startFakeColissimo(),
    launchBrowser(),
  ]);
  server = await startServer({
    env: {
      // The shop's SMTP settings say 587; the test peer listens elsewhere, with a self-signed certificate.
      SMTP_CONNECT_PORT: String(smtp.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      COLISSIMO_API_URL: colissimo.url,
    },
  });
  [admin, customer] = await Promise.all([
    createUser({
      url: server.url,
      databaseUrl: server.databaseUrl,
      role: 'admin',
      firstName: 'Ada',
      lastName: 'Admin',
    }),
    createUser({ url: server.url, firstName: 'Jeanne', lastName: 'Martin' }),
  ]);
  adminCookie = await signIn({ url: server.url, email: admin.email });
  orders.shipped.id = await insertOrder({
    number: orders.shipped.number,
    userId: customer.id,
    status: 'processing',
    paymentStatus: 'paid',
    paymentMethod: 'card',
    totalCents: 3500,
  });
  orders.transfer.id = await insertOrder({
    number: orders.transfer.number,
    userId: customer.id,
    status: 'pending',
    paymentStatus: 'pending',
    paymentMethod: 'transfer',
    totalCents: 7000,
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
  await smtp?.stop();
  await colissimo?.close();
});

// The invoices and credit notes this file downloads, validated together once it is done.
const facturX = facturXBatch();
afterAll(() => facturX.expectAllValid(), 240_000);

describe('access to /admin', () => {
  // The specification (000, §6): the anonymous to /login remembering the page, others to /.
  it('sends anonymous visitors to the sign-in page, which brings them back to the page', async () => {
    const page = await openPage(browser);
    await page.goto(`${server.url}/admin/rapports`);
    await page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === '/admin/rapports',
    );
    await page.getByRole('heading', { level: 1 }).waitFor();
  });

  it('sends customers home', async () => {
    const page = await openPage(browser);
    await addSessionCookie(page, server.url, customer.cookie);
    await page.goto(`${server.url}/admin/clients`);
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.getByText('Accès non autorisé').count()).toBe(0);
  });
});

describe('the dashboard', () => {
  it('shows the statistics, the orders and the tabs, accessibly', async () => {
    const page = await adminPage();
    await expect(page.getByRole('heading', { level: 1, name: 'Tableau de bord' }).isVisible()).resolves.toBe(true);
    const stats = await textOf(page.getByRole('region', { name: 'Statistiques' }));
    expect(stats).toContain('35,00 €');
    expect(stats).toContain('Commandes en attente');
    const table = page.getByRole('table');
    await table.getByRole('cell', { name: orders.shipped.number, exact: true }).waitFor();
    expect(await textOf(table)).toContain('70,00 €');
    await expectNoSeriousA11yViolations(page);

    for (const tab of ['Clients', 'Tarifs', 'Rapports', 'Comptabilité', 'Tests']) {
      await page
        .getByRole('navigation', { name: 'Sections du tableau de bord' })
        .getByRole('link', { name: tab })
        .click();
      await page.waitForURL((url) => url.pathname !== '/admin');
      await page.getByRole('link', { name: tab, exact: true }).and(page.locator('[aria-current="page"]')).waitFor();
      await expectNoSeriousA11yViolations(page);
    }
    // Six pages, each through axe: beyond the default minute on a busy machine.
  }, 120_000);

  it('searches orders, customers and invoices from one box', async () => {
    const page = await adminPage();
    await page.getByRole('searchbox', { name: /Rechercher une commande/ }).fill('martin');
    const results = page.getByRole('region', { name: 'Résultats de la recherche' });
    // The order, and the invoice of that paid order.
    await results.getByText(orders.shipped.number).first().waitFor();
    expect(await results.getByText(orders.shipped.number).count()).toBe(2);
    expect(await results.getByText(customer.email).count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'martin');
    expect(await textOf(page.getByText(/commandes? pour « martin »/))).toContain('2 commandes');
  });
});

describe('e-mails', () => {
  it('configures SMTP, sends a test e-mail and lists it in the outbox', async () => {
    const page = await adminPage();
    const dialog = await openSettings(page, 'Configuration Email');
    await dialog.getByLabel('Serveur SMTP').fill('127.0.0.1');
    await dialog.getByLabel('Nom d’utilisateur SMTP').fill(smtp.username);
    await dialog.getByLabel('Mot de passe SMTP').fill(smtp.password);
    await dialog.getByRole('button', { name: 'Envoyer un email de test' }).click();
    await waitForToast(page, 'Veuillez saisir une adresse email');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await waitForToast(page, 'Configuration email enregistrée');
    await dialog.getByLabel('Destinataire du test').fill('verif@example.fr');
    await dialog.getByRole('button', { name: 'Envoyer un email de test' }).click();
    await waitForToast(page, 'Email de test envoyé');
    const message = await receivedMessage('verif@example.fr');
    expect(message.secure).toBe(true);
    await dialog.getByRole('button', { name: /^Envoyés/ }).click();
    await dialog.getByRole('cell', { name: 'verif@example.fr' }).waitFor();
  });

  it('changes an order to Expédié, and the customer’s e-mail reaches the SMTP server', async () => {
    const page = await adminPage();
    await page.getByRole('link', { name: `Voir la commande ${orders.shipped.number}` }).click();
    const dialog = page.getByRole('dialog', { name: `Commande ${orders.shipped.number}` });
    await dialog.waitFor();
    const text = await textOf(dialog);
    for (const expected of ['Jeanne Martin', customer.email, 'Photos papier', '35,00 €', 'Commande enregistrée']) {
      expect(text).toContain(expected);
    }
    await dialog.getByLabel('Ajouter une note interne').fill('Bobines reçues en bon état.');
    await dialog.getByRole('button', { name: 'Ajouter la note' }).click();
    await waitForToast(page, 'Note ajoutée');
    await dialog.getByText('Bobines reçues en bon état.').waitFor();

    await dialog.getByLabel('Nouveau statut').selectOption('shipped');
    await dialog.getByRole('button', { name: 'Mettre à jour le statut' }).click();
    await waitForToast(page, 'Statut de la commande mis à jour');
    await waitForToast(page, 'Email de notification envoyé à Jeanne Martin');
    await waitForToast(page, 'Statut de commande: Expédié');

    const message = await receivedMessage(
      customer.email,
      (m) => m.subject === `Commande ${orders.shipped.number} expédiée`,
    );
    expect(message.envelopeTo).toEqual([customer.email]);
    expect(plain(message.text)).toContain('Votre commande a été expédiée et est en route.');
    expect(message.secure).toBe(true);
    await dialog.getByText('Statut : En traitement → Expédié').waitFor();
    const [row] = await query<{ status: string }>('select status from orders where id = $1', [orders.shipped.id]);
    expect(row?.status).toBe('shipped');
  });
});

describe('prices', () => {
  it('publishes a new support price, which the configurator shows at once', async () => {
    const page = await adminPage('/admin/tarifs');
    await page.getByRole('tab', { name: 'Supports' }).click();
    const photos = page.getByLabel('Photos papier', { exact: true });
    expect(await photos.inputValue()).toBe('0,35');
    await photos.fill('0.42');
    await page.getByRole('button', { name: 'Mettre à jour' }).click();
    const summary = page.getByRole('dialog', { name: 'Publier les nouveaux tarifs ?' });
    expect(await textOf(summary.getByRole('listitem').filter({ hasText: 'Photos papier' }))).toContain(
      '0,35 € → 0,42 € (+20 %)',
    );
    await summary.getByRole('button', { name: 'Publier les nouveaux tarifs' }).click();
    await waitForToast(page, 'Tarifs mis à jour');
    const [active] = await query<{ version: number; price: number }>(
      `select version, (data->'supports'->'photos'->>'basePrice')::int as price from price_lists where is_active`,
    );
    expect(active).toEqual({ version: 2, price: 42 });

    const configurator = await openPage(browser, `${server.url}/configurateur`, DESKTOP);
    expect(await textOf(configurator.locator('body'))).toContain('0,42 € par photo');
  });
});

describe('payments and accounting', () => {
  it('validates a bank transfer: the order is paid and its invoice appears', async () => {
    const page = await adminPage();
    const dialog = await openSettings(page, 'Validation Paiements');
    await dialog.getByLabel('Rechercher un paiement').fill(orders.transfer.number);
    await dialog.getByRole('button', { name: 'Rechercher' }).click();
    const validate = dialog.getByRole('button', { name: `Valider le paiement ${orders.transfer.number}` });
    await validate.click();
    // A row's ✓ asks first (a mis-click moves no money): the confirmation names the order.
    const confirmation = page.getByRole('dialog', { name: /^Valider le paiement/ });
    await confirmation.getByText(`Commande ${orders.transfer.number}`, { exact: false }).waitFor();
    await confirmation.getByRole('button', { name: 'Valider le paiement' }).click();
    await waitForToast(page, `Paiement ${orders.transfer.number} validé`);
    await dialog.getByText('Aucun paiement en attente.').waitFor();
    await page.keyboard.press('Escape');

    const [invoice] = await query<{ number: string }>('select number from invoices where order_id = $1', [
      orders.transfer.id,
    ]);
    expect(invoice?.number).toMatch(/^FA-\d{4}-\d{6}$/);
    await page.getByRole('link', { name: 'Comptabilité' }).click();
    const row = page.getByRole('row').filter({ hasText: invoice?.number as string });
    await row.waitFor();
    expect(await textOf(row)).toContain(orders.transfer.number);
    expect(await row.getByRole('link', { name: `Voir la facture ${invoice?.number}` }).getAttribute('href')).toBe(
      `/facture/${orders.transfer.id}`,
    );
    expect(await row.getByRole('link', { name: `PDF de la facture ${invoice?.number}` }).getAttribute('href')).toBe(
      `/facture/${orders.transfer.id}/pdf`,
    );
    // The invoice of a validated transfer, as the admin downloads it: a valid Factur-X.
    const pdf = await page.request.get(`${server.url}/facture/${orders.transfer.id}/pdf`);
    expect(pdf.status()).toBe(200);
    facturX.add(await pdf.body(), invoice?.number as string);
  });

  it('exports the orders of a period to Excel', async () => {
    const page = await adminPage('/admin/rapports');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Excel des commandes' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^commandes_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await downloadedBytes(download)) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Commandes');
    const numbers: string[] = [];
    sheet?.eachRow((row, index) => {
      if (index > 1) numbers.push(String(row.getCell(1).value));
    });
    expect(numbers.sort()).toEqual([orders.shipped.number, orders.transfer.number]);
    expect(sheet?.getRow(1).getCell(14).value).toBe('Montant TTC');
    // The charts are drawn in the browser, in that tab only.
    await page.getByText('Chiffre d’affaires par mois (commandes payées)').waitFor();
  });
});

describe('settings and checks', () => {
  it('checks Coliship credentials against the Colissimo web service', async () => {
    const page = await adminPage();
    const dialog = await openSettings(page, 'Configuration Coliship');
    await dialog.getByRole('button', { name: 'Valider' }).click();
    await waitForToast(page, 'Veuillez remplir tous les champs');
    await dialog.getByLabel('Nom d’utilisateur').fill('atelier-soovenirs');
    await dialog.getByLabel('Mot de passe', { exact: true }).fill('pas-le-bon');
    await dialog.getByLabel('Numéro de contrat').fill(colissimo.contractNumber);
    await dialog.getByRole('button', { name: 'Valider' }).click();
    await waitForToast(page, 'Échec de la connexion à Coliship');
    await waitForToast(page, 'Vérifiez vos identifiants et réessayez.');
    await dialog.getByLabel('Mot de passe', { exact: true }).fill(colissimo.password);
    await dialog.getByRole('button', { name: 'Valider' }).click();
    await waitForToast(page, 'Connexion à Coliship réussie');
    expect(colissimo.requests.at(-1)?.body).toMatchObject({ contractNumber: colissimo.contractNumber });
  });

  it('computes the production checklist and runs the platform test', async () => {
    const page = await adminPage('/admin/tests');
    const checklist = page.getByRole('region', { name: 'Checklist de mise en production' });
    expect(await checklist.getByRole('listitem').count()).toBe(8);
    const percent = await textOf(checklist.getByText(/% terminé/));
    expect(percent).toMatch(/^\d+ % terminé$/);
    // E-mail, access control, guest checkout, invoices, admin and Coliship are done by now.
    expect(Number.parseInt(percent, 10)).toBeGreaterThanOrEqual(75);

    await page.getByRole('button', { name: 'Lancer les tests' }).click();
    await waitForToast(page, 'Platform tests completed');
    const tests = page.getByRole('region', { name: 'Test de fonctionnement de la plateforme' });
    expect(await tests.locator('[data-state="success"]').count()).toBeGreaterThanOrEqual(4);
    expect(await textOf(tests)).toContain('Connexion à la base de données réussie');
  });

  it('shows new notifications live', async () => {
    const page = await adminPage();
    const bell = page.getByRole('button', { name: /^Notifications \(\d+ non lues\)$/ });
    const before = Number(/\((\d+)/.exec((await bell.getAttribute('aria-label')) ?? '')?.[1]);
    // Let the event stream connect before the notification is written.
    await page.waitForTimeout(1500);
    await query(
      `insert into notifications (kind, order_id, title, body) values ('order', $1, 'Nouvelle commande test', 'Une commande vient d’arriver')`,
      [orders.shipped.id],
    );
    await waitForToast(page, 'Nouvelle commande test');
    await page.getByRole('button', { name: `Notifications (${before + 1} non lues)` }).click();
    await page.getByRole('link', { name: 'Nouvelle commande test' }).waitFor();
    await page.getByRole('button', { name: 'Tout marquer comme lu' }).click();
    await page.getByRole('button', { name: 'Notifications (0 non lues)' }).waitFor();
  });
});
