import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retentionEnd } from '~/domain/files/delivered-files';
import { storeOrderFile } from '~/server/files/order-files.server';
import { createLocalStorage, type FileStorage } from '~/server/files/storage.server';
import { applyTransition } from '~/server/orders/lifecycle.server';
import { createUser, signIn, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';
import { zipDigests } from '../support/unzip';

/*
 * The customer's gallery in Chromium against the production server: an order's files stored through
 * storeOrderFile in the server's own DATA_DIR, published by the lifecycle's publish_files; the
 * owner opens the gallery from the order page, walks the viewer with the keyboard, downloads one
 * file and the ZIP (compared by SHA-256), resumes a download with Range and flags a file « à
 * refaire », which the history shows. A stranger, another customer and a guest without the token
 * get 404 on every file address; the e-mail's token opens them; after the retention the gallery
 * says the files were deleted.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let env: SharedServerWithSmtp;
let browser: Browser;
let storage: FileStorage;
let owner: TestUser;
let otherCustomer: TestUser;
let admin: TestUser;
let order: TestOrder;
let downloads: string;
const deliveryToken = randomBytes(32).toString('base64url');

interface Stored {
  id: string;
  name: string;
  support: string;
  bytes: Buffer;
}
const stored: Stored[] = [];

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

async function photo(seed: number): Promise<Buffer> {
  return sharp({
    create: {
      width: 600 + seed * 10,
      height: 400,
      channels: 3,
      background: { r: 40 * seed, g: 120, b: 200 - 30 * seed },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
}

async function store(name: string, support: string, bytes: Buffer): Promise<Stored> {
  const result = await storeOrderFile(
    { orderId: order.id, name, support, body: Readable.from([bytes]), uploadedBy: admin.id },
    { storage },
  );
  const file = { id: result.file.id, name: result.file.name, support, bytes };
  stored.push(file);
  return file;
}

/** Every address of the order's files. */
function fileAddresses(orderId: string, fileId: string): string[] {
  return [
    `/commande/${orderId}/fichiers`,
    `/commande/${orderId}/fichiers/${fileId}`,
    `/commande/${orderId}/fichiers/${fileId}/miniature.jpg`,
    `/commande/${orderId}/fichiers/${fileId}/apercu.jpg`,
    `/commande/${orderId}/fichiers.zip`,
    `/commande/${orderId}/fichiers.zip?support=photos`,
  ];
}

async function get(address: string, cookie?: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${env.server.url}${address}`, {
    redirect: 'manual',
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers },
  });
}

async function ownerPage(options = DESKTOP): Promise<Page> {
  const page = await openPage(browser, undefined, { ...options, acceptDownloads: true });
  await signIn({ url: env.server.url, email: owner.email, page });
  return page;
}

beforeAll(async () => {
  [env, browser] = await Promise.all([sharedServerWithSmtp(), launchBrowser()]);
  // The lifecycle runs in this process too (publish_files): its links use the server's address.
  process.env.BASE_URL = env.server.url;
  downloads = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-gallery-'));
  storage = createLocalStorage(path.join(env.server.dataDir, 'files'));
  [owner, otherCustomer, admin] = await Promise.all([
    createUser({ url: env.server.url, firstName: 'Odile', lastName: 'Propriétaire' }),
    createUser({ url: env.server.url, firstName: 'Octave', lastName: 'Autre' }),
    createUser({ url: env.server.url, databaseUrl: env.server.databaseUrl, role: 'admin' }),
  ]);
  // The role was set after the sign-up: a fresh session carries it.
  admin.cookie = await signIn({ url: env.server.url, email: admin.email });
  order = await insertTestOrder(env.server.databaseUrl, {
    userId: owner.id,
    paymentStatus: 'paid',
    status: 'processing',
  });
  await env.db.query(`update orders set stage = 'digitising', paid_at = now() where id = $1`, [order.id]);

  for (const [index, name] of ['Été 84 - Mamie.jpg', 'IMG_0002.jpg', 'IMG_0003.jpg'].entries()) {
    await store(name, 'photos', await photo(index + 1));
  }
  // The video's bytes are random, not a film: what the previews job reads from a real one is set
  // here (a row the job holds is written once it lets go; `none` keeps the job away afterwards).
  await store('Cassette 1.mp4', 'vhs', randomBytes(2_500_000));
  await env.db.query(
    `update order_files set duration_seconds = 3725, preview_status = 'none' where name = 'Cassette 1.mp4'`,
  );
  await store('Lisez-moi.pdf', 'vhs', Buffer.from('%PDF-1.4 un petit fichier'));

  // The photos' thumbnails and previews are made by the server's own background job.
  const deadline = Date.now() + 60_000;
  const ready = async () =>
    (
      await env.db.query<{ n: number }>(
        `select count(*)::int as n from order_files where order_id = $1 and kind = 'image' and preview_status = 'ready'`,
        [order.id],
      )
    ).rows[0]?.n;
  while ((await ready()) !== 3) {
    if (Date.now() > deadline) throw new Error('the previews job did not make the photos’ previews in time');
    await new Promise((r) => setTimeout(r, 100));
  }

  // The files are not shown before « Publier la livraison ».
  const before = await get(fileAddresses(order.id, stored[0]?.id as string)[1] as string, owner.cookie);
  expect(before.status).toBe(404);

  const published = await applyTransition(
    order.id,
    { type: 'publish_files', fileCount: stored.length, expiresAt: retentionEnd(new Date(), 60).toISOString() },
    admin.id,
  );
  expect(published.ok).toBe(true);
  // The « Vos fichiers sont prêts » e-mail's token (helper OFFICE makes it when publishing).
  await env.db.query('update orders set delivery_token_hash = $2 where id = $1', [
    order.id,
    createHash('sha256').update(deliveryToken).digest('hex'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
  if (downloads) await fs.rm(downloads, { recursive: true, force: true });
});

describe('the customer’s gallery', () => {
  it('opens from the order page, shows the groups, and the viewer walks with the keyboard (desktop)', async () => {
    const page = await ownerPage();
    // From the account's orders list, then from the order's page.
    await page.goto(`${env.server.url}/profile`);
    await page
      .getByRole('link', { name: `Fichiers de la commande ${order.number}` })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: 'Vos fichiers' }).waitFor();
    await page.goto(`${env.server.url}/confirmation?orderId=${order.id}`);
    await page.getByRole('link', { name: 'Voir et télécharger mes fichiers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Vos fichiers' }).waitFor();
    await page.locator('[data-hydrated="true"]').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/commande/${order.id}/fichiers`);
    const body = plain(await page.locator('main').innerText());
    expect(body).toMatch(/Conservés jusqu’au \d{2}\/\d{2}\/\d{4}/);
    expect(body).toContain('5 fichiers ·');
    expect(body).toContain('Photos papier');
    expect(body).toContain('Cassettes VHS');
    expect(body).toContain('1 h 02 min');
    await expect(page.getByRole('link', { name: /^Tout télécharger \(/ }).isVisible()).resolves.toBe(true);
    // The gallery's thumbnails (the header's closed menus hold lazy icons of their own).
    const thumbnails = page.locator('main img[loading="lazy"]');
    expect(await thumbnails.count()).toBe(3);
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('main img[loading="lazy"]')].every(
        (img) => img.complete && img.naturalWidth > 0,
      ),
    );
    await expectNoSeriousA11yViolations(page);

    // The tiles are ordered by support then name: IMG_0002, IMG_0003, Été 84 (photos), then the VHS.
    await page.getByRole('link', { name: /IMG_0002\.jpg/ }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect(dialog.getByRole('heading', { name: 'IMG_0002.jpg' }).isVisible()).resolves.toBe(true);
    await dialog.getByRole('img', { name: 'Aperçu de IMG_0002.jpg' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('ArrowRight');
    await dialog.getByRole('heading', { name: 'IMG_0003.jpg' }).waitFor();
    await page.keyboard.press('ArrowRight');
    await dialog.getByRole('heading', { name: 'Été 84 - Mamie.jpg' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await dialog.getByRole('heading', { name: 'IMG_0003.jpg' }).waitFor();
    await dialog.getByRole('button', { name: 'Précédent' }).click();
    await dialog.getByRole('heading', { name: 'IMG_0002.jpg' }).waitFor();
    // From the first file, « Précédent » goes round to the last one (a video without a preview).
    await page.keyboard.press('ArrowLeft');
    await dialog.getByRole('heading', { name: 'Lisez-moi.pdf' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('works on a phone', async () => {
    const page = await ownerPage(PHONE);
    await page.goto(`${env.server.url}/commande/${order.id}/fichiers`);
    await page.locator('[data-hydrated="true"]').waitFor();
    await expectNoSeriousA11yViolations(page);
    const scrollsSideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(scrollsSideways).toBe(false);
    await page.getByRole('link', { name: /Cassette 1\.mp4/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Cassette 1.mp4' }).waitFor();
    expect(plain(await dialog.innerText())).toContain('Pas d’aperçu pour cette vidéo');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('downloads one file and the ZIP, byte for byte, and resumes a download with Range', async () => {
    const page = await ownerPage();
    await page.goto(`${env.server.url}/commande/${order.id}/fichiers`);
    await page.locator('[data-hydrated="true"]').waitFor();
    await page.getByRole('link', { name: /Été 84 - Mamie\.jpg/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Été 84 - Mamie.jpg' }).waitFor();
    const [single] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('link', { name: 'Télécharger' }).click(),
    ]);
    expect(single.suggestedFilename()).toBe('Été 84 - Mamie.jpg');
    const singlePath = path.join(downloads, 'single.jpg');
    await single.saveAs(singlePath);
    const mamie = stored.find((file) => file.name === 'Été 84 - Mamie.jpg') as Stored;
    expect(sha256(await fs.readFile(singlePath))).toBe(sha256(mamie.bytes));
    await page.keyboard.press('Escape');

    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /^Tout télécharger/ }).click(),
    ]);
    expect(zip.suggestedFilename()).toBe(`Soovenirs ${order.number}.zip`);
    const zipPath = path.join(downloads, 'all.zip');
    await zip.saveAs(zipPath);
    const label = (support: string) => (support === 'photos' ? 'Photos papier' : 'Cassettes VHS');
    expect(await zipDigests(zipPath)).toEqual({
      ...Object.fromEntries(stored.map((file) => [`${label(file.support)}/${file.name}`, sha256(file.bytes)])),
      // Every ZIP carries its manifest (docs/decisions/027; gallery-playback.test.ts checks its lines).
      'MANIFESTE.csv': expect.any(String),
    });

    // A download cut after 1 MB, resumed from there: the two parts make the file.
    const video = stored.find((file) => file.name === 'Cassette 1.mp4') as Stored;
    const address = `/commande/${order.id}/fichiers/${video.id}`;
    const head = await get(address, owner.cookie, { Range: 'bytes=0-999999' });
    expect(head.status).toBe(206);
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    const first = Buffer.from(await head.arrayBuffer());
    const rest = await get(address, owner.cookie, { Range: 'bytes=1000000-', 'If-Range': `"${sha256(video.bytes)}"` });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes 1000000-${video.bytes.length - 1}/${video.bytes.length}`);
    const second = Buffer.from(await rest.arrayBuffer());
    expect(sha256(Buffer.concat([first, second]))).toBe(sha256(video.bytes));
    expect((await get(address, owner.cookie, { Range: `bytes=${video.bytes.length}-` })).status).toBe(416);

    // Counted: the single download and the ZIP for the photo; the ZIP and the resumed download's
    // first part (from byte 0) for the video; the rest of a download is not another one.
    const { rows } = await env.db.query<{ name: string; download_count: number; last_downloaded_at: Date | null }>(
      'select name, download_count, last_downloaded_at from order_files where order_id = $1 order by name',
      [order.id],
    );
    const counts = Object.fromEntries(rows.map((row) => [row.name, row.download_count]));
    expect(counts).toMatchObject({ 'Été 84 - Mamie.jpg': 2, 'Cassette 1.mp4': 2, 'IMG_0002.jpg': 1 });
    expect(rows.every((row) => row.last_downloaded_at !== null)).toBe(true);
  });

  it('flags a file « à refaire », with French validation, and the order’s history shows it', async () => {
    const page = await ownerPage();
    await page.goto(`${env.server.url}/commande/${order.id}/fichiers`);
    await page.locator('[data-hydrated="true"]').waitFor();
    await page.getByRole('link', { name: /IMG_0003\.jpg/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'IMG_0003.jpg' }).waitFor();
    await dialog.getByRole('button', { name: 'À refaire' }).click();
    const comment = dialog.getByLabel('Qu’est-ce qui doit être refait ?');
    await comment.fill('X');
    // The arrows move the text cursor while typing, not the viewer.
    await comment.press('ArrowLeft');
    await expect(dialog.getByRole('heading', { name: 'IMG_0003.jpg' }).isVisible()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Demander à refaire' }).click();
    await dialog.getByRole('alert').waitFor();
    expect(plain(await dialog.getByRole('alert').innerText())).toContain('3 caractères au moins');
    await comment.fill('La photo est floue, merci de la refaire.');
    await dialog.getByRole('button', { name: 'Demander à refaire' }).click();
    await dialog.getByRole('status').waitFor();
    expect(plain(await dialog.getByRole('status').innerText())).toContain('Vous avez demandé à refaire ce fichier');
    await page.keyboard.press('Escape');

    const { rows } = await env.db.query(
      `select actor, data from order_events where order_id = $1 and kind = 'file_rework_requested'`,
      [order.id],
    );
    expect(rows).toEqual([
      {
        actor: owner.id,
        data: expect.objectContaining({
          fileName: 'IMG_0003.jpg',
          comment: 'La photo est floue, merci de la refaire.',
        }),
      },
    ]);
    await page.goto(`${env.server.url}/confirmation?orderId=${order.id}`);
    expect(plain(await page.locator('main').innerText())).toContain('Vous avez demandé à refaire IMG_0003.jpg');
  });

  it('gives no file to a stranger, another customer or a wrong token: 404, or signing in for the signed out', async () => {
    const photo = stored[0] as Stored;
    const addresses = fileAddresses(order.id, photo.id);
    for (const address of addresses) {
      const response = await get(address, otherCustomer.cookie);
      expect({ address, status: response.status }).toEqual({ address, status: 404 });
    }
    // Signed out (with no token or a wrong one), an account's order sends to sign in and back
    // (decision 023): nothing of the file is served, and its owner is not lost.
    const wrongGuest = `sv_order_${order.id}=${randomBytes(32).toString('base64url')}`;
    for (const cookie of [undefined, wrongGuest]) {
      for (const address of addresses) {
        const response = await get(address, cookie);
        expect({ address, cookie, status: response.status, location: response.headers.get('location') }).toEqual({
          address,
          cookie,
          status: 302,
          location: `/login?${new URLSearchParams({ redirectTo: address })}`,
        });
      }
    }
    // Another order's file id under this order's address, and a file id that is not one.
    const other = await insertTestOrder(env.server.databaseUrl, { userId: otherCustomer.id });
    expect((await get(`/commande/${other.id}/fichiers/${photo.id}`, otherCustomer.cookie)).status).toBe(404);
    expect((await get(`/commande/${order.id}/fichiers/pas-un-id`, owner.cookie)).status).toBe(404);
    // A stranger's rework is refused the same way.
    const post = await fetch(`${env.server.url}/commande/${order.id}/fichiers`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: env.server.url },
      body: new URLSearchParams({ intent: 'rework', fileId: photo.id, comment: 'Je ne suis pas le client' }),
      redirect: 'manual',
    });
    expect(post.status).toBe(404);

    // The owner and the staff get every address (thumbnails and previews exist for this photo).
    for (const cookie of [owner.cookie, admin.cookie]) {
      for (const address of addresses) expect((await get(address, cookie)).status).toBe(200);
    }
  });

  it('opens for a guest holding the « Vos fichiers sont prêts » e-mail’s token', async () => {
    const link = await get(`/commande/${order.id}/fichiers?token=${encodeURIComponent(deliveryToken)}`);
    expect(link.status).toBe(302);
    expect(link.headers.get('location')).toBe(`/commande/${order.id}/fichiers`);
    const setCookie = link.headers.get('set-cookie') ?? '';
    const cookie = setCookie.split(';')[0] as string;
    expect(cookie).toMatch(new RegExp(`^sv_order_${order.id}=`));
    for (const address of fileAddresses(order.id, (stored[0] as Stored).id)) {
      expect((await get(address, cookie)).status).toBe(200);
    }

    const page = await openPage(browser, undefined, DESKTOP);
    await page.goto(`${env.server.url}/commande/${order.id}/fichiers?token=${encodeURIComponent(deliveryToken)}`);
    await page.getByRole('heading', { level: 1, name: 'Vos fichiers' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('link', { name: /IMG_0002\.jpg/ }).waitFor();
  });

  it('after the retention: the gallery says when the files were deleted, and no address serves them', async () => {
    await env.db.query(`update orders set files_deleted_at = '2027-01-23T10:00:00Z' where id = $1`, [order.id]);
    const page = await ownerPage();
    await page.goto(`${env.server.url}/commande/${order.id}/fichiers`);
    expect(plain(await page.locator('main').innerText())).toContain(
      'Vos fichiers ont été supprimés le 23/01/2027, à la fin de leur période de conservation.',
    );
    expect(await page.locator(`a[href^="/commande/${order.id}/fichiers/"]`).count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
    for (const address of fileAddresses(order.id, (stored[0] as Stored).id).slice(1)) {
      expect((await get(address, owner.cookie)).status).toBe(404);
    }
    await page.goto(`${env.server.url}/confirmation?orderId=${order.id}`);
    expect(plain(await page.locator('main').innerText())).toContain('Vos fichiers ont été supprimés le 23/01/2027');
  });
});
