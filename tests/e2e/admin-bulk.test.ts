import pg from 'pg';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openStaffPage, waitForToast } from '../support/browser';
import { startServer, type TestServer } from '../support/server';

/*
 * Everyday work in the back office, in Chromium against the production server: 50 orders moved to
 * the next workshop stage after one confirmation (and a cancelled one refused with the lifecycle's
 * reason), bad bulk posts refused in French, a saved filter saved, reopened and deleted, and the
 * phone layout (statistics folded, tab bar scrolling, orders as cards). « En traitement » on a
 * selection in mixed payment states (docs/decisions/021) previews the refused orders with the
 * lifecycle's reasons and moves only the paid ones; an order's status menu offers only what the
 * lifecycle allows, and an unpaid order starts only with « Commencer avant le paiement ».
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };
const BULK_COUNT = 50;

let server: TestServer;
let browser: Browser;
let admin: TestUser;
let adminCookie: string;
let canceledNumber: string;
let customerId: string;

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
const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

/** Paid orders being digitised, placed by the customer, each with its creation in the history. */
async function seedOrders(userId: string, count: number, first: number, status = 'processing'): Promise<void> {
  await query(
    `with created as (
       insert into orders (number, user_id, status, payment_status, payment_method, base_price, total_price, stage,
                           placed_at, search_text)
       select 'SV-2026-' || lpad((${first} + n)::text, 6, '0'), $1, $2, 'paid', 'card', 3500, 3500, 'digitising',
              now(), 'jeanne martin'
       from generate_series(0, ${count - 1}) n
       returning id)
     insert into order_events (order_id, actor, kind, "to") select id, $1, 'created', 'pending' from created`,
    [userId, status],
  );
}

/** Placed orders awaiting their originals, one per payment status given, numbered from `first`. */
async function seedPending(userId: string, paymentStatuses: string[], first: number): Promise<string[]> {
  const numbers = paymentStatuses.map((_, i) => `SV-2026-${String(first + i).padStart(6, '0')}`);
  await query(
    `insert into orders (number, user_id, status, payment_status, payment_method, base_price, total_price, stage,
                         placed_at, search_text)
     select n, $1, 'pending', p, 'transfer', 3500, 3500, 'awaiting_originals', now(), 'jeanne martin'
     from unnest($2::text[], $3::text[]) as t(n, p)`,
    [userId, numbers, paymentStatuses],
  );
  return numbers;
}

function adminPage(path: string, options: BrowserContextOptions = DESKTOP): Promise<Page> {
  return openStaffPage(browser, server.url, adminCookie, path, options);
}

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer();
  const customer = await createUser({ url: server.url, firstName: 'Jeanne', lastName: 'Martin' });
  admin = await createUser({
    url: server.url,
    databaseUrl: server.databaseUrl,
    role: 'admin',
    firstName: 'Ada',
    lastName: 'Admin',
  });
  adminCookie = await signIn({ url: server.url, email: admin.email });
  customerId = customer.id;
  await seedOrders(customer.id, BULK_COUNT, 200);
  await seedOrders(customer.id, 1, 300, 'canceled');
  canceledNumber = 'SV-2026-000300';
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('bulk actions on orders', () => {
  it('moves 50 orders to the next stage after one confirmation, and says which one cannot and why', async () => {
    const page = await adminPage('/admin?etape=digitising&par_page=100');
    await page.getByText('51 commandes').first().waitFor();
    await page.getByRole('checkbox', { name: 'Tout sélectionner' }).check();
    await page.getByText('51 commandes sélectionnées').waitFor();
    await page.getByLabel('Changer la sélection').selectOption({ label: 'Étape : Contrôle qualité' });
    await page.getByRole('button', { name: 'Appliquer…' }).click();

    const dialog = page.getByRole('dialog', { name: 'Confirmer le changement' });
    await dialog.waitFor();
    expect(plain(await dialog.innerText())).toContain(
      '50 commandes sur 51 passeront à l’étape « Contrôle qualité » ; 1 ne peut pas changer.',
    );
    expect(plain(await dialog.innerText())).toContain(`${canceledNumber} : Cette commande est annulée.`);
    // Nothing changed before the confirmation.
    const [before] = await query<{ n: number }>(`select count(*)::int as n from orders where stage = 'quality_check'`);
    expect(before?.n).toBe(0);

    await dialog.getByRole('button', { name: 'Confirmer' }).click();
    await waitForToast(page, /50 commandes passées à l’étape/);
    await dialog.waitFor({ state: 'hidden' });

    const [moved] = await query<{ n: number }>(
      `select count(*)::int as n from orders where stage = 'quality_check' and status = 'processing'`,
    );
    expect(moved?.n).toBe(BULK_COUNT);
    // Each order's history names the staff member who moved it.
    const [history] = await query<{ n: number }>(
      `select count(*)::int as n from order_events where kind = 'stage_changed' and "to" = 'quality_check' and actor = $1`,
      [admin.id],
    );
    expect(history?.n).toBe(BULK_COUNT);
    // The list follows: the filter on the old stage keeps only the cancelled order.
    await page.getByText('1 commande', { exact: true }).first().waitFor();
    await page.goto(`${server.url}/admin?etape=quality_check&par_page=50`);
    await page.getByText('50 commandes').first().waitFor();
    await page.getByRole('link', { name: 'Voir la commande SV-2026-000200' }).click();
    await page.getByRole('dialog').getByText('Contrôle qualité').first().waitFor();
  });

  it('previews « En traitement » on mixed payment states: the refused ones with their reasons, only the paid move', async () => {
    const [paidOne, paidTwo, unpaid, failed, refunded] = await seedPending(
      customerId,
      ['paid', 'paid', 'pending', 'failed', 'refunded'],
      400,
    );
    const page = await adminPage('/admin?status=pending&par_page=100');
    await page.getByText('5 commandes').first().waitFor();
    await page.getByRole('checkbox', { name: 'Tout sélectionner' }).check();
    await page.getByLabel('Changer la sélection').selectOption({ label: 'Statut : En traitement' });
    await page.getByRole('button', { name: 'Appliquer…' }).click();

    const dialog = page.getByRole('dialog', { name: 'Confirmer le changement' });
    await dialog.waitFor();
    const text = plain(await dialog.innerText());
    expect(text).toContain('2 commandes sur 5 passeront à « En traitement » ; 3 ne peuvent pas changer.');
    expect(text).toContain(
      `${unpaid} : Cette commande n’est pas payée : elle ne passe « En traitement » que si vous choisissez de commencer avant le paiement.`,
    );
    expect(text).toContain(
      `${failed} : Le paiement de cette commande a échoué : elle ne peut pas passer « En traitement » avant d’être payée.`,
    );
    expect(text).toContain(
      `${refunded} : Cette commande a été remboursée : elle ne peut pas passer « En traitement ».`,
    );
    expect(text).not.toContain(`${paidOne} :`);
    await expectNoSeriousA11yViolations(page);

    await dialog.getByRole('button', { name: 'Confirmer' }).click();
    await waitForToast(page, /2 commandes passées à «\sEn traitement\s»/);
    const rows = await query<{ number: string; status: string }>(
      'select number, status from orders where number = any($1) order by number',
      [[paidOne, paidTwo, unpaid, failed, refunded]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.number, r.status]))).toEqual({
      [paidOne as string]: 'processing',
      [paidTwo as string]: 'processing',
      [unpaid as string]: 'pending',
      [failed as string]: 'pending',
      [refunded as string]: 'pending',
    });
  });

  it('offers in an order’s status menu only what the lifecycle allows; an unpaid order starts only on purpose', async () => {
    const [failed, unpaid] = await seedPending(customerId, ['failed', 'pending'], 500);
    const ids = await query<{ id: string; number: string }>('select id, number from orders where number = any($1)', [
      [failed, unpaid],
    ]);
    const idOf = (number: string | undefined) => ids.find((r) => r.number === number)?.id as string;

    const page = await adminPage(`/admin?commande=${idOf(failed)}`);
    const menu = page.getByRole('dialog').getByLabel('Nouveau statut');
    await menu.waitFor();
    const offered = async () => menu.locator('option').allInnerTexts();
    expect(await offered()).toEqual(['En attente', 'Traité', 'Expédié', 'Annulé']);

    await page.goto(`${server.url}/admin?commande=${idOf(unpaid)}`);
    await page.locator('[data-hydrated="true"]').waitFor();
    await menu.waitFor();
    expect(await offered()).toEqual(['En attente', 'En traitement', 'Traité', 'Expédié', 'Annulé']);
    await menu.selectOption({ label: 'En traitement' });
    const early = page.getByRole('dialog').getByLabel('Commencer avant le paiement');
    await early.waitFor();
    // Not checked: the lifecycle refuses, in French, and nothing changes.
    await page.getByRole('dialog').getByRole('button', { name: 'Mettre à jour le statut' }).click();
    await page
      .getByRole('dialog')
      .getByText(
        'Cette commande n’est pas payée : elle ne passe « En traitement » que si vous choisissez de commencer avant le paiement.',
      )
      .first()
      .waitFor();
    expect(await query('select status from orders where number = $1', [unpaid])).toEqual([{ status: 'pending' }]);
    await early.check();
    await page.getByRole('dialog').getByRole('button', { name: 'Mettre à jour le statut' }).click();
    await page.getByRole('dialog').getByText('Commencée avant le paiement').waitFor();
    expect(await query('select status from orders where number = $1', [unpaid])).toEqual([{ status: 'processing' }]);
  });

  it('refuses a post without orders or with an unknown status, in French, changing nothing', async () => {
    const page = await adminPage('/admin?etape=quality_check&par_page=50');
    // No selection: the bar says so.
    await page.getByLabel('Changer la sélection').selectOption({ label: 'Statut : Traité' });
    await page.getByRole('button', { name: 'Appliquer…' }).click();
    await page.getByRole('alert').filter({ hasText: 'Sélectionnez au moins une commande.' }).waitFor();
    // A forged post with an unknown status.
    const [order] = await query<{ id: string }>(`select id from orders where number = 'SV-2026-000201'`);
    const response = await page.request.post(`${server.url}/admin/api/commandes/lot`, {
      form: { intent: 'apply', kind: 'status', target: 'teleported', ids: order?.id as string },
    });
    expect(await response.json()).toMatchObject({ ok: false, error: 'Statut inconnu.' });
    const [unchanged] = await query<{ status: string; stage: string }>(
      `select status, stage from orders where number = 'SV-2026-000201'`,
    );
    expect(unchanged).toEqual({ status: 'processing', stage: 'quality_check' });
  });

  it('exports the selection and prints its job sheets', async () => {
    const page = await adminPage('/admin?etape=quality_check&par_page=50');
    await page.getByRole('checkbox', { name: 'Sélectionner la commande SV-2026-000201' }).check();
    await page.getByRole('checkbox', { name: 'Sélectionner la commande SV-2026-000202' }).check();
    await page.getByText('2 commandes sélectionnées').waitFor();
    const exportHref = await page.getByRole('link', { name: 'Exporter la sélection (CSV)' }).getAttribute('href');
    const csv = await page.request.get(`${server.url}${exportHref}`);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).map((line) => line.split(';')[0])).toEqual(
      expect.arrayContaining(['SV-2026-000201', 'SV-2026-000202']),
    );
    const sheetsHref = await page.getByRole('link', { name: 'Imprimer les fiches atelier' }).getAttribute('href');
    const pdf = await page.request.get(`${server.url}${sheetsHref}`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    // One A4 page per selected order.
    expect((await pdf.body()).toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);
  });
});

describe('saved filters', () => {
  it('saves the current filter, reopens it, refuses bad names in French, and deletes it', async () => {
    const page = await adminPage('/admin?etape=quality_check&par_page=50');
    const name = page.getByLabel('Nom du filtre');
    const save = page.getByRole('button', { name: 'Enregistrer ce filtre' });
    await save.click();
    await page.getByText('Donnez un nom à ce filtre.').waitFor();
    await name.fill('x'.repeat(61));
    await save.click();
    await page.getByText('Le nom ne doit pas dépasser 60 caractères.').waitFor();
    await name.fill('Contrôle qualité');
    await save.click();
    await waitForToast(page, /Filtre «\sContrôle qualité\s» enregistré/);
    const chip = page.getByRole('link', { name: 'Contrôle qualité', exact: true });
    await chip.waitFor();
    await name.fill('Contrôle qualité');
    await save.click();
    await page.getByText(/Vous avez déjà un filtre nommé «\sContrôle qualité\s»/).waitFor();

    await page.goto(`${server.url}/admin`);
    await page.locator('[data-hydrated="true"]').waitFor();
    await page.getByRole('link', { name: 'Contrôle qualité', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('etape') === 'quality_check');
    await page.getByText('50 commandes').first().waitFor();

    await page.getByRole('button', { name: 'Supprimer le filtre Contrôle qualité' }).click();
    await waitForToast(page, /Filtre «\sContrôle qualité\s» supprimé/);
    await page.getByText('Aucun filtre enregistré.').waitFor();
    const [left] = await query<{ n: number }>(`select count(*)::int as n from saved_order_filters`);
    expect(left?.n).toBe(0);
  });
});

describe('the back office on a phone', () => {
  it('folds the statistics, scrolls the tab bar and shows orders as cards', async () => {
    const page = await adminPage('/admin', PHONE);
    const statsToggle = page.getByRole('button', { name: 'Afficher les statistiques' });
    expect(await statsToggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByText('Chiffre d’affaires').isVisible()).toBe(false);

    const tabs = page.getByRole('navigation', { name: 'Sections du tableau de bord' });
    const widths = await tabs.evaluate((nav) => ({ scroll: nav.scrollWidth, client: nav.clientWidth }));
    expect(widths.scroll).toBeGreaterThan(widths.client);
    // The page itself does not scroll sideways: the last tab is reached by scrolling the bar.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await tabs.getByRole('link', { name: 'Comptabilité' }).scrollIntoViewIfNeeded();
    expect(await tabs.getByRole('link', { name: 'Comptabilité' }).isVisible()).toBe(true);

    const card = page.getByRole('list', { name: 'Commandes' }).getByRole('listitem').first();
    for (const label of ['Statut', 'Paiement', 'Montant']) {
      const box = await card.getByText(label, { exact: true }).boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(375);
    }
    const amount = await card.getByText('35,00').boundingBox();
    expect(amount && amount.x + amount.width).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page);

    await statsToggle.click();
    await page.getByText('Chiffre d’affaires').waitFor();
    expect(await page.getByRole('button', { name: 'Masquer les statistiques' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
  });

  it('keeps the table on a wide screen, axe clean', async () => {
    const page = await adminPage('/admin?par_page=50');
    await page.getByRole('table').waitFor();
    await expectNoSeriousA11yViolations(page);
  });
});
