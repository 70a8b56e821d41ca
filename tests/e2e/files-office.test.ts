import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateFr } from '~/domain/format';
import { storeOrderFile } from '~/server/files/order-files.server';
import { createLocalStorage, type FileStorage } from '~/server/files/storage.server';
import { addSessionCookie, createUser, type TestUser, uniqueEmail } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { type ServerWithSmtp, startServerWithSmtp } from '../support/server-with-smtp';

/*
 * The back office's side of the delivered files in Chromium against the production server (issue
 * 16): the staff see the files of a paid order (put in the server's DATA_DIR/files the way uploads
 * put them), the one the customer flagged « À refaire » on top with their comment; they publish,
 * and the customer's « Vos fichiers sont prêts » e-mail arrives on the real SMTP peer with the
 * gallery's link, its token opening the order; they extend the retention by 30 days and delete a
 * file, whose bytes leave the disk.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const DAY = 86_400_000;

let env: ServerWithSmtp;
let browser: Browser;
let admin: TestUser;
let storage: FileStorage;

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

/** The outbox worker sends on its own schedule: the SMTP peer signals the arrival. */
function emailTo(to: string, subject: string, timeoutMs = 20_000) {
  return env.smtp.waitForMail(to, (m) => m.subject.startsWith(subject), timeoutMs);
}

/** A guest's paid order checked by the workshop, with three files, one flagged « À refaire ». */
async function orderWithFiles(guestEmail: string): Promise<{ order: TestOrder; keys: Record<string, string> }> {
  const order = await insertTestOrder(env.server.databaseUrl, {
    guestEmail,
    paymentStatus: 'paid',
    status: 'processing',
  });
  await env.db.query(`update orders set stage = 'quality_check', received_at = now() where id = $1`, [order.id]);
  const keys: Record<string, string> = {};
  for (const [name, support, size] of [
    ['IMG_0001.jpg', 'photos', 2_500_000],
    ['IMG_0002.jpg', 'photos', 1_500_000],
    ['mariage-1987.mp4', 'vhs', 3_000_000],
  ] as const) {
    const stored = await storeOrderFile(
      { orderId: order.id, name, support, body: Readable.from([randomBytes(size)]), uploadedBy: admin.id },
      { storage },
    );
    keys[name] = stored.file.storageKey;
  }
  await env.db.query(
    `update order_files set rework_requested_at = now(), rework_comment = 'La photo est floue, merci de la refaire'
     where order_id = $1 and name = 'IMG_0001.jpg'`,
    [order.id],
  );
  return { order, keys };
}

async function filesSection(order: TestOrder): Promise<{ page: Page; dialog: Locator; section: Locator }> {
  const page = await openPage(browser, undefined, DESKTOP);
  await addSessionCookie(page, env.server.url, admin.cookie);
  await page.goto(`${env.server.url}/admin?commande=${order.id}`);
  await page.locator('[data-hydrated="true"]').waitFor();
  const dialog = page.getByRole('dialog', { name: `Commande ${order.number}` });
  const section = dialog.getByRole('region', { name: 'Fichiers livrés' });
  await section.getByRole('button', { name: 'Publier la livraison' }).waitFor();
  return { page, dialog, section };
}

beforeAll(async () => {
  [env, browser] = await Promise.all([startServerWithSmtp(), launchBrowser()]);
  admin = await createUser({
    url: env.server.url,
    databaseUrl: env.server.databaseUrl,
    role: 'admin',
    firstName: 'Ada',
    lastName: 'Admin',
  });
  // The server keeps its files in DATA_DIR/files: this process writes there as an upload would.
  storage = createLocalStorage(path.join(env.server.dataDir, 'files'));
});

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

describe('the delivered files in the back office', () => {
  it('staff see the files and the rework, publish, the customer is e-mailed; extend, delete a file', async () => {
    const email = uniqueEmail('fichiers');
    const { order, keys } = await orderWithFiles(email);
    const { page, dialog, section } = await filesSection(order);

    // The file to redo is on top, with the customer's comment; then the files by support.
    const rework = section.getByRole('region', { name: '1 fichier à refaire' });
    expect(plain(await rework.innerText())).toContain('IMG_0001.jpg');
    expect(plain(await rework.innerText())).toContain('« La photo est floue, merci de la refaire »');
    expect(plain(await section.getByRole('region', { name: /^Photos papier/ }).innerText())).toMatch(
      /Photos papier · 2 fichiers · 4 Mo[\s\S]*IMG_0001\.jpg[\s\S]*À refaire[\s\S]*Jamais téléchargé[\s\S]*IMG_0002\.jpg/,
    );
    expect(plain(await section.innerText())).toContain('mariage-1987.mp4');
    expect(plain(await section.innerText())).toContain('Livraison pas encore publiée');
    await expectNoSeriousA11yViolations(page);

    // « Publier la livraison », confirmed.
    await section.getByRole('button', { name: 'Publier la livraison' }).click();
    await section.getByRole('button', { name: 'Confirmer la publication' }).click();
    await page
      .getByText('Livraison publiée : 3 fichiers, le client est prévenu par email.')
      .waitFor({ timeout: 20_000 });
    await section.getByText(/^Publiée le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}, en ligne jusqu’au/).waitFor();
    await dialog.getByText('Livraison des fichiers publiée').waitFor();

    const { rows } = await env.db.query<{ stage: string; status: string; files_expire_at: Date }>(
      'select stage, status, files_expire_at from orders where id = $1',
      [order.id],
    );
    expect(rows[0]).toMatchObject({ stage: 'ready', status: 'completed' });
    const expiresAt = rows[0]?.files_expire_at as Date;
    expect(Math.round((expiresAt.getTime() - Date.now()) / DAY)).toBe(60);

    const message = await emailTo(email, 'Vos fichiers sont prêts');
    expect(plain(message.subject)).toBe(`Vos fichiers sont prêts (commande ${order.number})`);
    expect(plain(message.text)).toContain('Vos fichiers en ligne : 3 fichiers · 7 Mo.');
    expect(plain(message.text)).toContain(`Ils restent disponibles jusqu’au ${formatDateFr(expiresAt)}.`);
    const link = new RegExp(`href="(${env.server.url}/commande/${order.id}/fichiers\\?token=[^"]+)"`)
      .exec(message.html)?.[1]
      ?.replace(/&amp;/g, '&');
    expect(link).toBeDefined();
    // The link's token opens the order in a browser that never saw it (here, its confirmation page).
    const token = new URL(link as string).searchParams.get('token') as string;
    const customer = await openPage(browser);
    await customer.goto(`${env.server.url}/confirmation?orderId=${order.id}&token=${encodeURIComponent(token)}`);
    await customer.getByText(order.number).first().waitFor();

    // « Prolonger » by 30 days.
    await section.getByRole('button', { name: '+ 30 jours' }).click();
    const extended = new Date(expiresAt.getTime() + 30 * DAY);
    await page
      .getByText(`Les fichiers sont conservés jusqu’au ${formatDateFr(extended)}.`)
      .waitFor({ timeout: 20_000 });
    await dialog.getByText(`Conservation des fichiers prolongée jusqu’au ${formatDateFr(extended)}`).waitFor();
    const after = await env.db.query<{ files_expire_at: Date }>('select files_expire_at from orders where id = $1', [
      order.id,
    ]);
    expect(after.rows[0]?.files_expire_at.getTime()).toBe(extended.getTime());

    // A date in the past: the French message under « Nouvelle date », the expiry unchanged.
    const newDate = section.getByLabel('Nouvelle date');
    await newDate.fill('2020-01-01');
    await section.getByRole('button', { name: 'Prolonger', exact: true }).click();
    await section.getByText('La nouvelle date ne peut pas être antérieure à aujourd’hui.').waitFor({ timeout: 20_000 });
    expect(await newDate.getAttribute('aria-invalid')).toBe('true');
    const unchanged = await env.db.query<{ files_expire_at: Date }>(
      'select files_expire_at from orders where id = $1',
      [order.id],
    );
    expect(unchanged.rows[0]?.files_expire_at.getTime()).toBe(extended.getTime());

    // Deleting one file, confirmed: its bytes leave the server's disk.
    await section.getByRole('button', { name: 'Supprimer IMG_0002.jpg' }).click();
    await section.getByRole('button', { name: 'Supprimer définitivement' }).click();
    await page.getByText('Le fichier IMG_0002.jpg est supprimé.').waitFor({ timeout: 20_000 });
    await section.getByText('IMG_0002.jpg').waitFor({ state: 'detached' });
    await expect(fs.stat(path.join(env.server.dataDir, 'files', keys['IMG_0002.jpg'] as string))).rejects.toThrow();
    expect(await storage.stat(keys['IMG_0001.jpg'] as string)).not.toBeNull();
    await dialog.getByText('Fichiers supprimés par l’équipe').waitFor();

    // The file redone: the « À refaire » mark goes.
    await rework.getByRole('button', { name: 'IMG_0001.jpg : refait' }).click();
    await rework.waitFor({ state: 'detached', timeout: 20_000 });
    await expectNoSeriousA11yViolations(page);
  });

  it('the retention period is set in the settings, checked in French, and used by the next publication', async () => {
    const page = await openPage(browser, undefined, DESKTOP);
    await addSessionCookie(page, env.server.url, admin.cookie);
    await page.goto(`${env.server.url}/admin`);
    await page.locator('[data-hydrated="true"]').waitFor();
    await page.getByRole('button', { name: 'Paramètres' }).click();
    await page.getByRole('menuitem', { name: 'Fichiers livrés' }).click();
    const dialog = page.getByRole('dialog', { name: 'Fichiers livrés' });
    const field = dialog.getByRole('spinbutton', { name: 'Durée de conservation des fichiers (jours)' });
    expect(await field.inputValue()).toBe('60');
    await expectNoSeriousA11yViolations(page);

    await field.fill('3');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.getByText('Indiquez une durée de conservation entre 7 et 730 jours.').waitFor({ timeout: 20_000 });
    await field.fill('90');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page
      .getByText('Les fichiers sont désormais conservés 90 jours après leur publication.')
      .waitFor({ timeout: 20_000 });

    const { order } = await orderWithFiles(uniqueEmail('conservation'));
    const { section } = await filesSection(order);
    await section.getByRole('button', { name: 'Publier la livraison' }).click();
    await section.getByRole('button', { name: 'Confirmer la publication' }).click();
    await section.getByText(/^Publiée le /).waitFor({ timeout: 20_000 });
    const { rows } = await env.db.query<{ files_expire_at: Date }>('select files_expire_at from orders where id = $1', [
      order.id,
    ]);
    const expiry = rows[0]?.files_expire_at as Date;
    expect(Math.round((expiry.getTime() - Date.now()) / DAY)).toBe(90);
  });
});
