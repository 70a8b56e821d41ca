import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retentionEnd } from '~/domain/files/delivered-files';
import { formatEurosFromCents } from '~/domain/format';
import { storeOrderFile } from '~/server/files/order-files.server';
import { createShare } from '~/server/files/sharing.server';
import { createLocalStorage, type FileStorage } from '~/server/files/storage.server';
import { applyTransition } from '~/server/orders/lifecycle.server';
import { createUser, signIn, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage, waitForHydrationOnLoad } from '../support/browser';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';
import { zipDigests } from '../support/unzip';

/*
 * « Partager avec la famille » (docs/decisions/028) in Chromium against the production server and a
 * real SMTP peer: the customer, without JavaScript, shares two of their three photos with an aunt's
 * address; the aunt opens the e-mail's link in a fresh browser on a phone, with no account, sees
 * whose memories they are and only those two files, nothing of the order, and downloads a ZIP whose
 * files match; the customer sees the visit counted, stops the share, and the link answers « Ce
 * partage a pris fin » (410). Before that, the aunt orders a USB key of the shared photos from the
 * share and lands on the checkout with her own order.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const AUNT = 'tante.jeanne@example.fr';

let env: SharedServerWithSmtp;
let browser: Browser;
let storage: FileStorage;
let owner: TestUser;
let admin: TestUser;
let stranger: TestUser;
let order: TestOrder;
let downloads: string;
/** The share's link, from the invitation e-mail. */
let shareLink: string;

interface Stored {
  id: string;
  name: string;
  bytes: Buffer;
}
const stored: Stored[] = [];

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

async function photo(seed: number): Promise<Buffer> {
  return sharp({
    create: { width: 500 + seed * 10, height: 400, channels: 3, background: { r: 50 * seed, g: 110, b: 190 } },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
}

async function get(address: string, cookie?: string): Promise<Response> {
  return fetch(new URL(address, env.server.url), {
    redirect: 'manual',
    headers: cookie ? { Cookie: cookie } : {},
  });
}

async function customerPage(options: Parameters<typeof openPage>[2] = DESKTOP): Promise<Page> {
  const page = await openPage(browser, undefined, options);
  await signIn({ url: env.server.url, email: owner.email, page });
  return page;
}

beforeAll(async () => {
  [env, browser] = await Promise.all([sharedServerWithSmtp(), launchBrowser()]);
  process.env.BASE_URL = env.server.url;
  downloads = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-sharing-'));
  storage = createLocalStorage(path.join(env.server.dataDir, 'files'));
  [owner, admin, stranger] = await Promise.all([
    createUser({ url: env.server.url, firstName: 'Marie', lastName: 'Dupont' }),
    createUser({ url: env.server.url, databaseUrl: env.server.databaseUrl, role: 'admin' }),
    createUser({ url: env.server.url, firstName: 'Sam', lastName: 'Autre' }),
  ]);
  admin.cookie = await signIn({ url: env.server.url, email: admin.email });
  order = await insertTestOrder(env.server.databaseUrl, {
    userId: owner.id,
    paymentStatus: 'paid',
    status: 'processing',
  });
  await env.db.query(`update orders set stage = 'digitising', paid_at = now() where id = $1`, [order.id]);
  for (const [index, name] of ['Mariage 1972.jpg', 'Noël 1986.jpg', 'Vacances 1990.jpg'].entries()) {
    const bytes = await photo(index + 1);
    const result = await storeOrderFile(
      { orderId: order.id, name, support: 'photos', body: Readable.from([bytes]), uploadedBy: admin.id },
      { storage },
    );
    stored.push({ id: result.file.id, name, bytes });
  }
  // The thumbnails are made by the server's own previews job.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await env.db.query<{ n: number }>(
      `select count(*)::int as n from order_files where order_id = $1 and preview_status = 'ready'`,
      [order.id],
    );
    if (rows[0]?.n === stored.length) break;
    if (Date.now() > deadline) throw new Error('the previews job did not make the photos’ previews in time');
    await new Promise((r) => setTimeout(r, 100));
  }
  const published = await applyTransition(
    order.id,
    { type: 'publish_files', fileCount: stored.length, expiresAt: retentionEnd(new Date(), 60).toISOString() },
    admin.id,
  );
  expect(published.ok).toBe(true);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
  if (downloads) await fs.rm(downloads, { recursive: true, force: true });
});

describe('sharing memories with the family', () => {
  it('the customer shares two photos with an aunt’s address, without JavaScript, and a bad address keeps what was typed', async () => {
    const page = await customerPage({ ...DESKTOP, javaScriptEnabled: false });
    await page.goto(`${env.server.url}/commande/${order.id}/fichiers`);
    await page.getByRole('link', { name: 'Partager avec la famille' }).click();
    await page.getByRole('heading', { level: 1, name: 'Partager avec la famille' }).waitFor();
    expect(plain(await page.locator('main').innerText())).toContain('Vous n’avez encore rien partagé.');
    // axe needs JavaScript: the page is checked with it in the last test (list and form).

    await page.getByLabel('Seulement les fichiers cochés ci-dessous').check();
    await page.getByRole('checkbox', { name: /Mariage 1972\.jpg/ }).check();
    await page.getByRole('checkbox', { name: /Noël 1986\.jpg/ }).check();
    await page.getByLabel('Regarder et télécharger').check();
    await page.getByLabel('Durée du partage').selectOption({ label: '3 mois' });
    await page.getByLabel('Inviter par e-mail (facultatif)').fill(`${AUNT}, tante@`);
    await page.getByLabel('Votre message (facultatif)').fill('Les photos du mariage et de Noël, pour toi !');
    await page.getByRole('button', { name: 'Créer le partage' }).click();
    await page.getByRole('alert').waitFor();
    expect(plain(await page.getByRole('alert').innerText())).toBe('« tante@ » n’est pas une adresse e-mail valide.');
    // Nothing typed is lost, nothing was made.
    expect(await page.getByLabel('Inviter par e-mail (facultatif)').inputValue()).toBe(`${AUNT}, tante@`);
    expect(await page.getByLabel('Votre message (facultatif)').inputValue()).toBe(
      'Les photos du mariage et de Noël, pour toi !',
    );
    expect(await page.getByRole('checkbox', { name: /Noël 1986\.jpg/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /Vacances 1990\.jpg/ }).isChecked()).toBe(false);
    expect(await page.getByLabel('Regarder et télécharger').isChecked()).toBe(true);
    expect(await page.getByLabel('Durée du partage').inputValue()).toBe('90');
    expect((await env.db.query('select 1 from file_shares where order_id = $1', [order.id])).rowCount).toBe(0);

    await page.getByLabel('Inviter par e-mail (facultatif)').fill(AUNT);
    await page.getByRole('button', { name: 'Créer le partage' }).click();
    await page.getByRole('status').waitFor();
    expect(plain(await page.getByRole('status').innerText())).toContain(
      'Votre partage est créé et l’invitation est envoyée.',
    );
    const share = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^Partage du / }) });
    const text = plain(await share.innerText());
    expect(text).toContain('2 fichiers choisis');
    expect(text).toContain('Regarder et télécharger');
    expect(text).toContain('Pas encore ouvert');
    expect(text).toContain(AUNT);
    expect(await share.getByLabel('Lien à envoyer').inputValue()).toMatch(
      new RegExp(`^${env.server.url}/partage/[A-Za-z0-9_-]{43}$`),
    );
  });

  it('sends one e-mail to the aunt, answering to the customer', async () => {
    const message = await env.smtp.waitForMail(AUNT);
    expect(plain(message.subject)).toBe('Marie D. partage ses souvenirs avec vous');
    expect(message.headers.get('reply-to')).toContain(owner.email);
    expect(plain(message.text)).toContain('Les photos du mariage et de Noël, pour toi !');
    expect(message.text).not.toContain(order.number);
    const link = /(http:\/\/[^\s\]]+\/partage\/[A-Za-z0-9_-]{43})/.exec(message.text)?.[1];
    expect(link).toBeDefined();
    shareLink = link as string;
  });

  it('the aunt opens the link on her phone, with no account: whose memories, only the two photos, nothing of the order', async () => {
    const page = await openPage(browser, undefined, { ...PHONE, acceptDownloads: true });
    const response = await page.goto(shareLink);
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Les souvenirs de Marie D.' }).waitFor();
    const main = page.locator('main');
    const body = plain(await main.innerText());
    expect(body).toContain('Mariage 1972.jpg');
    expect(body).toContain('Noël 1986.jpg');
    expect(body).not.toContain('Vacances 1990.jpg');
    expect(body).toContain('Les photos du mariage et de Noël, pour toi !');
    expect(body).toContain('2 fichiers ·');
    // Nothing of the customer's account: no order number, address, e-mail, invoice, last name.
    for (const secret of [order.number, owner.email, 'Dupont', 'Facture', 'facture', 'Commande SV']) {
      expect(body).not.toContain(secret);
    }
    const hrefs = await main.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    const token = new URL(shareLink).pathname.split('/')[2] as string;
    expect(hrefs.filter((href) => !href.startsWith(`/partage/${token}`))).toEqual(['/configurateur']);
    expect(await main.getByRole('link', { name: 'Commander une copie' }).getAttribute('href')).toBe(
      `/partage/${token}/copie`,
    );
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('main img[loading="lazy"]')].every(
        (img) => img.complete && img.naturalWidth > 0,
      ),
    );
    await expectNoSeriousA11yViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);

    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('link', { name: /^Tout télécharger/ }).click(),
    ]);
    expect(zip.suggestedFilename()).toBe('Souvenirs de Marie D.zip');
    const zipPath = path.join(downloads, 'share.zip');
    await zip.saveAs(zipPath);
    const digests = await zipDigests(zipPath);
    // The archive's manifest (when there is one) describes the files; the files are the selection's.
    const files = Object.fromEntries(Object.entries(digests).filter(([name]) => !/^MANIFESTE/i.test(name)));
    expect(files).toEqual(
      Object.fromEntries(stored.slice(0, 2).map((file) => [`Photos papier/${file.name}`, sha256(file.bytes)])),
    );
  });

  it('answers 404 outside the selection, under another share’s token and on the customer’s own addresses', async () => {
    const token = new URL(shareLink).pathname.split('/')[2] as string;
    const [wedding, , holidays] = stored as [Stored, Stored, Stored];
    expect((await get(`/partage/${token}/fichiers/${wedding.id}`)).status).toBe(200);
    expect((await get(`/partage/${token}/fichiers/${wedding.id}/miniature.jpg`)).status).toBe(200);
    for (const address of [
      `/partage/${token}/fichiers/${holidays.id}`,
      `/partage/${token}/fichiers/${holidays.id}/miniature.jpg`,
      `/partage/${token}/fichiers/${holidays.id}/apercu.jpg`,
    ]) {
      expect({ address, status: (await get(address)).status }).toEqual({ address, status: 404 });
    }
    // Another share of the same order (view only, the third photo): it opens neither the first
    // share's files nor any original.
    const other = await createShare({
      orderId: order.id,
      createdBy: owner.id,
      form: {
        scope: 'selection',
        fileIds: [holidays.id],
        allowDownloads: false,
        days: 7,
        emails: [],
        label: 'Vue seule',
        message: null,
      },
    });
    if (!other.ok) throw new Error(other.error);
    expect((await get(`/partage/${other.token}/fichiers/${holidays.id}/miniature.jpg`)).status).toBe(200);
    expect((await get(`/partage/${other.token}/fichiers/${wedding.id}/miniature.jpg`)).status).toBe(404);
    expect((await get(`/partage/${other.token}/fichiers/${holidays.id}`)).status).toBe(404);
    expect((await get(`/partage/${other.token}/fichiers.zip`)).status).toBe(404);
    // A view-only share offers no copy either: a USB key is the files (decision 028).
    expect((await get(`/partage/${other.token}/copie`)).status).toBe(403);
    // The share's token opens nothing of the order itself.
    for (const address of [`/commande/${order.id}/fichiers`, `/commande/${order.id}/partages`]) {
      expect((await get(`${address}?token=${token}`)).headers.get('location')).toBe(address);
      // Signed out, an account's order sends to sign in (the order-viewer rule), never to its files.
      const signedOut = await get(address);
      expect(signedOut.status).toBe(302);
      expect(signedOut.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
    }
    // Another customer does not see the shares; the staff see them and cannot change them.
    expect((await get(`/commande/${order.id}/partages`, stranger.cookie)).status).toBe(404);
    const staffView = await get(`/commande/${order.id}/partages`, admin.cookie);
    expect(staffView.status).toBe(200);
    const html = await staffView.text();
    expect(html).toContain('Vue seule');
    expect(html).not.toContain('Créer le partage');
    // An unknown token.
    expect((await get('/partage/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
  });

  it('the aunt, in a fresh browser, orders one USB key of the shared photos for herself and lands on the checkout', async () => {
    const { rows } = await env.db.query<{ data: { extraCopies: { usbPrice: number; shippingPrice: number } } }>(
      'select data from price_lists where is_active',
    );
    const prices = rows[0]?.data.extraCopies;
    if (!prices) throw new Error('no active price list');
    const euros = (cents: number) => plain(formatEurosFromCents(cents));
    const context = await browser.newContext({ locale: 'fr-FR', ...PHONE });
    try {
      const page = await context.newPage();
      await page.goto(shareLink);
      await page.locator('main').getByRole('link', { name: 'Commander une copie' }).click();
      await page.getByRole('heading', { level: 1, name: 'Commander une copie' }).waitFor();
      // textContent: the file names sit in folded groups (« Une sélection » unfolds them).
      const body = plain((await page.locator('main').textContent()) ?? '');
      // Only the shared photos to choose from, nothing of the customer's order.
      expect(body).toContain('Mariage 1972.jpg');
      expect(body).toContain('Noël 1986.jpg');
      expect(body).not.toContain('Vacances 1990.jpg');
      expect(body).toContain(`Clé USB (${euros(prices.usbPrice)} la clé)`);
      for (const secret of [order.number, owner.email, 'Dupont']) expect(body).not.toContain(secret);
      await expectNoSeriousA11yViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);

      // Every shared photo, one USB key, for herself: only her e-mail here, her address at checkout.
      expect(await page.getByLabel('Tous les fichiers (2)').isChecked()).toBe(true);
      await page.getByLabel(/^Clé USB/).check();
      await page.getByLabel('Nombre de copies').fill('1');
      await page.getByLabel(/^Pour moi/).check();
      await page.getByLabel('Votre adresse e-mail').fill(AUNT);
      await page.getByRole('button', { name: 'Commander et payer' }).click();
      await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
      const copyId = new URL(page.url()).searchParams.get('orderId') as string;
      const recap = plain(
        (await page.getByRole('region', { name: 'Récapitulatif de la commande' }).textContent()) ?? '',
      );
      expect(recap).toContain('Copie sur clé USB');
      expect(recap).toContain(euros(prices.shippingPrice));
      expect(recap).toContain(euros(prices.usbPrice + prices.shippingPrice));
      expect(plain(await page.locator('main').innerText())).not.toContain(order.number);

      // Her own order as a guest, linked to the shared order, of the two shared photos.
      const linked = await env.db.query<{ source_order_id: string; file_count: number; ordered_by: string }>(
        'select source_order_id, file_count, ordered_by from linked_orders where order_id = $1',
        [copyId],
      );
      expect(linked.rows[0]).toMatchObject({ source_order_id: order.id, file_count: 2 });
      expect(linked.rows[0]?.ordered_by).toMatch(/^share:/);
      const copy = await env.db.query<{ user_id: string | null; guest_email: string; total_price: number }>(
        'select user_id, guest_email, total_price from orders where id = $1',
        [copyId],
      );
      expect(copy.rows[0]).toEqual({
        user_id: null,
        guest_email: AUNT,
        total_price: prices.usbPrice + prices.shippingPrice,
      });
    } finally {
      await context.close();
    }
  });

  it('the customer sees the visit counted, stops the share, and the link answers « Ce partage a pris fin »', async () => {
    const page = await customerPage(PHONE);
    await page.goto(`${env.server.url}/commande/${order.id}/partages`);
    const share = page.getByRole('listitem').filter({ hasText: AUNT });
    // Opened twice by the aunt: to look and download, then to order her copy.
    expect(plain(await share.getByTestId('share-access').innerText())).toMatch(
      /^Ouvert 2 fois, la dernière le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}$/,
    );
    await expectNoSeriousA11yViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await share.getByRole('button', { name: /^Arrêter ce partage/ }).click();
    await page
      .getByRole('status')
      .getByText(/Le partage est arrêté/)
      .waitFor();
    await expect(share.getByText('Révoqué').isVisible()).resolves.toBe(true);
    expect(await share.getByRole('button', { name: /^Arrêter ce partage/ }).count()).toBe(0);

    // The aunt's link, in a fresh browser: a French page, status 410 (Chromium logs that status).
    const context = await browser.newContext({ locale: 'fr-FR', ...PHONE });
    const errors: string[] = [];
    const relative = await context.newPage();
    waitForHydrationOnLoad(relative);
    relative.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('status of 410')) errors.push(m.text());
    });
    relative.on('pageerror', (e) => errors.push(e.message));
    try {
      const response = await relative.goto(shareLink);
      expect(response?.status()).toBe(410);
      await relative.getByRole('heading', { level: 1, name: 'Ce partage a pris fin' }).waitFor();
      expect(await relative.title()).toBe('Ce partage a pris fin | Soovenirs');
      expect(plain(await relative.locator('main').innerText())).not.toContain('Mariage 1972.jpg');
      await expectNoSeriousA11yViolations(relative);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
    const token = new URL(shareLink).pathname.split('/')[2] as string;
    expect((await get(`/partage/${token}/fichiers.zip`)).status).toBe(410);
    expect((await get(`/partage/${token}/fichiers/${(stored[0] as Stored).id}`)).status).toBe(410);
  });
});
