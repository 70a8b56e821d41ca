import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitVat } from '~/domain/invoices/vat';
import { createUser, signIn, type TestUser } from '../support/auth';
import { fillBillingAddress } from '../support/billing';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';

/*
 * NOEL20 (decision 038), in Chromium on the worker's shared server: 20 % off paper photos from
 * 1 December, once per customer, not combinable. Claire orders 100 photos and a DVD, types the code
 * at checkout, reads the reduction with its reference price, pays by card; the confirmation and the
 * invoice show the discount to the cent, the invoice's VAT that of the price paid. Her second order
 * is refused the code (with another code first: not combinable), in French, and stays as it was.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const plain = (text: string | null) => (text ?? '').replace(/[\u00A0\u202F]/g, ' ');

let env: SharedServerWithSmtp;
let browser: Browser;
let claire: TestUser;

beforeAll(async () => {
  [env, browser] = await Promise.all([sharedServerWithSmtp({ PAYMENT_SANDBOX: 'on' }), launchBrowser()]);
  claire = await createUser({ url: env.server.url, firstName: 'Claire', lastName: 'Noël' });
  // The shop's NOEL20, as « Codes promo » creates it (its form is tested in admin-promotions), and
  // another code that may be combined: written once per database (the worker's files share it).
  await env.db.query(
    `insert into promotion_codes (code, label, kind, percent, amount, supports, starts_at, max_uses_per_customer, combinable)
     values ('NOEL20', 'Noël en photos', 'percent', 20, null, '{photos}', '2026-12-01T00:00:00+01:00', 1, false),
            ('MERCI5', 'Merci', 'amount', null, 500, '{}', '2026-01-01T00:00:00+01:00', null, true)
     on conflict (code) do nothing`,
  );
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

async function pageOf(user: TestUser): Promise<Page> {
  const page = await openPage(browser, undefined, DESKTOP);
  await signIn({ url: env.server.url, email: user.email, page });
  return page;
}

/** 100 paper photos (35,00 €) from the configurator, at its checkout. */
async function orderPhotos(page: Page): Promise<string> {
  await page.goto(`${env.server.url}/configurateur`);
  const row = page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: /^Photos papier\s/ }) });
  await row.getByRole('checkbox').check();
  await row.getByLabel('Quantité').fill('100');
  await page.getByRole('button', { name: 'Commander' }).click();
  await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
  await page.getByRole('heading', { name: 'Finaliser ma commande' }).waitFor();
  return new URL(page.url()).searchParams.get('orderId') as string;
}

/** Types the codes and presses « Appliquer » (the code's one); the form answers in place. */
async function applyCodes(page: Page, typed: string): Promise<void> {
  await page.getByLabel('Code promo (facultatif)').fill(typed);
  await Promise.all([
    page.waitForResponse((response) => response.request().method() === 'POST' && response.url().includes('checkout')),
    page.getByRole('group', { name: 'Code promo' }).getByRole('button', { name: 'Appliquer' }).click(),
  ]);
}

/** What the code's field says now: the reduction, or why not. */
async function codeAnswer(page: Page): Promise<string> {
  const answer = page.locator('#promotion-code-preview, #promotion-code-error');
  return (await answer.count()) > 0 ? plain(await answer.first().textContent()) : '';
}

async function totalOf(orderId: string) {
  const { rows } = await env.db.query<{ total: number; discount: number; placed: boolean }>(
    'select total_price as total, discount, placed_at is not null as placed from orders where id = $1',
    [orderId],
  );
  return rows[0];
}

describe('NOEL20, 20 % on paper photos from 1 December', () => {
  it('takes 7,00 € off 100 photos with its reference price, shows it on the invoice; a second order is refused it', async () => {
    const page = await pageOf(claire);
    const first = await orderPhotos(page);
    const before = (await totalOf(first))?.total ?? 0;

    await applyCodes(page, 'noel20');
    await expect.poll(() => codeAnswer(page)).toContain('Code NOEL20');
    const preview = await codeAnswer(page);
    expect(preview).toContain('Code NOEL20 (20 % sur Photos papier) : −7,00 €');
    expect(preview).toContain(
      'Photos papier : 0,28 € l’unité avec NOEL20, prix de référence 0,35 € (le plus bas des 30 jours précédant la remise).',
    );
    const net = before - 700;
    const euros = (cents: number) => `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')} €`;
    expect(preview).toContain(`Nouveau total : ${euros(net)}`);
    await expectNoSeriousA11yViolations(page);

    // « Payer » takes the code: the sandbox is asked the net total.
    await fillBillingAddress(page);
    await page.getByRole('button', { name: `Payer ${euros(net).replace(' €', '\u00A0€')}` }).click();
    await page.waitForURL(/\/paiement\/sandbox\//);
    expect(plain(await page.locator('main').textContent())).toContain(euros(net));
    await page.getByLabel('Titulaire de la carte').fill('Claire Noël');
    await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
    await page.getByLabel('Date d’expiration').fill('12/30');
    await page.getByLabel('CVV').fill('123');
    await page.getByRole('button', { name: /^Payer/ }).click();
    await page.waitForURL(/\/confirmation\?orderId=/);
    await expect
      .poll(async () => plain(await page.locator('main').textContent()), { timeout: 15_000 })
      .toContain('Votre paiement a bien été reçu');
    expect(plain(await page.locator('main').textContent())).toMatch(/Remise code promo\s*-7,00 €/);
    expect(await totalOf(first)).toEqual({ total: net, discount: 700, placed: true });

    // The invoice: a line « Remise NOEL20 » of −7,00 € (−5,83 € excluding VAT), the VAT of the price paid.
    const { rows } = await env.db.query<{
      amount: number;
      vat: number;
      lines: Array<{ label: string; totalCents: number; totalExcludingVatCents: number }>;
    }>(`select amount, vat, snapshot->'lines' as lines from invoices where order_id = $1 and adjustment_id is null`, [
      first,
    ]);
    const invoice = rows[0];
    expect(invoice?.amount).toBe(net);
    expect(invoice?.vat).toBe(splitVat(net).vatCents);
    expect(invoice?.lines.find((line) => line.label === 'Remise NOEL20')).toMatchObject({
      totalCents: -700,
      totalExcludingVatCents: -583,
    });
    await page.goto(`${env.server.url}/facture/${first}`);
    const shown = plain(await page.locator('main').textContent());
    expect(shown).toContain('Remise NOEL20');
    expect(shown).toContain('Noël en photos (20 % sur Photos papier)');
    expect(shown).toMatch(/Remise NOEL20.*-7,00 €/);

    // A second order: NOEL20 with another code is refused (not combinable), then alone (once per customer).
    const second = await orderPhotos(page);
    await applyCodes(page, 'NOEL20, MERCI5');
    await expect.poll(() => codeAnswer(page)).toBe('Le code promo NOEL20 ne se cumule pas avec un autre code.');
    await applyCodes(page, 'NOEL20');
    await expect.poll(() => codeAnswer(page)).toBe('Vous avez déjà utilisé le code promo NOEL20.');
    // Nothing was taken: the order is still a draft at its full price (« Payer » refusing the code
    // is covered in promotions.server.test.ts).
    expect(await totalOf(second)).toEqual({ total: before, discount: 0, placed: false });
    // MERCI5 alone still applies: 5,00 € off.
    await applyCodes(page, 'merci5');
    await expect.poll(() => codeAnswer(page)).toContain('Code MERCI5 (5,00 € sur toute la numérisation) : −5,00 €');
  }, 120_000);
});
