import path from 'node:path';
import { Readable } from 'node:stream';
import type { Browser, BrowserContext } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEurosFromCents } from '~/domain/format';
import { DEFAULT_PRICE_LIST } from '~/domain/pricing/default-price-list';
import { priceLine } from '~/domain/pricing/pricing';
import { storeOrderFile } from '~/server/files/order-files.server';
import { createLocalStorage } from '~/server/files/storage.server';
import { addSessionCookie, createUser, type TestUser, uniqueEmail } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser } from '../support/browser';
import { payByCard } from '../support/card-payment';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';

/*
 * Preview and keep from end to end (docs/decisions/030): an order of 50 slides (the default Tarifs
 * flag slides for the customer's review, 20 % may be dropped) paid by card. The staff press
 * « Publier la livraison »: the files are published for review and the customer is e-mailed. On
 * another device, from the e-mail's link, the customer unticks 10 slides, reads the amount,
 * validates; the refund is exactly what the price list says 10 slides cost, with its credit note
 * and its e-mail, and the gallery then holds the 40 slides kept. Axe on the review page.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const SLIDES = 50;
const DROPPED = 10;
const LINE = {
  type: 'slides',
  quantity: SLIDES,
  quality: 'standard',
  resolution: '2400dpi',
  format: 'jpeg',
  restoration: 0,
  denoise: false,
  reelSize: null,
} as const;
const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');
const name = (i: number) => `Diapo ${String(i).padStart(3, '0')}.jpg`;

describe('preview and keep: a slides order reviewed, 10 dropped, refunded exactly', () => {
  let env: SharedServerWithSmtp;
  let browser: Browser;
  let admin: TestUser;
  let order: TestOrder;
  const guestEmail = uniqueEmail('selection');
  const lineCents = priceLine(DEFAULT_PRICE_LIST, LINE).lineTotalCents;
  // What the price list says: 50 slides, then 40.
  const refundCents = lineCents - priceLine(DEFAULT_PRICE_LIST, { ...LINE, quantity: SLIDES - DROPPED }).lineTotalCents;

  /** The outbox worker sends on its own schedule: the SMTP peer signals the arrival. */
  function emailTo(subject: string, timeoutMs = 30_000) {
    return env.smtp.waitForMail(guestEmail, (m) => m.subject.startsWith(subject), timeoutMs);
  }

  const newContext = (): Promise<BrowserContext> =>
    browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', ...DESKTOP });

  beforeAll(async () => {
    [env, browser] = await Promise.all([sharedServerWithSmtp({ PAYMENT_SANDBOX: 'on' }), launchBrowser()]);
    // The card payment is settled in this process (its e-mails' links use the server's address).
    process.env.BASE_URL = env.server.url;
    admin = await createUser({ url: env.server.url, databaseUrl: env.server.databaseUrl, role: 'admin' });
    order = await insertTestOrder(env.server.databaseUrl, { guestEmail });
    // 50 slides delivered online, priced by the default list; then paid by card through the gateway's path.
    await env.db.query('delete from order_items where order_id = $1', [order.id]);
    await env.db.query(
      `insert into order_items (order_id, position, type, quantity, quality, resolution, format, restoration, denoise,
         reel_size, unit_price, line_total)
       values ($1, 0, 'slides', $2, 'standard', '2400dpi', 'jpeg', 0, false, null, $3, $4)`,
      [order.id, SLIDES, DEFAULT_PRICE_LIST.supports.slides.basePrice, lineCents],
    );
    await env.db.query(
      `update orders set base_price = $2, denoise_price = 0, delivery_method = 'digital', delivery_cost = 0,
         total_price = $2, placed_at = now() where id = $1`,
      [order.id, lineCents],
    );
    await payByCard(order.id, lineCents);
    // Received and checked by the workshop (steps tested in originals-journey.test.ts); the scans stored.
    await env.db.query(
      `update orders set stage = 'quality_check', status = 'processing', received_at = now() where id = $1`,
      [order.id],
    );
    const storage = createLocalStorage(path.join(env.server.dataDir, 'files'));
    for (let i = 1; i <= SLIDES; i++) {
      const bytes = await sharp({
        create: { width: 300, height: 200, channels: 3, background: { r: (i * 5) % 255, g: 120, b: 90 } },
      })
        .jpeg()
        .toBuffer();
      await storeOrderFile(
        { orderId: order.id, name: name(i), support: 'slides', body: Readable.from([bytes]), uploadedBy: admin.id },
        { storage },
      );
    }
    // The previews job of the server makes the thumbnails in the background.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { rows } = await env.db.query<{ n: number }>(
        `select count(*)::int as n from order_files where order_id = $1 and preview_status = 'ready'`,
        [order.id],
      );
      if (rows[0]?.n === SLIDES) break;
      if (Date.now() > deadline) throw new Error(`thumbnails: ${rows[0]?.n} of ${SLIDES} ready`);
      // The previews job runs on its own schedule in the server: poll the database.
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await env?.dispose();
  });

  it('the staff publish the slides for the customer’s review', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await addSessionCookie(page, env.server.url, admin.cookie);
    await page.goto(`${env.server.url}/admin?commande=${order.id}`);
    await page.locator('[data-hydrated="true"]').waitFor();
    const dialog = page.getByRole('dialog', { name: `Commande ${order.number}` });
    const delivered = dialog.getByRole('region', { name: 'Fichiers livrés' });
    await delivered.getByRole('button', { name: 'Publier la livraison' }).click();
    await delivered.getByRole('button', { name: 'Confirmer la publication' }).click();
    await page
      .getByText(/Fichiers publiés pour la sélection du client jusqu’au \d{2}\/\d{2}\/\d{4}/)
      .waitFor({ timeout: 20_000 });
    const { rows } = await env.db.query<{ files_published_at: Date | null }>(
      'select files_published_at from orders where id = $1',
      [order.id],
    );
    // Not delivered yet: the delivery follows the customer's selection.
    expect(rows[0]?.files_published_at).toBeNull();
    await context.close();
  }, 120_000);

  it('the customer drops 10 slides from the e-mail’s link, is refunded exactly with a credit note, and keeps 40', async () => {
    const message = await emailTo('Choisissez les fichiers à garder');
    const link =
      new RegExp(`href="(${env.server.url}/commande/${order.id}/selection\\?token=[^"]+)"`)
        .exec(message.html)?.[1]
        ?.replace(/&amp;/g, '&') ?? '';
    expect(link).not.toBe('');

    const context = await newContext();
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Votre sélection' }).waitFor();
    await page.locator('[data-hydrated="true"]').waitFor();
    expect(plain(await page.locator('main').innerText())).toContain(
      'Vous pouvez retirer au plus 20 % des fichiers, soit 10 sur 50.',
    );
    await expectNoSeriousA11yViolations(page);

    for (let i = 1; i <= DROPPED; i++) await page.getByRole('checkbox', { name: `Garder ${name(i)}` }).uncheck();
    const summary = page.getByTestId('selection-summary');
    await expect
      .poll(async () => plain(await summary.innerText()))
      .toBe(plain(`Vous retirez ${DROPPED} diapositives : −${formatEurosFromCents(refundCents)}`));

    // One more is above the limit: refused in French, nothing changed, the ticks kept.
    await page.getByRole('checkbox', { name: `Garder ${name(11)}` }).uncheck();
    await page.getByRole('button', { name: 'Valider ma sélection' }).click();
    await page
      .getByRole('alert')
      .getByText(/au plus 10 \(20/)
      .waitFor();
    expect(await page.getByRole('checkbox', { name: `Garder ${name(12)}` }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: `Garder ${name(11)}` }).isChecked()).toBe(false);
    const { rows: untouched } = await env.db.query<{ n: number }>(
      'select count(*)::int as n from credit_notes where order_id = $1',
      [order.id],
    );
    expect(untouched[0]?.n).toBe(0);

    await page.getByRole('checkbox', { name: `Garder ${name(11)}` }).check();
    await page.getByRole('button', { name: 'Valider ma sélection' }).click();
    await page
      .getByText(
        new RegExp(
          `Sélection validée.: 10.fichiers retirés, ${formatEurosFromCents(refundCents).replace(/\s/g, '.')} remboursés avec un avoir`,
        ),
      )
      .waitFor({ timeout: 30_000 });

    const refund = await emailTo('Remboursement');
    expect(plain(refund.text)).toContain(plain(formatEurosFromCents(refundCents)));
    const { rows } = await env.db.query<{ credited: number; refunded: number; payment_status: string }>(
      `select (select coalesce(sum(amount), 0)::int from credit_notes where order_id = o.id) as credited,
         (select coalesce(sum(amount), 0)::int from refunds where order_id = o.id and status = 'succeeded') as refunded,
         payment_status from orders o where id = $1`,
      [order.id],
    );
    expect(rows[0]).toEqual({ credited: refundCents, refunded: refundCents, payment_status: 'partially_refunded' });

    await page.getByRole('link', { name: 'Voir et télécharger mes fichiers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Vos fichiers' }).waitFor();
    const gallery = plain(await page.locator('main').innerText());
    expect(gallery).toContain(name(11));
    for (let i = 1; i <= DROPPED; i++) expect(gallery).not.toContain(name(i));
    const { rows: live } = await env.db.query<{ n: number }>(
      'select count(*)::int as n from order_files where order_id = $1 and deleted_at is null',
      [order.id],
    );
    expect(live[0]?.n).toBe(SLIDES - DROPPED);
    await context.close();
  }, 180_000);
});
