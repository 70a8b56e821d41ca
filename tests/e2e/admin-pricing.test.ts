import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_FORM_MESSAGES } from '~/domain/admin/price-form';
import { GIFT_CARD_PURCHASE_MESSAGES } from '~/domain/vouchers/gift-cards';
import { addSessionCookie, createUser, signIn } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage, waitForToast } from '../support/browser';
import { startServer, type TestServer } from '../support/server';

/*
 * The Tarifs tab in Chromium, as an administrator, against the real production server: a price
 * typed the French way (« 0,39 ») is published as 0,39 € — it once became 39,00 € at once — and
 * only after a summary and a confirmation; a change beyond ×3 asks a second time; wrong entries
 * are refused in French; « Réinitialiser » asks first. The server refuses what the dialog skipped.
 * The gift cards' bounds and validity are published the same way and « Offrir une carte cadeau »
 * applies them at once. Without JavaScript every section is shown and the server's answer carries
 * the summary and its confirmation.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };

let server: TestServer;
let browser: Browser;
let adminCookie: string;

/** The text as a person reads it: French no-break spaces count as spaces. */
function plain(text: string): string {
  return text.replace(/[\u00A0\u202F]/g, ' ');
}

async function textOf(locator: Locator): Promise<string> {
  return plain(await locator.innerText());
}

/** Each item of a list as one line of text (a line of the summary wraps between its label and its values). */
async function linesOf(list: Locator): Promise<string[]> {
  const items = await list.getByRole('listitem').all();
  return Promise.all(items.map(async (item) => (await textOf(item)).replace(/\s+/g, ' ').trim()));
}

/** The public price list, as the site's pages read it. */
async function publicPrices(): Promise<{ version: number; photos: number }> {
  const response = await fetch(`${server.url}/api/price-list`);
  const body = (await response.json()) as { version: number; data: { supports: { photos: { basePrice: number } } } };
  return { version: body.version, photos: body.data.supports.photos.basePrice };
}

/** The gift cards' entries of the public price list. */
async function publicGiftCards(): Promise<{
  version: number;
  minPrice: number;
  maxPrice: number;
  validityMonths: number;
}> {
  const response = await fetch(`${server.url}/api/price-list`);
  const body = (await response.json()) as {
    version: number;
    data: { giftCards: { minPrice: number; maxPrice: number; validityMonths: number } };
  };
  return { version: body.version, ...body.data.giftCards };
}

async function tarifsPage({ javaScriptEnabled = true } = {}): Promise<Page> {
  const page = await openPage(browser, undefined, { ...DESKTOP, javaScriptEnabled });
  await addSessionCookie(page, server.url, adminCookie);
  await page.goto(`${server.url}/admin/tarifs`);
  if (javaScriptEnabled) await page.locator('[data-hydrated="true"]').waitFor();
  return page;
}

/** « Offrir une carte cadeau », filled for Jeanne Martin with `amount` of one's choice, and sent. */
async function buyGiftCard(amount: string): Promise<Page> {
  const page = await openPage(browser, `${server.url}/carte-cadeau`, DESKTOP);
  await page.getByRole('radio', { name: 'Un montant de mon choix' }).check();
  await page.getByLabel(/^Montant en euros/).fill(amount);
  await page.getByLabel('Son prénom et son nom').fill('Jeanne Martin');
  await page.getByLabel('Son adresse e-mail').fill('jeanne.martin@example.fr');
  await page.getByLabel('De la part de').fill('Claire Martin');
  await page.getByRole('radio', { name: /^Je l’imprime moi-même/ }).check();
  await page.getByRole('button', { name: 'Continuer vers le paiement' }).click();
  return page;
}

/** Waits until the photos field shows `value` (after a publication, the form shows the new version). */
async function photosFieldShows(page: Page, value: string): Promise<void> {
  await expect.poll(() => page.getByLabel('Photos papier', { exact: true }).inputValue()).toBe(value);
}

async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === document.activeElement);
}

const summaryDialog = (page: Page) => page.getByRole('dialog', { name: 'Publier les nouveaux tarifs ?' });
const largeChangeDialog = (page: Page) => page.getByRole('dialog', { name: 'Changement important' });
const resetDialog = (page: Page) => page.getByRole('dialog', { name: 'Réinitialiser les tarifs ?' });

/** The Tarifs form posted by hand, as React Router's client does: the server decides on its own. */
async function postTarifs(fields: Record<string, string>): Promise<string> {
  const response = await fetch(`${server.url}/admin/tarifs.data`, {
    method: 'POST',
    headers: {
      cookie: adminCookie,
      origin: server.url,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields),
  });
  expect(response.status).toBe(200);
  return response.text();
}

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  const admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
  adminCookie = await signIn({ url: server.url, email: admin.email });
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('the Tarifs tab', () => {
  it('publishes « 0,39 » as 0,39 € per photo, after a summary and a confirmation', async () => {
    const before = await publicPrices();
    expect(before.photos).toBe(35);
    const page = await tarifsPage();
    const photos = page.getByLabel('Photos papier', { exact: true });
    expect(await photos.inputValue()).toBe('0,35');

    await page.getByRole('button', { name: 'Mettre à jour' }).click();
    await waitForToast(page, 'Aucun changement : les tarifs saisis sont ceux en vigueur, il n’y a rien à publier.');
    expect(await summaryDialog(page).count()).toBe(0);

    await photos.fill('0,39');
    await page.getByRole('button', { name: 'Mettre à jour' }).click();
    const summary = summaryDialog(page);
    await summary.waitFor();
    const changes = summary.getByRole('listitem');
    expect(await changes.count()).toBe(1);
    const line = await textOf(changes.first());
    expect(line).toContain('Supports — Photos papier');
    expect(line).toContain('0,35 € → 0,39 € (+11,4 %)');
    // Nothing is published while the summary is open; the safe choice has the focus.
    expect((await publicPrices()).version).toBe(before.version);
    expect(await isFocused(summary.getByRole('button', { name: 'Annuler' }))).toBe(true);
    await expectNoSeriousA11yViolations(page);

    await summary.getByRole('button', { name: 'Publier les nouveaux tarifs' }).click();
    await waitForToast(page, 'Tarifs mis à jour');
    expect(await publicPrices()).toEqual({ version: before.version + 1, photos: 39 });
    await photosFieldShows(page, '0,39');

    const configurator = await openPage(browser, `${server.url}/configurateur`, DESKTOP);
    const text = await textOf(configurator.locator('body'));
    expect(text).toContain('0,39 € par photo');
    expect(text).not.toContain('39,00 €');
  });

  it('refuses entries that are not prices, in French, and publishes nothing', async () => {
    const before = await publicPrices();
    const page = await tarifsPage();
    await page.getByLabel('Photos papier', { exact: true }).fill('abc');
    await page.getByLabel('Cassettes VHS', { exact: true }).fill('1,2,3');
    await page.getByLabel('Cassettes MiniDV', { exact: true }).fill('-5');
    await page.getByLabel('Diapositives', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Mettre à jour' }).click();
    await waitForToast(page, PRICE_FORM_MESSAGES.invalid);

    const field = (label: string) => page.getByRole('textbox', { name: label, exact: true });
    expect(await field('Photos papier').getAttribute('aria-invalid')).toBe('true');
    const supports = await textOf(page.getByRole('tabpanel', { name: 'Supports' }));
    expect(supports).toContain(PRICE_FORM_MESSAGES.eurosNotANumber);
    expect(supports).toContain(PRICE_FORM_MESSAGES.eurosMin);
    expect(supports).toContain(PRICE_FORM_MESSAGES.eurosEmpty);
    // The first refused field has the focus, and the error is its description.
    expect(await isFocused(field('Photos papier'))).toBe(true);
    expect(
      await field('Photos papier').evaluate((e) =>
        e
          .getAttribute('aria-describedby')
          ?.split(' ')
          .map((id) => document.getElementById(id)?.textContent),
      ),
    ).toContain(PRICE_FORM_MESSAGES.eurosNotANumber);
    expect(await summaryDialog(page).count()).toBe(0);
    expect(await publicPrices()).toEqual(before);

    // A field being corrected drops its message; the others keep theirs.
    await field('Photos papier').fill('0,36');
    expect(await field('Photos papier').getAttribute('aria-invalid')).toBeNull();
    expect(await field('Diapositives').getAttribute('aria-invalid')).toBe('true');
  });

  it('asks a second time for « 39 » (×100), and publishes only once confirmed twice', async () => {
    const before = await publicPrices();
    const page = await tarifsPage();
    await page.getByLabel('Photos papier', { exact: true }).fill('39');
    const update = page.getByRole('button', { name: 'Mettre à jour' });
    await update.click();
    const summary = summaryDialog(page);
    expect(await textOf(summary.getByRole('listitem').first())).toContain('0,39 € → 39,00 € (+9 900 %)');
    await summary.getByRole('button', { name: 'Publier les nouveaux tarifs' }).click();

    const large = largeChangeDialog(page);
    await large.waitFor();
    const text = await textOf(large);
    expect(text).toContain('Le prix « Photos papier » (Supports) passe de 0,39 € à 39,00 € (×100).');
    expect(text).toContain('Confirmer quand même ?');
    expect(await isFocused(large.getByRole('button', { name: 'Annuler' }))).toBe(true);
    await expectNoSeriousA11yViolations(page);

    // Escape is « Annuler »: nothing published, the focus back on « Mettre à jour ».
    await page.keyboard.press('Escape');
    await large.waitFor({ state: 'detached' });
    expect(await publicPrices()).toEqual(before);
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Mettre à jour'));
    expect(await page.getByLabel('Photos papier', { exact: true }).inputValue()).toBe('39');

    // The keyboard alone, this time: Enter on « Mettre à jour », Tab to each confirmation, Enter.
    await update.focus();
    await page.keyboard.press('Enter');
    await summary.waitFor();
    await page.keyboard.press('Tab');
    expect(await isFocused(summary.getByRole('button', { name: 'Publier les nouveaux tarifs' }))).toBe(true);
    await page.keyboard.press('Enter');
    await large.waitFor();
    await page.keyboard.press('Tab');
    expect(await isFocused(large.getByRole('button', { name: 'Confirmer et publier' }))).toBe(true);
    await page.keyboard.press('Enter');
    await waitForToast(page, 'Tarifs mis à jour');
    expect(await publicPrices()).toEqual({ version: before.version + 1, photos: 3900 });
  });

  it('resets to the default prices only once confirmed', async () => {
    const before = await publicPrices();
    expect(before.photos).toBe(3900);
    const page = await tarifsPage();
    await page.getByRole('button', { name: 'Réinitialiser' }).click();
    const dialog = resetDialog(page);
    await dialog.waitFor();
    expect(await textOf(dialog.getByRole('listitem').filter({ hasText: 'Photos papier' }))).toContain(
      '39,00 € → 0,35 €',
    );
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await publicPrices()).toEqual(before);
    expect(await page.getByLabel('Photos papier', { exact: true }).inputValue()).toBe('39,00');

    await page.getByRole('button', { name: 'Réinitialiser' }).click();
    await dialog.getByRole('button', { name: 'Réinitialiser les tarifs' }).click();
    await waitForToast(page, 'Tarifs réinitialisés');
    expect(await publicPrices()).toEqual({ version: before.version + 1, photos: 35 });
    await photosFieldShows(page, '0,35');
  });

  it('refuses on the server a publication the dialogs did not confirm', async () => {
    const before = await publicPrices();
    const photos = 'supports.photos.basePrice';
    expect(await postTarifs({ intent: 'update', [photos]: '0,39' })).toContain(PRICE_FORM_MESSAGES.unconfirmed);
    expect(await postTarifs({ intent: 'update', [photos]: '39', confirmed: '1' })).toContain(
      PRICE_FORM_MESSAGES.largeUnconfirmed,
    );
    expect(await postTarifs({ intent: 'update', [photos]: 'abc', confirmed: '1' })).toContain(
      PRICE_FORM_MESSAGES.eurosNotANumber,
    );
    // An absurd price is refused too, even confirmed twice.
    expect(
      await postTarifs({ intent: 'update', [photos]: '1000000', confirmed: '1', confirmedLargeChange: '1' }),
    ).toContain(PRICE_FORM_MESSAGES.eurosMax);
    expect(await postTarifs({ intent: 'reset' })).toContain(PRICE_FORM_MESSAGES.resetUnconfirmed);
    // A summary reviewed against an older version is not published over a newer one.
    expect(
      await postTarifs({ intent: 'update', [photos]: '0,39', confirmed: '1', baseVersion: String(before.version - 1) }),
    ).toContain(PRICE_FORM_MESSAGES.stale);
    expect(await publicPrices()).toEqual(before);

    expect(await postTarifs({ intent: 'update', [photos]: '0,39', confirmed: '1' })).not.toContain(
      PRICE_FORM_MESSAGES.unconfirmed,
    );
    expect(await publicPrices()).toEqual({ version: before.version + 1, photos: 39 });
  });

  it('publishes new gift card bounds and validity, which « Offrir une carte cadeau » applies at once', async () => {
    const before = await publicGiftCards();
    expect(before).toMatchObject({ minPrice: 2000, maxPrice: 50_000, validityMonths: 12 });
    const page = await tarifsPage();
    await page.getByRole('tab', { name: 'Cartes cadeaux' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Cartes cadeaux' });
    // With JavaScript, one sub-tab at a time, and no section titles (those are for browsers without it).
    expect(await page.getByRole('tabpanel').count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Cartes cadeaux' }).count()).toBe(0);
    const field = (label: string) => panel.getByRole('textbox', { name: label, exact: true });
    expect(await field('Montant minimal').inputValue()).toBe('20,00');
    expect(await field('Montant maximal').inputValue()).toBe('500,00');
    expect(await field('Validité').inputValue()).toBe('12');

    // Beyond what a card may be: refused in French, on each field, and nothing published.
    await field('Montant maximal').fill('6000');
    await field('Validité').fill('36');
    await page.getByRole('button', { name: 'Mettre à jour' }).click();
    await waitForToast(page, PRICE_FORM_MESSAGES.invalid);
    const refused = await textOf(panel);
    expect(refused).toContain(plain(PRICE_FORM_MESSAGES.giftCardMaxTooHigh));
    expect(refused).toContain(plain(PRICE_FORM_MESSAGES.monthsRange));
    expect(await isFocused(field('Montant maximal'))).toBe(true);
    expect(await summaryDialog(page).count()).toBe(0);
    await field('Montant maximal').fill('10');
    await page.getByRole('button', { name: 'Mettre à jour' }).click();
    expect(await textOf(panel)).toContain(PRICE_FORM_MESSAGES.giftCardMaxBelowMin);

    await field('Montant maximal').fill('200');
    await field('Validité').fill('6');
    await page.getByRole('button', { name: 'Mettre à jour' }).click();
    const summary = summaryDialog(page);
    await summary.waitFor();
    expect(await linesOf(summary)).toEqual([
      'Cartes cadeaux — Montant maximal 500,00 € → 200,00 € (−60 %)',
      'Cartes cadeaux — Validité 12 mois → 6 mois (−50 %)',
    ]);
    expect(await publicGiftCards()).toEqual(before);
    await expectNoSeriousA11yViolations(page);
    await summary.getByRole('button', { name: 'Publier les nouveaux tarifs' }).click();
    await waitForToast(page, 'Tarifs mis à jour');
    expect(await publicGiftCards()).toEqual({
      version: before.version + 1,
      minPrice: 2000,
      maxPrice: 20_000,
      validityMonths: 6,
    });

    // The gift card page tells the new bounds and validity, and refuses an amount above the new maximum.
    const shop = await buyGiftCard('250');
    await shop.getByRole('alert').waitFor();
    expect(new URL(shop.url()).pathname).toBe('/carte-cadeau');
    const text = await textOf(shop.locator('main'));
    expect(text).toContain('valable 6 mois');
    expect(text).toContain('Montant en euros (de 20,00 € à 200,00 €)');
    expect(await textOf(shop.locator('#amount-error'))).toBe(
      plain(GIFT_CARD_PURCHASE_MESSAGES.amountOutOfBounds(2000, 20_000)),
    );
    expect(await shop.getByLabel(/^Montant en euros/).getAttribute('aria-invalid')).toBe('true');

    // The shop's card tells them too.
    const boutique = await openPage(browser, `${server.url}/boutique`, DESKTOP);
    const card = await textOf(boutique.getByRole('article').filter({ hasText: 'Carte cadeau' }));
    expect(card).toContain('valable 6 mois');
    expect(card).toContain('De 20,00 € à 200,00 €');
  });

  it('works without JavaScript: every section shown, the summary and the confirmation from the server', async () => {
    const before = await publicGiftCards();
    const page = await tarifsPage({ javaScriptEnabled: false });
    // No sub-tab to switch: each section has its title, and its fields are there to type in.
    expect(await page.getByRole('heading', { name: 'Cartes cadeaux', level: 3 }).isVisible()).toBe(true);
    expect(await page.getByRole('tabpanel').count()).toBe(10);
    const minimum = page.getByRole('textbox', { name: 'Montant minimal', exact: true });
    expect(await minimum.isVisible()).toBe(true);

    // A refusal comes back with what was typed and its message on the field.
    await minimum.fill('0,50');
    await page.getByRole('button', { name: 'Mettre à jour' }).click();
    await page.getByRole('alert').filter({ hasText: PRICE_FORM_MESSAGES.invalid }).waitFor();
    expect(await minimum.inputValue()).toBe('0,50');
    expect(await minimum.getAttribute('aria-invalid')).toBe('true');
    expect(await textOf(page.locator('main'))).toContain(plain(PRICE_FORM_MESSAGES.giftCardMinTooLow));

    // The summary, then the publication once confirmed.
    await minimum.fill('10');
    await page.getByRole('button', { name: 'Mettre à jour' }).click();
    const review = page.getByRole('region', { name: 'Publier les nouveaux tarifs ?' });
    await review.waitFor();
    expect(await linesOf(review)).toEqual(['Cartes cadeaux — Montant minimal 20,00 € → 10,00 € (−50 %)']);
    expect(await publicGiftCards()).toEqual(before);
    await review.getByRole('button', { name: 'Publier les nouveaux tarifs' }).click();
    await page.getByRole('status').filter({ hasText: 'Tarifs mis à jour' }).waitFor();
    expect(await textOf(page.getByRole('status').filter({ hasText: 'Tarifs mis à jour' }))).toContain(
      `version ${before.version + 1}`,
    );
    expect(await publicGiftCards()).toEqual({ ...before, version: before.version + 1, minPrice: 1000 });
    expect(await minimum.inputValue()).toBe('10,00');

    // « Réinitialiser » asks first here too; « Annuler » publishes nothing.
    await page.getByRole('button', { name: 'Réinitialiser' }).click();
    const reset = page.getByRole('region', { name: 'Réinitialiser les tarifs ?' });
    await reset.waitFor();
    expect(await textOf(reset.getByRole('listitem').filter({ hasText: 'Montant minimal' }))).toContain(
      '10,00 € → 20,00 €',
    );
    await reset.getByRole('link', { name: 'Annuler' }).click();
    await reset.waitFor({ state: 'detached' });
    expect((await publicGiftCards()).version).toBe(before.version + 1);

    const shop = await openPage(browser, `${server.url}/carte-cadeau`, DESKTOP);
    expect(await textOf(shop.locator('main'))).toContain('Montant en euros (de 10,00 € à 200,00 €)');
  });
});
