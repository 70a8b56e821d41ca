import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';

/*
 * A newsletter's link, `/configurateur?code=ete15`, in Chromium on the worker's shared server: the
 * live estimate of 100 paper photos shows the code's reduction with its reference price (code de la
 * consommation, L112-1-1) and the total after it; « Commander » lands on the checkout with the
 * code's field filled (the customer still applies it). An unknown code is said in French and the
 * page works as without one.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const plain = (text: string | null) => (text ?? '').replace(/[\u00A0\u202F]/g, ' ');

let env: SharedServerWithSmtp;
let browser: Browser;

beforeAll(async () => {
  [env, browser] = await Promise.all([sharedServerWithSmtp({ PAYMENT_SANDBOX: 'on' }), launchBrowser()]);
  // This file's own code (the worker's files share the database): 15 % on paper photos since June.
  await env.db.query(
    `insert into promotion_codes (code, label, kind, percent, amount, supports, starts_at, max_uses_per_customer, combinable)
     values ('ETE15', 'Été en photos', 'percent', 15, null, '{photos}', '2026-06-01T00:00:00+02:00', 1, false)
     on conflict (code) do nothing`,
  );
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

async function choosePhotos(page: Page, quantity: number): Promise<void> {
  const row = page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: /^Photos papier\s/ }) });
  await row.getByRole('checkbox').check();
  await row.getByLabel('Quantité').fill(String(quantity));
}

const promotionText = async (page: Page) => {
  const block = page.locator('#promotion-estimate');
  return (await block.count()) > 0 ? plain(await block.textContent()) : '';
};

describe('a promotion code announced by the configurator’s link', () => {
  it('shows ETE15’s reduction with its reference price, and carries the code to the checkout', async () => {
    const page = await openPage(browser, `${env.server.url}/configurateur?code=ete15`, DESKTOP);
    await choosePhotos(page, 100);
    // 100 photos at 0,35 €: 15 % is 5,25 €; one photo 0,30 € with the code (0,2975 € rounded).
    await expect.poll(() => promotionText(page)).toContain('Code ETE15 (15 % sur Photos papier)−5,25 €');
    const shown = await promotionText(page);
    expect(shown).toContain(
      'Photos papier : 0,30 € l’unité avec ETE15, prix de référence 0,35 € (le plus bas des 30 jours précédant la remise).',
    );
    const total = Number(await page.locator('#estimate-total [data-total-cents]').getAttribute('data-total-cents'));
    const after = Number(await page.locator('[data-promotion-total-cents]').getAttribute('data-promotion-total-cents'));
    expect(after).toBe(total - 525);
    expect(shown).toContain('La remise est confirmée à la commande.');
    // The link the page keeps in the address bar still carries the code.
    await expect.poll(() => new URL(page.url()).searchParams.get('code')).toBe('ETE15');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Commander' }).click();
    await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}&code=ETE15$/);
    await page.getByRole('heading', { name: 'Finaliser ma commande' }).waitFor();
    expect(await page.getByLabel('Code promo (facultatif)').inputValue()).toBe('ETE15');
    await page.context().close();
  });

  it('works without JavaScript: the server’s estimate shows the code, « Commander » carries it', async () => {
    const page = await openPage(browser, undefined, { ...DESKTOP, javaScriptEnabled: false });
    const query = new URLSearchParams({ code: 'ete15', support: 'photos', 'photos.quantity': '100' });
    await page.goto(`${env.server.url}/configurateur?${query}`);
    expect(await promotionText(page)).toContain('Code ETE15 (15 % sur Photos papier)−5,25 €');
    await page.getByRole('button', { name: 'Commander' }).click();
    await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}&code=ETE15$/);
    expect(await page.getByLabel('Code promo (facultatif)').inputValue()).toBe('ETE15');
    await page.context().close();
  });

  it('says a code that does not exist does not, and estimates without it', async () => {
    const page = await openPage(browser, `${env.server.url}/configurateur?code=inconnu42`, DESKTOP);
    expect(plain(await page.getByRole('status').filter({ hasText: 'INCONNU42' }).textContent())).toBe(
      'Le code promo « INCONNU42 » n’existe pas. Vérifiez son orthographe.',
    );
    await choosePhotos(page, 100);
    await expect.poll(async () => plain(await page.locator('#estimate-total').textContent())).toContain('€');
    expect(await page.locator('#promotion-estimate').count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
    await page.context().close();
  });
});
