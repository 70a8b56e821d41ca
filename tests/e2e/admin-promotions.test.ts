import pg from 'pg';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateFr } from '~/domain/format';
import { createUser, randomIp, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openStaffPage } from '../support/browser';
import { type SharedServer, sharedServer } from '../support/shared-shop';

/*
 * « Codes promo » in Chromium on the built app (decision 038), on the worker's shared server: an
 * administrator creates HIVER20 (20 % on paper photos, from today, once per customer) and reads it
 * in the list; a bad form (percent 0, an end before the start, a code taken) answers in French
 * under the fields and creates nothing, in the browser and posted plainly; the code is paused and
 * resumed, and the Journal shows the three entries; the workshop is refused by the door; axe finds
 * nothing serious.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PATH = '/admin/codes-promo';
let server: SharedServer;
let browser: Browser;
let client: pg.Client;
let admin: TestUser;
let accountant: TestUser;
let operator: TestUser;

/** The text as a person reads it: French no-break spaces count as spaces. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00A0\u202F]/g, ' ');
const textOf = async (locator: Locator) => plain(await locator.innerText());

/** A day in Paris, as a date field holds it (2026-12-01). */
function parisDay(offsetDays = 0): string {
  const day = new Date(Date.now() + offsetDays * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(day);
}

const frenchDay = (isoDay: string) => formatDateFr(`${isoDay}T12:00:00Z`);

async function codesNamed(code: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>('select count(*)::int as n from promotion_codes where code = $1', [
    code,
  ]);
  return rows[0]?.n ?? 0;
}

const codeRow = (page: Page, code: string) =>
  page
    .getByRole('table', { name: /Codes promo/ })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: code, exact: true }) });

async function fillForm(page: Page, fields: { code: string; percent: string; startsOn: string; endsOn?: string }) {
  const form = page.getByRole('region', { name: 'Nouveau code promo' });
  await form.getByLabel('Code', { exact: true }).fill(fields.code);
  await form.getByLabel('Libellé').fill('Noël : 20 % sur vos photos');
  await form.getByRole('group', { name: 'Type de remise' }).getByLabel('Pourcentage').check();
  await form.getByLabel('Pourcentage (remise en pourcentage)').fill(fields.percent);
  await form.getByRole('group', { name: 'Supports concernés' }).getByLabel('Photos papier').check();
  await form.getByLabel('Premier jour').fill(fields.startsOn);
  await form.getByLabel('Dernier jour (facultatif)').fill(fields.endsOn ?? '');
  await form.getByLabel('Utilisations par client (facultatif)').fill('1');
  return form;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([sharedServer(), launchBrowser()]);
  client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  [admin, accountant, operator] = await Promise.all([
    createUser({
      url: server.url,
      databaseUrl: server.databaseUrl,
      role: 'admin',
      firstName: 'Paule',
      lastName: 'Promo',
    }),
    createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'comptabilite' }),
    createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'atelier' }),
  ]);
}, 120_000);

afterAll(async () => {
  await client?.end();
  await browser?.close();
  await server?.dispose();
});

describe('« Codes promo » in the back office', () => {
  it('an administrator creates HIVER20, is told a bad form in French, pauses and resumes it; the Journal shows it', async () => {
    const today = parisDay();
    const page = await openStaffPage(browser, server.url, admin.cookie, '/admin/cartes-cadeaux', DESKTOP);
    await page
      .getByRole('navigation', { name: 'Sections du tableau de bord' })
      .getByRole('link', { name: 'Codes promo' })
      .click();
    await page.waitForURL(`${server.url}${PATH}`);
    await page.getByRole('heading', { name: 'Codes promo', level: 2 }).waitFor();
    await expectNoSeriousA11yViolations(page);

    const form = await fillForm(page, { code: 'hiver20', percent: '20', startsOn: today });
    await form.getByRole('button', { name: 'Créer le code' }).click();
    await form.getByText('Code promo HIVER20 créé.').waitFor();
    const row = codeRow(page, 'HIVER20');
    await expect.poll(async () => row.count()).toBe(1);
    const shown = await textOf(row);
    expect(shown).toContain('Noël : 20 % sur vos photos');
    expect(shown).toContain('20 % sur Photos papier');
    expect(shown).toContain(`à partir du ${frenchDay(today)}`);
    expect(shown).toContain('1 par client');
    expect(shown).toContain('Actif');
    expect(shown).toMatch(/\b0\s+0,00 €\s+0,00 €/);
    // The form is emptied for the next code.
    expect(await form.getByLabel('Code', { exact: true }).inputValue()).toBe('');
    expect(await codesNamed('HIVER20')).toBe(1);
    await expectNoSeriousA11yViolations(page);

    // A percentage of 0 and an end before the start: both said under their fields, nothing written.
    await fillForm(page, { code: 'NOEL0', percent: '0', startsOn: today, endsOn: parisDay(-3) });
    await form.getByRole('button', { name: 'Créer le code' }).click();
    await form.getByText('Indiquez un pourcentage entier entre 1 et 100.').waitFor();
    await form.getByText('Indiquez une date de fin (jj/mm/aaaa) postérieure au début, ou laissez vide.').waitFor();
    expect(plain(await form.getByRole('alert').first().innerText())).toContain(
      'Vérifiez le formulaire : le code n’a pas été créé.',
    );
    const percent = form.getByLabel('Pourcentage (remise en pourcentage)');
    expect(await percent.getAttribute('aria-invalid')).toBe('true');
    expect(await codesNamed('NOEL0')).toBe(0);
    await expectNoSeriousA11yViolations(page);

    // A code taken already.
    await fillForm(page, { code: 'HIVER20', percent: '15', startsOn: today });
    await form.getByRole('button', { name: 'Créer le code' }).click();
    await form.getByText('Ce code existe déjà.').waitFor();
    expect(await codesNamed('HIVER20')).toBe(1);
    const { rows: kept } = await client.query<{ percent: number }>(
      "select percent from promotion_codes where code = 'HIVER20'",
    );
    expect(kept).toEqual([{ percent: 20 }]);

    // Pause, then resume.
    await row.getByRole('button', { name: 'Suspendre le code HIVER20' }).click();
    await page.getByText('Code promo HIVER20 suspendu : il ne s’applique plus aux nouvelles commandes.').waitFor();
    await expect.poll(async () => textOf(row)).toContain('Suspendu');
    await expectNoSeriousA11yViolations(page);
    await row.getByRole('button', { name: 'Réactiver le code HIVER20' }).click();
    await page.getByText('Code promo HIVER20 réactivé.').waitFor();
    await expect.poll(async () => textOf(row)).toContain('Actif');
    const { rows: state } = await client.query<{ paused_at: Date | null }>(
      "select paused_at from promotion_codes where code = 'HIVER20'",
    );
    expect(state).toEqual([{ paused_at: null }]);

    // The Journal: the administrator's three actions, newest first.
    const journal = await openStaffPage(
      browser,
      server.url,
      admin.cookie,
      `/admin/journal?personne=${admin.id}`,
      DESKTOP,
    );
    const entries = journal.getByRole('table', { name: 'Journal des actions' }).locator('tbody tr');
    await expect.poll(async () => entries.count()).toBe(3);
    const [resumed, paused, created] = await Promise.all([0, 1, 2].map((i) => textOf(entries.nth(i))));
    expect(resumed).toContain('Code promo réactivé');
    expect(paused).toContain('Code promo suspendu');
    expect(created).toContain('Code promo créé');
    for (const entry of [resumed, paused, created]) {
      expect(entry).toContain('HIVER20');
      expect(entry).toContain('Paule Promo');
    }
    await journal.context().close();
    await page.context().close();
  });

  it('works as plain forms, before any JavaScript: a bad form answers in French and writes nothing', async () => {
    const before = await client.query<{ n: number }>('select count(*)::int as n from promotion_codes');
    const response = await fetch(`${server.url}${PATH}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: admin.cookie,
        origin: server.url,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': randomIp(),
      },
      body: new URLSearchParams({
        intent: 'create',
        code: 'PRINTEMPS',
        label: 'Printemps',
        kind: 'percent',
        percent: '0',
        startsOn: '10/03/2027',
        endsOn: '01/03/2027',
      }),
    });
    expect(response.status).toBe(200);
    const html = plain(await response.text());
    expect(html).toContain('Indiquez un pourcentage entier entre 1 et 100.');
    expect(html).toContain('Indiquez une date de fin (jj/mm/aaaa) postérieure au début, ou laissez vide.');
    const after = await client.query<{ n: number }>('select count(*)::int as n from promotion_codes');
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);

    // The accountant holds the capability too (as for gift cards): the page opens.
    const read = await fetch(`${server.url}${PATH}`, {
      headers: { cookie: accountant.cookie, 'x-forwarded-for': randomIp() },
      redirect: 'manual',
    });
    expect(read.status).toBe(200);
  });

  it('the workshop is refused by the door, reading or writing', async () => {
    const headers = { cookie: operator.cookie, origin: server.url, 'x-forwarded-for': randomIp() };
    const read = await fetch(`${server.url}${PATH}`, { headers, redirect: 'manual' });
    expect(read.status).toBe(403);
    const write = await fetch(`${server.url}${PATH}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        intent: 'create',
        code: 'ATELIER10',
        label: 'Atelier',
        kind: 'percent',
        percent: '10',
        startsOn: parisDay(),
      }),
    });
    expect(write.status).toBe(403);
    expect(await codesNamed('ATELIER10')).toBe(0);

    const page = await openStaffPage(browser, server.url, operator.cookie, '/admin', DESKTOP);
    const tabs = page.getByRole('navigation', { name: 'Sections du tableau de bord' });
    await tabs.getByRole('link', { name: 'Commandes' }).waitFor();
    expect(await tabs.getByRole('link', { name: 'Codes promo' }).count()).toBe(0);
    // In a second tab of the session: Chromium logs a 403 document as a console error, which the
    // pages of openPage count as a failure.
    const denied = await page.context().newPage();
    const response = await denied.goto(`${server.url}${PATH}`);
    expect(response?.status()).toBe(403);
    await denied.getByRole('heading', { name: 'Accès non autorisé' }).waitFor();
    await expectNoSeriousA11yViolations(denied);
    await page.context().close();
  });
});
