import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser, type TestUser, uniqueEmail } from '../support/auth';
import { downloadedBytes, expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { type FakeColissimo, saveColishipCredentials, startFakeColissimo } from '../support/fake-colissimo';
import { insertTestOrder, orderState, type TestOrder } from '../support/orders';
import { payBySandboxCard } from '../support/payments';
import { type ServerWithSmtp, startServerWithSmtp } from '../support/server-with-smtp';

/*
 * Colissimo labels in Chromium, against the production server and the local Colissimo peer (the
 * real multipart answer with a real PDF): a guest pays an order with the prepaid sending label and
 * the return of originals; its confirmation page offers « Télécharger mon étiquette », which
 * downloads the peer's label with its parcel number; the staff then ship the order from its
 * dialog with a Colissimo return label, downloadable from the back office.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 } };

let env: ServerWithSmtp;
let browser: Browser;
let fake: FakeColissimo;
let admin: TestUser;

function plain(text: string): string {
  return text.replace(/[\u00A0\u202F]/g, ' ');
}

async function query(sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: env.server.databaseUrl });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/** A guest's order with the prepaid label and the return of originals, its address frozen, paid by card. */
async function paidLabelOrder(guestEmail: string): Promise<TestOrder> {
  const url = env.server.url;
  // The address is this test's own (the peer checks the sender's postal code).
  const order = await insertTestOrder(env.server.databaseUrl, { guestEmail, deliveryAddress: false });
  await query(`update orders set send_method = 'label', return_originals = true, insured_value = 50000 where id = $1`, [
    order.id,
  ]);
  await query(
    `insert into order_addresses (order_id, kind, first_name, last_name, line1, postal_code, city, country, phone)
     values ($1, 'delivery', 'Marie', 'Curie', '11 rue Pierre et Marie Curie', '75005', 'Paris', 'FR', '0612345678')`,
    [order.id],
  );
  await payBySandboxCard(url, order, guestEmail);
  expect(await orderState(env.server.databaseUrl, order.id)).toMatchObject({ paymentStatus: 'paid' });
  return order;
}

async function guestPage(order: TestOrder, options = DESKTOP): Promise<Page> {
  const page = await openPage(browser, undefined, { ...options, acceptDownloads: true });
  await addSessionCookie(page, env.server.url, order.cookie as string);
  await page.goto(`${env.server.url}/confirmation?orderId=${order.id}`);
  await page.locator('[data-hydrated="true"]').waitFor();
  return page;
}

beforeAll(async () => {
  fake = await startFakeColissimo();
  [env, browser] = await Promise.all([
    startServerWithSmtp({ PAYMENT_SANDBOX: 'on', COLISSIMO_API_URL: fake.url }),
    launchBrowser(),
  ]);
  admin = await createUser({
    url: env.server.url,
    databaseUrl: env.server.databaseUrl,
    role: 'admin',
    firstName: 'Ada',
    lastName: 'Admin',
  });
  await saveColishipCredentials(env.server.url, admin.cookie, fake);
});

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
  await fake?.close();
});

describe('the prepaid sending label', () => {
  it('is made at payment and downloaded from the confirmation page, on a phone too', async () => {
    const order = await paidLabelOrder(uniqueEmail('etiquette'));
    const parcelNumber = fake.parcelNumbers.at(-1) as string;
    expect(parcelNumber).toMatch(/^6A\d{11}$/);
    const sent = fake.requests.at(-1)?.body as { letter: Record<string, Record<string, unknown>> };
    expect(sent.letter.service).toMatchObject({ orderNumber: order.number });
    expect(sent.letter.sender).toMatchObject({ address: { lastName: 'Curie', zipCode: '75005' } });

    for (const viewport of [DESKTOP, PHONE]) {
      const page = await guestPage(order, viewport);
      const section = page.getByRole('region', { name: 'Étiquette d’envoi prépayée' });
      const link = section.getByRole('link', { name: 'Télécharger mon étiquette' });
      await link.waitFor();
      expect(await section.getByRole('link', { name: `Suivre le colis ${parcelNumber}` }).getAttribute('href')).toBe(
        `https://www.laposte.fr/outils/suivre-vos-envois?code=${parcelNumber}`,
      );
      await expectNoSeriousA11yViolations(page);
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe(`etiquette-envoi-${order.number}.pdf`);
      const pdf = await downloadedBytes(download);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.toString('latin1')).toContain(`Colis ${parcelNumber}`);
      await page.context().close();
    }
    // One label, however often it is downloaded.
    expect(fake.parcelNumbers.filter((n) => n === parcelNumber)).toHaveLength(1);
  });

  it('is not served to a visitor without the order’s token', async () => {
    const order = await paidLabelOrder(uniqueEmail('etranger'));
    const response = await fetch(`${env.server.url}/commande/${order.id}/etiquette.pdf`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).not.toContain('application/pdf');
  });
});

describe('« Expédier » in the back office', () => {
  /** The order dialog of a paid order the workshop has finished, its « Expédier » dialog open. */
  async function openShipDialog(order: { id: string; number: string }) {
    // The workshop has done its work (the stages are the workshop board's).
    await query(`update orders set status = 'completed', stage = 'ready' where id = $1`, [order.id]);
    const page = await openPage(browser, undefined, DESKTOP);
    await addSessionCookie(page, env.server.url, admin.cookie);
    await page.goto(`${env.server.url}/admin?commande=${order.id}`);
    await page.locator('[data-hydrated="true"]').waitFor();
    const dialog = page.getByRole('dialog', { name: `Commande ${order.number}` });
    const shipping = dialog.getByRole('region', { name: 'Expédition' });
    await shipping.getByText('Envoi des originaux').waitFor();
    await shipping.getByRole('button', { name: 'Expédier' }).click();
    const ship = page.getByRole('dialog', { name: `Expédier la commande ${order.number}` });
    await ship.waitFor();
    return { page, shipping, ship };
  }

  it('ships the order with a Colissimo return label, insured, downloadable', async () => {
    const order = await paidLabelOrder(uniqueEmail('retour'));
    const { page, shipping, ship } = await openShipDialog(order);
    expect(plain(await ship.innerText())).toContain('Valeur assurée : 500,00 €');
    expect(await ship.getByRole('radio', { name: 'Générer une étiquette de retour Colissimo' }).isChecked()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await ship.getByRole('button', { name: 'Expédier' }).click();
    await ship.waitFor({ state: 'detached' });

    const returned = shipping.getByRole('listitem').filter({ hasText: 'Retour' });
    await returned.waitFor();
    const parcelNumber = fake.parcelNumbers.at(-1) as string;
    expect(plain(await returned.innerText())).toContain(`Suivi ${parcelNumber}`);
    const sent = fake.requests.at(-1)?.body as { letter: Record<string, Record<string, unknown>> };
    expect(sent.letter.service).toMatchObject({ productCode: 'DOS' });
    expect(sent.letter.parcel).toMatchObject({ insuranceValue: 50000 });
    expect(sent.letter.addressee).toMatchObject({ address: { lastName: 'Curie', city: 'Paris' } });

    const href = await returned.getByRole('link', { name: /Étiquette de retour/ }).getAttribute('href');
    const label = await fetch(`${env.server.url}${href}`, { headers: { cookie: admin.cookie } });
    expect(label.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await label.arrayBuffer());
    expect(pdf.toString('latin1')).toContain(`Colis ${parcelNumber}`);
    expect(await orderState(env.server.databaseUrl, order.id)).toMatchObject({ status: 'shipped' });
    await page.context().close();
  });

  it('asks for the tracking number under its field, and ships nothing without it', async () => {
    const order = await paidLabelOrder(uniqueEmail('suivi'));
    const { page, ship } = await openShipDialog(order);
    const typed = ship.getByRole('radio', { name: 'Saisir un numéro de suivi Colissimo ou La Poste' });
    await typed.check();
    const tracking = ship.getByLabel('Numéro de suivi', { exact: true });
    await tracking.fill('   ');
    await ship.getByRole('button', { name: 'Expédier' }).click();

    await expect.poll(() => tracking.getAttribute('aria-invalid')).toBe('true');
    const message = ship.getByText('Saisissez le numéro de suivi du colis');
    expect(await tracking.getAttribute('aria-describedby')).toContain(await message.getAttribute('id'));
    expect(await typed.isChecked()).toBe(true);
    // « abc » is no La Poste number: said under the field, nothing shipped, nobody e-mailed a link.
    await tracking.fill('abc');
    await ship.getByRole('button', { name: 'Expédier' }).click();
    await ship.getByText('Ce n’est pas un numéro de suivi Colissimo ou La Poste').waitFor();
    await expectNoSeriousA11yViolations(page);
    expect(await orderState(env.server.databaseUrl, order.id)).toMatchObject({ status: 'completed' });
    expect(
      (
        await query('select count(*)::int as n from shipments where order_id = $1 and direction = $2', [
          order.id,
          'outbound',
        ])
      ).rows[0],
    ).toEqual({ n: 0 });
    await page.context().close();
  });
});
