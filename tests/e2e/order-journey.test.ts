import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyTransition } from '~/server/orders/lifecycle.server';
import { addSessionCookie } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { type ServerWithSmtp, startServerWithSmtp } from '../support/server-with-smtp';

/*
 * The originals' journey as a guest follows it in Chromium on the built app, with a real SMTP peer:
 * the confirmation page tells how to send the originals and shows the steps; as the workshop
 * receives, digitises, finishes and ships the order (the lifecycle's transitions, applied here as
 * the back office would), the steps move on and the e-mails arrive.
 */

let env: ServerWithSmtp;
let browser: Browser;

beforeAll(async () => {
  [env, browser] = await Promise.all([startServerWithSmtp(), launchBrowser()]);
  // The transitions run in this process (as the back office would): its e-mail links use the server's address.
  process.env.BASE_URL = env.server.url;
});

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

async function guestPage(order: TestOrder): Promise<Page> {
  const page = await openPage(browser);
  await addSessionCookie(page, env.server.url, order.cookie as string);
  await page.goto(`${env.server.url}/confirmation?orderId=${order.id}`);
  return page;
}

async function currentStep(page: Page): Promise<string> {
  return plain(await page.locator('[aria-current="step"]').innerText());
}

/** Waits for the SMTP peer to receive a message whose subject contains `subject`. */
async function messageAbout(subject: string) {
  await expect.poll(() => env.smtp.messages.some((m) => m.subject.includes(subject)), { timeout: 20_000 }).toBe(true);
  return env.smtp.messages.find((m) => m.subject.includes(subject)) as (typeof env.smtp.messages)[number];
}

async function apply(orderId: string, transition: Parameters<typeof applyTransition>[1], data = {}) {
  const result = await applyTransition(orderId, transition, 'staff', { data });
  expect(result).toMatchObject({ ok: true });
}

describe('the originals’ journey, as the guest sees it', () => {
  it('shows the sending instructions and the steps, then follows the workshop with e-mails', async () => {
    const order = await insertTestOrder(env.server.databaseUrl, {
      guestEmail: 'voyage@example.fr',
      paymentStatus: 'paid',
      earlyStartConsent: true,
      deliveryAddress: false,
    });
    // A USB key travels back: the carrier needs the frozen delivery address.
    await env.db.query(
      `insert into order_addresses (order_id, kind, first_name, last_name, line1, postal_code, city, country, phone)
       values ($1, 'delivery', 'Marie', 'Curie', '11 rue Pierre et Marie Curie', '75005', 'Paris', 'FR', '0612345678')`,
      [order.id],
    );
    const page = await guestPage(order);

    const sending = page.getByRole('region', { name: 'Envoyez-nous vos originaux' });
    await expect.poll(() => sending.isVisible()).toBe(true);
    expect(plain(await sending.innerText())).toContain('12 rue des Archives');
    const slip = sending.getByRole('link', { name: 'Imprimer le bordereau' });
    expect(await slip.getAttribute('href')).toBe(`/commande/${order.id}/bordereau.pdf`);
    const pdf = await page.request.get(`${env.server.url}/commande/${order.id}/bordereau.pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');

    const steps = page.getByRole('region', { name: 'Le voyage de vos souvenirs' });
    expect(plain(await steps.innerText())).toMatch(
      /Commande[\s\S]*Colis envoyé[\s\S]*Reçu[\s\S]*Numérisation[\s\S]*Prêt[\s\S]*Expédié/,
    );
    expect(await currentStep(page)).toContain('Commande');
    await expectNoSeriousA11yViolations(page);

    // The workshop receives the parcel and counts 20 photos more than ordered.
    await apply(
      order.id,
      { type: 'receive', dueAt: new Date(Date.now() + 10 * 86_400_000).toISOString() },
      {
        counts: [{ label: 'Photos papier', ordered: 100, counted: 120 }],
        remarks: [{ group: 'photos', text: 'Deux tirages collés entre eux' }],
      },
    );
    const received = await messageAbout('Nous avons bien reçu vos souvenirs');
    expect(received.envelopeTo).toEqual(['voyage@example.fr']);
    expect(plain(received.text)).toMatch(/Photos papier\s+100\s+120/);
    expect(plain(received.text)).toContain('Photos papier : Deux tirages collés entre eux');
    await page.reload();
    expect(await currentStep(page)).toContain('Reçu');
    expect(await page.getByRole('region', { name: 'Envoyez-nous vos originaux' }).count()).toBe(0);

    await apply(order.id, { type: 'advance_stage', to: 'digitising' });
    await page.reload();
    expect(await currentStep(page)).toContain('Numérisation');

    await apply(order.id, { type: 'advance_stage', to: 'quality_check' });
    await apply(order.id, { type: 'advance_stage', to: 'ready' });
    await page.reload();
    expect(await currentStep(page)).toContain('Prêt');

    await apply(order.id, { type: 'ship', parcelNumber: '6A00000000017', carrier: 'colissimo' });
    const shipped = await messageAbout('est expédiée');
    // « Prêt » e-mailed nothing (queued before the shipping, it would have arrived first): the
    // « Vos fichiers sont prêts » e-mail comes once, with the files' publication.
    expect(env.smtp.messages.filter((m) => m.subject.includes('Vos fichiers sont prêts'))).toEqual([]);
    expect(shipped.html).toContain('https://www.laposte.fr/outils/suivre-vos-envois?code=6A00000000017');
    await page.reload();
    expect(await currentStep(page)).toContain('Expédié');
    const tracking = page.getByRole('link', { name: /suivre le colis sur le site de La Poste/ });
    expect(await tracking.getAttribute('href')).toBe(
      'https://www.laposte.fr/outils/suivre-vos-envois?code=6A00000000017',
    );
  });
});
