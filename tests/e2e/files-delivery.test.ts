import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOADS_PATH } from '~/domain/files/uploads';
import { formatDateFr } from '~/domain/format';
import { deleteExpiredFiles, sendRetentionReminders } from '~/server/files/retention.server';
import { createLocalStorage, createS3Storage, type FileStorage } from '~/server/files/storage.server';
import { addSessionCookie, createUser, type TestUser, uniqueEmail } from '../support/auth';
import { launchBrowser } from '../support/browser';
import { type FakeS3, startFakeS3 } from '../support/fake-s3';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { type ServerWithSmtp, startServerWithSmtp } from '../support/server-with-smtp';
import { zipDigests } from '../support/unzip';

/*
 * The whole digital delivery (docs/decisions/011) in Chromium against the production server,
 * with the real SMTP peer, once on the DATA_DIR folder and once on the S3 peer (s3rver).
 *
 * The staff upload two photos and a video for a paid guest order from the order's dialog; one
 * PATCH of the video is cut as by a network failure and the upload resumes where it stopped; they
 * publish. The customer gets « Vos fichiers sont prêts », follows its link on another device (the
 * e-mail's token), opens the gallery, downloads one file and « Tout télécharger » (the ZIP read by
 * an independent reader, every entry compared by SHA-256 with what was uploaded) and flags a file
 * « à refaire », which the staff then see on the order. A stranger, another customer and a guest
 * without the token get 404 on every file address. With the clock moved past the retention date,
 * the reminder e-mail goes, then the job deletes the files from the storage and the gallery says so.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const CHUNK = 16 * 1024 * 1024;
const DAY = 86_400_000;

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Backend {
  name: string;
  start(): Promise<{ env: Record<string, string>; storage: (dataDir: string) => FileStorage; stop(): Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    name: 'the DATA_DIR folder',
    async start() {
      return {
        env: {},
        storage: (dataDir) => createLocalStorage(path.join(dataDir, 'files')),
        stop: async () => undefined,
      };
    },
  },
  {
    name: 'S3-compatible object storage (s3rver)',
    async start() {
      const s3: FakeS3 = await startFakeS3();
      return { env: s3.env, storage: () => createS3Storage(s3.settings), stop: () => s3.close() };
    },
  },
];

describe.each(BACKENDS)('the digital delivery on $name', (backend) => {
  let env: ServerWithSmtp;
  let browser: Browser;
  let storage: FileStorage;
  let stopBackend: () => Promise<void>;
  let admin: TestUser;
  let otherCustomer: TestUser;
  let work: string;
  let order: TestOrder;
  const guestEmail = uniqueEmail('livraison');
  const uploaded: Record<string, Buffer> = {};
  let galleryLink = '';

  /** The outbox worker sends on its own schedule: the SMTP peer signals the arrival. */
  function emailTo(subject: string, timeoutMs = 30_000) {
    return env.smtp.waitForMail(guestEmail, (m) => m.subject.startsWith(subject), timeoutMs);
  }

  async function newContext(): Promise<BrowserContext> {
    return browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', acceptDownloads: true, ...DESKTOP });
  }

  async function staffDialog(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    await addSessionCookie(page, env.server.url, admin.cookie);
    await page.goto(`${env.server.url}/admin?commande=${order.id}`);
    await page.locator('[data-hydrated="true"]').waitFor();
    return page;
  }

  async function fileRows() {
    const { rows } = await env.db.query<{ id: string; name: string; storage_key: string; preview_status: string }>(
      'select id, name, storage_key, preview_status from order_files where order_id = $1 order by name',
      [order.id],
    );
    return rows;
  }

  beforeAll(async () => {
    const started = await backend.start();
    stopBackend = started.stop;
    // A Chromium of its own: its uploads cross Playwright's connection (tests/support/browser.ts).
    [env, browser] = await Promise.all([startServerWithSmtp(started.env), launchBrowser({ own: true })]);
    // The retention job runs in this process too (its e-mails' links use the server's address).
    process.env.BASE_URL = env.server.url;
    storage = started.storage(env.server.dataDir);
    [admin, otherCustomer] = await Promise.all([
      createUser({ url: env.server.url, databaseUrl: env.server.databaseUrl, role: 'admin', firstName: 'Camille' }),
      createUser({ url: env.server.url, firstName: 'Paul', lastName: 'Voisin' }),
    ]);
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-delivery-'));
    order = await insertTestOrder(env.server.databaseUrl, { guestEmail, paymentStatus: 'paid', status: 'processing' });
    // Received and checked by the workshop (steps tested in originals-journey.test.ts).
    await env.db.query(`update orders set stage = 'quality_check', received_at = now() where id = $1`, [order.id]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await env?.dispose();
    await stopBackend?.();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('the staff upload photos and a video, one upload cut and resumed, then publish', async () => {
    uploaded['Été 1984 – plage.jpg'] = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: '#a0522d' },
    })
      .jpeg()
      .toBuffer();
    uploaded['Noël 1986.jpg'] = await sharp({
      create: { width: 800, height: 1200, channels: 3, background: '#2e8b57' },
    })
      .jpeg()
      .toBuffer();
    uploaded['Mariage 1987.mp4'] = randomBytes(CHUNK + 2_000_000);
    for (const [name, bytes] of Object.entries(uploaded)) await fs.writeFile(path.join(work, name), bytes);

    const context = await newContext();
    const page = await staffDialog(context);
    // The video's second PATCH is cut once, as a network failure would; the rest goes through.
    const patches: number[] = [];
    let cut = false;
    await page.route(`**${UPLOADS_PATH}/*`, async (route) => {
      const request = route.request();
      if (request.method() !== 'PATCH') return route.continue();
      const offset = Number(request.headers()['upload-offset']);
      if ((request.postDataBuffer()?.length ?? 0) >= CHUNK || offset >= CHUNK) patches.push(offset);
      if (!cut && offset === CHUNK) {
        cut = true;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    const dialog = page.getByRole('dialog', { name: `Commande ${order.number}` });
    const upload = dialog.getByRole('region', { name: 'Fichiers à livrer' });
    await upload.scrollIntoViewIfNeeded();
    await upload.getByLabel('Support des fichiers').selectOption('photos');
    await upload
      .getByLabel('Choisir des fichiers')
      .setInputFiles([path.join(work, 'Été 1984 – plage.jpg'), path.join(work, 'Noël 1986.jpg')]);
    await upload.getByLabel('Support des fichiers').selectOption('vhs');
    await upload.getByLabel('Choisir des fichiers').setInputFiles(path.join(work, 'Mariage 1987.mp4'));
    const list = upload.getByRole('list', { name: 'Fichiers en cours de dépôt' });
    for (const name of Object.keys(uploaded)) {
      await list.getByRole('listitem').filter({ hasText: name }).getByText('Déposé').waitFor({ timeout: 60_000 });
    }
    expect(plain(await upload.innerText())).toContain('Progression totale : 3 sur 3 fichiers · 100 %');
    // Resumed at the offset where it stopped, never sent from zero again.
    expect(cut).toBe(true);
    expect(patches.filter((offset) => offset === 0)).toHaveLength(1);
    expect(patches.filter((offset) => offset === CHUNK)).toHaveLength(2);
    expect((await fileRows()).map((row) => row.name)).toEqual([
      'Mariage 1987.mp4',
      'Noël 1986.jpg',
      'Été 1984 – plage.jpg',
    ]);

    // The previews are made in the background; the photos' show once ready.
    await expect
      .poll(async () => (await fileRows()).filter((row) => row.preview_status === 'ready').length, { timeout: 60_000 })
      .toBe(2);

    const delivered = dialog.getByRole('region', { name: 'Fichiers livrés' });
    await delivered.getByRole('button', { name: 'Publier la livraison' }).click();
    await delivered.getByRole('button', { name: 'Confirmer la publication' }).click();
    await page
      .getByText('Livraison publiée : 3 fichiers, le client est prévenu par email.')
      .waitFor({ timeout: 20_000 });
    const { rows } = await env.db.query<{ stage: string; status: string }>(
      'select stage, status from orders where id = $1',
      [order.id],
    );
    expect(rows[0]).toEqual({ stage: 'ready', status: 'completed' });
    await context.close();
  }, 180_000);

  it('the customer gets the e-mail, downloads one file and the whole ZIP, and flags a file « à refaire »', async () => {
    const message = await emailTo('Vos fichiers sont prêts');
    galleryLink =
      new RegExp(`href="(${env.server.url}/commande/${order.id}/fichiers\\?token=[^"]+)"`)
        .exec(message.html)?.[1]
        ?.replace(/&amp;/g, '&') ?? '';
    expect(galleryLink).not.toBe('');

    // Another device: only the e-mail's link.
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(galleryLink);
    await page.getByRole('heading', { level: 1, name: 'Vos fichiers' }).waitFor();
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    const main = plain(await page.locator('main').innerText());
    expect(main).toContain('3 fichiers');
    expect(main).toMatch(/Conservés jusqu’au \d{2}\/\d{2}\/\d{4}/);
    // The photos' thumbnails (made in the background before publishing) are shown, decoded.
    const thumbnails = page.locator('main img[src$="/miniature.jpg"]');
    await expect
      .poll(() =>
        thumbnails.evaluateAll((images) => images.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length),
      )
      .toBe(2);

    await page.getByRole('link', { name: /Noël 1986\.jpg/ }).click();
    const viewer = page.getByRole('dialog');
    await viewer.getByRole('heading', { name: 'Noël 1986.jpg' }).waitFor();
    const [single] = await Promise.all([
      page.waitForEvent('download'),
      viewer.getByRole('link', { name: 'Télécharger' }).click(),
    ]);
    expect(single.suggestedFilename()).toBe('Noël 1986.jpg');
    await single.saveAs(path.join(work, 'un-fichier'));
    expect(sha256(await fs.readFile(path.join(work, 'un-fichier')))).toBe(sha256(uploaded['Noël 1986.jpg'] as Buffer));

    // « À refaire », with a comment.
    await viewer.getByRole('button', { name: 'À refaire' }).click();
    await viewer.getByLabel('Qu’est-ce qui doit être refait ?').fill('Le cadrage coupe la tête de grand-mère.');
    await viewer.getByRole('button', { name: 'Demander à refaire' }).click();
    await viewer.getByRole('status').getByText('Vous avez demandé à refaire ce fichier').waitFor();
    await page.keyboard.press('Escape');

    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /^Tout télécharger/ }).click(),
    ]);
    await zip.saveAs(path.join(work, 'tout.zip'));
    expect(await zipDigests(path.join(work, 'tout.zip'))).toEqual({
      'Photos papier/Été 1984 – plage.jpg': sha256(uploaded['Été 1984 – plage.jpg'] as Buffer),
      'Photos papier/Noël 1986.jpg': sha256(uploaded['Noël 1986.jpg'] as Buffer),
      'Cassettes VHS/Mariage 1987.mp4': sha256(uploaded['Mariage 1987.mp4'] as Buffer),
      // Every ZIP carries its manifest (docs/decisions/027).
      'MANIFESTE.csv': expect.any(String),
    });
    await context.close();

    // The staff see the rework on the order, with the customer's words, and in its history.
    const staff = await newContext();
    const dialog = (await staffDialog(staff)).getByRole('dialog', { name: `Commande ${order.number}` });
    const rework = dialog.getByRole('region', { name: '1 fichier à refaire' });
    await rework.waitFor();
    expect(plain(await rework.innerText())).toContain('Noël 1986.jpg');
    expect(plain(await rework.innerText())).toContain('Le cadrage coupe la tête de grand-mère.');
    await dialog
      .getByText(/Fichier à refaire\s:\sNoël 1986\.jpg/)
      .first()
      .waitFor();
    // Redone: the mark goes, the history keeps both lines.
    await rework.getByRole('button', { name: 'Noël 1986.jpg : refait' }).click();
    await dialog
      .getByText(/Fichier refait\s:\sNoël 1986\.jpg/)
      .first()
      .waitFor();
    await rework.waitFor({ state: 'detached' });
    await staff.close();
  }, 180_000);

  it('answers 404 on every file address to a stranger, another customer and a guest without the token', async () => {
    const [file] = await fileRows();
    const addresses = [
      `/commande/${order.id}/fichiers`,
      `/commande/${order.id}/fichiers/${file?.id}`,
      `/commande/${order.id}/fichiers/${file?.id}/miniature.jpg`,
      `/commande/${order.id}/fichiers/${file?.id}/apercu.jpg`,
      `/commande/${order.id}/fichiers.zip`,
    ];
    const visitors = {
      stranger: undefined,
      'another customer': otherCustomer.cookie,
      'a guest with another token': `sv_order_${order.id}=${randomBytes(32).toString('base64url')}`,
    };
    for (const [who, cookie] of Object.entries(visitors)) {
      for (const address of addresses) {
        const response = await fetch(`${env.server.url}${address}`, {
          redirect: 'manual',
          headers: cookie ? { Cookie: cookie } : {},
        });
        expect(response.status, `${who}: GET ${address}`).toBe(404);
      }
    }
  });

  it('past the retention date: the reminder, then the files are gone from the storage and the gallery says so', async () => {
    const { rows } = await env.db.query<{ files_expire_at: Date }>('select files_expire_at from orders where id = $1', [
      order.id,
    ]);
    const expiresAt = rows[0]?.files_expire_at as Date;
    expect(Math.round((expiresAt.getTime() - Date.now()) / DAY)).toBe(60);
    const keys = (await fileRows()).map((row) => row.storage_key);
    for (const key of keys) expect(await storage.stat(key)).not.toBeNull();

    // The clock moved to 6 days before the date: the reminder e-mail goes, once.
    expect(await sendRetentionReminders(new Date(expiresAt.getTime() - 6 * DAY))).toBe(1);
    const reminder = await emailTo('Vos fichiers seront supprimés');
    expect(plain(reminder.text)).toContain(formatDateFr(expiresAt));

    // Then past the date: the job deletes the files and their previews from the storage.
    expect(await deleteExpiredFiles(new Date(expiresAt.getTime() + 60_000), storage)).toMatchObject({
      orders: 1,
      files: 3,
      failed: 0,
    });
    for (const key of keys) {
      expect(await storage.stat(key)).toBeNull();
      expect(await storage.stat(`${key}.thumbnail.jpg`)).toBeNull();
    }

    const context = await newContext();
    const page = await context.newPage();
    await page.goto(galleryLink);
    await page.getByRole('heading', { level: 1, name: 'Vos fichiers' }).waitFor();
    expect(plain(await page.locator('main').innerText())).toContain(
      `Vos fichiers ont été supprimés le ${formatDateFr(new Date(expiresAt.getTime() + 60_000))}, à la fin de leur période de conservation.`,
    );
    expect(await page.locator(`a[href^="/commande/${order.id}/fichiers/"]`).count()).toBe(0);
    await context.close();
  }, 120_000);
});
