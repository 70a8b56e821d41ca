import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { UPLOADS_PATH } from '~/domain/files/uploads';
import { addSessionCookie, createUser, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, waitForHydrationOnLoad } from '../support/browser';
import { insertTestOrder } from '../support/orders';
import { type SharedServer, sharedServer } from '../support/shared-shop';
import { tusMetadata } from '../support/tus';

/*
 * « Fichiers à livrer » in Chromium against the production server (docs/decisions/012): the staff
 * open a paid order, upload two photos and a video of three chunks; one PATCH of the video is cut
 * (the request aborted as by a network failure) and the upload resumes from the server's offset,
 * never from zero; every progress bar reaches 100 % and the rows hold the files' SHA-256.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const CHUNK = 16 * 1024 * 1024;

let server: SharedServer;
let browser: Browser;
let admin: TestUser;
let work: string;

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  // A Chromium of its own: its uploads cross Playwright's connection (tests/support/browser.ts).
  [server, browser] = await Promise.all([sharedServer(), launchBrowser({ own: true })]);
  admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-e2e-upload-'));
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

/**
 * A page whose console errors fail the test, as tests/support/browser.ts's openPage, except the
 * one line Chromium logs for the upload request this test cuts on purpose.
 */
async function staffPage(): Promise<Page> {
  const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', ...DESKTOP });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const cut = message.text().startsWith('Failed to load resource') && message.location().url.includes(UPLOADS_PATH);
    if (!cut) errors.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  onTestFinished(async () => {
    await context.close();
    expect(errors, 'errors in the browser console').toEqual([]);
  });
  waitForHydrationOnLoad(page);
  await addSessionCookie(page, server.url, admin.cookie);
  return page;
}

async function rows(orderId: string) {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; support: string; sha256: string; size_bytes: string }>(
      'select name, support, sha256, size_bytes::text from order_files where order_id = $1 order by name',
      [orderId],
    );
    return rows;
  } finally {
    await client.end();
  }
}

describe('files to deliver', () => {
  it('uploads two photos and a video cut mid-way and resumed; every bar reaches 100 %', {
    timeout: 120_000,
  }, async () => {
    const order = await insertTestOrder(server.databaseUrl, { paymentStatus: 'paid', status: 'processing' });
    const photo1 = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#a0522d' } })
      .jpeg()
      .toBuffer();
    const photo2 = await sharp({ create: { width: 480, height: 640, channels: 3, background: '#2e8b57' } })
      .jpeg()
      .toBuffer();
    const video = randomBytes(2 * CHUNK + 3_000_000);
    await fs.writeFile(path.join(work, 'Été 1984 – plage.jpg'), photo1);
    await fs.writeFile(path.join(work, 'Noël 1986.jpg'), photo2);
    await fs.writeFile(path.join(work, 'Cassette 1.mp4'), video);

    const page = await staffPage();
    // The video's PATCHes: the one at the second chunk is cut once, as a network failure would.
    const videoPatches: number[] = [];
    let cut = false;
    await page.route(`**${UPLOADS_PATH}/*`, async (route) => {
      const request = route.request();
      if (request.method() !== 'PATCH' || !request.postDataBuffer()) return route.continue();
      const offset = Number(request.headers()['upload-offset']);
      const size = request.postDataBuffer()?.length ?? 0;
      if (size >= CHUNK || offset >= CHUNK) videoPatches.push(offset);
      if (!cut && offset === CHUNK) {
        cut = true;
        return route.abort('connectionreset');
      }
      return route.continue();
    });

    await page.goto(`${server.url}/admin?commande=${order.id}`);
    await page.locator('[data-hydrated="true"]').waitFor();
    const dialog = page.getByRole('dialog', { name: `Commande ${order.number}` });
    const panel = dialog.getByRole('region', { name: 'Fichiers à livrer' });
    await panel.scrollIntoViewIfNeeded();

    await panel.getByLabel('Support des fichiers').selectOption({ label: 'Photos papier' });
    await panel
      .getByLabel('Choisir des fichiers')
      .setInputFiles([path.join(work, 'Été 1984 – plage.jpg'), path.join(work, 'Noël 1986.jpg')]);
    await panel.getByLabel('Support des fichiers').selectOption('vhs');
    await panel.getByLabel('Choisir des fichiers').setInputFiles(path.join(work, 'Cassette 1.mp4'));

    const list = panel.getByRole('list', { name: 'Fichiers en cours de dépôt' });
    for (const name of ['Été 1984 – plage.jpg', 'Noël 1986.jpg', 'Cassette 1.mp4']) {
      const row = list.getByRole('listitem').filter({ hasText: name });
      await row.getByText('Déposé').waitFor({ timeout: 45_000 });
      expect(await row.getByRole('progressbar').getAttribute('value')).toBe('100');
      expect(plain(await row.innerText())).toContain('100 %');
    }
    expect(await panel.getByRole('progressbar', { name: /Progression totale/ }).getAttribute('value')).toBe('100');
    expect(plain(await panel.innerText())).toContain('Progression totale : 3 sur 3 fichiers · 100 %');
    expect(plain(await panel.innerText())).toMatch(/(\d+) Mo sur \1 Mo/);

    // Cut once, resumed at the offset where it stopped: the video was never sent from zero again.
    expect(cut).toBe(true);
    expect(videoPatches.filter((offset) => offset === 0)).toHaveLength(1);
    expect(videoPatches.filter((offset) => offset === CHUNK)).toHaveLength(2);

    const stored = await rows(order.id);
    expect(stored).toHaveLength(3);
    expect(stored).toEqual(
      expect.arrayContaining([
        { name: 'Cassette 1.mp4', support: 'vhs', sha256: sha256(video), size_bytes: String(video.length) },
        { name: 'Noël 1986.jpg', support: 'photos', sha256: sha256(photo2), size_bytes: String(photo2.length) },
        { name: 'Été 1984 – plage.jpg', support: 'photos', sha256: sha256(photo1), size_bytes: String(photo1.length) },
      ]),
    );
    await expectNoSeriousA11yViolations(page);

    // The same photo again: recognised, not stored twice.
    await panel.getByLabel('Support des fichiers').selectOption('photos');
    await panel.getByLabel('Choisir des fichiers').setInputFiles(path.join(work, 'Noël 1986.jpg'));
    await list.getByRole('listitem').filter({ hasText: 'Noël 1986.jpg' }).getByText('Déjà présent').waitFor();
    expect(await rows(order.id)).toHaveLength(3);
  });

  it('waits while the browser is offline and resumes by itself when it is back', { timeout: 120_000 }, async () => {
    const order = await insertTestOrder(server.databaseUrl, { paymentStatus: 'paid', status: 'processing' });
    const video = randomBytes(CHUNK + 2_000_000);
    await fs.writeFile(path.join(work, 'Super 8 – mariage.mp4'), video);
    const page = await staffPage();
    const offsets: number[] = [];
    let offline = false;
    await page.route(`**${UPLOADS_PATH}/*`, async (route) => {
      const request = route.request();
      if (request.method() !== 'PATCH') return route.continue();
      const offset = Number(request.headers()['upload-offset']);
      offsets.push(offset);
      if (!offline && offset === CHUNK) {
        // The network goes away as the second chunk leaves.
        offline = true;
        await page.context().setOffline(true);
        return route.abort('internetdisconnected');
      }
      return route.continue();
    });
    await page.goto(`${server.url}/admin?commande=${order.id}`);
    await page.locator('[data-hydrated="true"]').waitFor();
    const panel = page
      .getByRole('dialog', { name: `Commande ${order.number}` })
      .getByRole('region', { name: 'Fichiers à livrer' });
    await panel.getByLabel('Support des fichiers').selectOption('vhs');
    await panel.getByLabel('Choisir des fichiers').setInputFiles(path.join(work, 'Super 8 – mariage.mp4'));
    const row = panel.getByRole('listitem').filter({ hasText: 'Super 8 – mariage.mp4' });
    await row.getByText(/Connexion perdue\s*: reprise automatique/).waitFor({ timeout: 30_000 });
    expect(await rows(order.id)).toEqual([]);

    await page.context().setOffline(false);
    await row.getByText('Déposé').waitFor({ timeout: 45_000 });
    // Resumed at the second chunk, never from zero.
    expect(offsets.filter((offset) => offset === 0)).toHaveLength(1);
    expect(offsets.filter((offset) => offset === CHUNK).length).toBeGreaterThanOrEqual(2);
    expect(await rows(order.id)).toEqual([
      { name: 'Super 8 – mariage.mp4', support: 'vhs', sha256: sha256(video), size_bytes: String(video.length) },
    ]);
  });
});

describe('the upload address', () => {
  it('answers 401 to strangers and 403 to customers, in French, on the production server', async () => {
    const customer = await createUser({ url: server.url });
    const order = await insertTestOrder(server.databaseUrl);
    const metadata = tusMetadata({ orderId: order.id, support: 'photos', filename: 'a.jpg' });
    const post = (cookie?: string) =>
      fetch(`${server.url}${UPLOADS_PATH}`, {
        method: 'POST',
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Length': '10',
          'Upload-Metadata': metadata,
          origin: server.url,
          ...(cookie ? { cookie } : {}),
        },
      });
    const anonymous = await post();
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain('Non authentifié');
    const asCustomer = await post(customer.cookie);
    expect(asCustomer.status).toBe(403);
    expect(await asCustomer.text()).toContain('Accès non autorisé');
    expect(await rows(order.id)).toEqual([]);
  });
});
