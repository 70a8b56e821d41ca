import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser, randomIp, type TestUser, uniqueEmail } from '../support/auth';
import {
  expectNoSeriousA11yViolations,
  launchBrowser,
  openPage,
  openStaffPage,
  waitForToast,
} from '../support/browser';
import { type FakeColissimo, saveColishipCredentials, startFakeColissimo } from '../support/fake-colissimo';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { type ServerWithSmtp, startServerWithSmtp } from '../support/server-with-smtp';

/*
 * « Où sont mon colis et mes cassettes » (docs/decisions/026), against the production server, the
 * real SMTP peer and the local Colissimo peer (labels and La Poste's tracking service): the staff
 * save the tracking key in Configuration Coliship; a transfer order with the prepaid label is
 * validated and the label's e-mail arrives; the order page lists the carrier's events, and « Colis
 * envoyé » is ticked by the peer's first scan, not by the label; once received, the order page
 * shows each counted support's stage and the tapes one by one.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 } };

let env: ServerWithSmtp;
let browser: Browser;
let fake: FakeColissimo;
let admin: TestUser;

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

async function query(sql: string, params: unknown[] = []) {
  return (await env.db.query(sql, params)).rows;
}

/** A staff member's form post to a back-office resource route, as the dialog's fetcher makes it. */
async function staffPost(path: string, fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  }
  const response = await fetch(`${env.server.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: env.server.url,
      cookie: admin.cookie,
      'x-forwarded-for': randomIp(),
    },
    body,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** The outbox worker sends on its own schedule: the SMTP peer signals the arrival. */
function labelEmail(to: string, timeoutMs = 20_000) {
  return env.smtp.waitForMail(to, (m) => m.subject.startsWith('Votre étiquette d’envoi prépayée est prête'), timeoutMs);
}

async function orderPage(order: TestOrder, options = DESKTOP): Promise<Page> {
  const page = await openPage(browser, undefined, options);
  await addSessionCookie(page, env.server.url, order.cookie as string);
  await page.goto(`${env.server.url}/confirmation?orderId=${order.id}`);
  await page.locator('[data-hydrated="true"]').waitFor();
  return page;
}

const sentStep = (page: Page) =>
  page
    .getByRole('region', { name: 'Le voyage de vos souvenirs' })
    .getByRole('listitem')
    .filter({ hasText: 'Colis envoyé' });

beforeAll(async () => {
  fake = await startFakeColissimo();
  [env, browser] = await Promise.all([
    startServerWithSmtp({
      COLISSIMO_API_URL: fake.url,
      LAPOSTE_TRACKING_API_URL: fake.trackingUrl,
      // Every view asks the carrier here; production waits 30 minutes between two questions.
      TRACKING_REFRESH_MINUTES: '0',
    }),
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

describe('the tracking key', () => {
  it('is saved in Configuration Coliship, never shown again', { timeout: 120_000 }, async () => {
    const page = await openStaffPage(browser, env.server.url, admin.cookie, '/admin', DESKTOP);
    await page.getByRole('button', { name: 'Paramètres' }).click();
    await page.getByRole('menuitem', { name: 'Configuration Coliship' }).click();
    const dialog = page.getByRole('dialog', { name: 'Configuration Coliship' });
    const section = dialog.getByRole('region', { name: 'Suivi des colis (API Suivi de La Poste)' });
    await section.getByRole('button', { name: 'Enregistrer la clé' }).click();
    await waitForToast(page, 'Saisissez la clé de l’API Suivi de La Poste');
    await section.getByLabel('Clé de l’API (X-Okapi-Key)').fill(fake.trackingKey);
    await section.getByRole('button', { name: 'Enregistrer la clé' }).click();
    await waitForToast(page, 'Clé du suivi des colis enregistrée');
    await section.getByText('Clé enregistrée', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page);
    const [stored] = await query(`select option_value from config_options where option_name = 'laposte_tracking'`);
    expect(stored?.option_value).not.toContain(fake.trackingKey);
    await page.context().close();
  });
});

describe('where is my parcel and my tapes', () => {
  // One order followed through its journey, step by step.
  let order: TestOrder;
  let email: string;
  let parcelNumber: string;

  it('e-mails the prepaid label once the transfer is validated', async () => {
    email = uniqueEmail('suivi');
    order = await insertTestOrder(env.server.databaseUrl, { guestEmail: email });
    await query(`update orders set payment_method = 'transfer', send_method = 'label' where id = $1`, [order.id]);

    const decided = await staffPost('/admin/api/paiements', { decision: 'validate', id: [`o:${order.id}`] });
    expect(decided.results).toEqual([expect.objectContaining({ ok: true })]);
    parcelNumber = fake.parcelNumbers.at(-1) as string;
    const message = await labelEmail(email);
    expect(message.subject).toBe(`Votre étiquette d’envoi prépayée est prête (commande ${order.number})`);
    expect(plain(message.text)).toContain(`Numéro de suivi : ${parcelNumber}`);
  }, 120_000);

  it('lists the carrier’s events; a label alone is not « Colis envoyé », the first scan is', async () => {
    let page = await orderPage(order);
    const tracking = page.getByRole('region', { name: 'Suivi de vos colis' });
    const inbound = tracking.getByRole('region', { name: 'Envoi de vos originaux à l’atelier' });
    await inbound.getByText('Étiquette créée, colis pas encore déposé').waitFor();
    expect(await inbound.innerText()).toContain(parcelNumber);
    expect(await sentStep(page).getAttribute('data-state')).toBe('upcoming');
    await page.context().close();

    // La Poste takes the parcel in: on the next view, the step is ticked and the scan listed first.
    fake.scan(parcelNumber, 'PC1');
    for (const viewport of [DESKTOP, PHONE]) {
      page = await orderPage(order, viewport);
      const events = page
        .getByRole('region', { name: 'Envoi de vos originaux à l’atelier' })
        .getByRole('list', { name: 'Étapes du colis' })
        .getByRole('listitem');
      expect(await events.allInnerTexts()).toEqual([
        expect.stringContaining('Pris en charge par La Poste'),
        expect.stringContaining('Étiquette créée, colis pas encore déposé'),
      ]);
      expect(await sentStep(page).getAttribute('data-state')).toBe('current');
      expect(await page.getByRole('region', { name: 'Où en sont vos souvenirs' }).count()).toBe(0);
      // Nothing wider than the phone's screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectNoSeriousA11yViolations(page);
      await page.context().close();
    }
    expect(
      await query(`select count(*)::int as n from order_events where order_id = $1 and kind = 'parcel_posted'`, [
        order.id,
      ]),
    ).toEqual([{ n: 1 }]);
  }, 180_000);

  it('shows each counted support’s stage, and the tapes one by one, once received', async () => {
    const today = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris' }).format(new Date());
    const received = await staffPost(`/admin/api/reception/${order.id}`, {
      intent: 'receive',
      date: today,
      'count-line-0': '100',
      'count-line-1': '2',
    });
    expect(received).toMatchObject({ ok: true, outcome: 'equal' });

    const page = await orderPage(order, PHONE);
    const stages = page.getByRole('region', { name: 'Où en sont vos souvenirs' });
    await stages.waitFor();
    expect(plain(await stages.innerText())).toContain('Photos papier · 100 à l’atelier');
    const tapes = stages.getByRole('list', { name: 'Cassettes VHS, un par un' }).getByRole('listitem');
    expect((await tapes.allInnerTexts()).map(plain)).toEqual([
      expect.stringMatching(/^Cassette n° 1\s+À l’atelier, numérisation à venir$/),
      expect.stringMatching(/^Cassette n° 2\s+À l’atelier, numérisation à venir$/),
    ]);
    expect(await sentStep(page).getAttribute('data-state')).toBe('done');
    await expectNoSeriousA11yViolations(page);
    await page.context().close();
  }, 120_000);
});
