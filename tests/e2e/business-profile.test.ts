import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { BUSINESS_MESSAGES } from '~/domain/invoices/business-buyer';
import { addSessionCookie, createUser, randomIp } from '../support/auth';
import { expectNoSeriousA11yViolations, openPage } from '../support/browser';
import { withClient } from '../support/databases';
import { type SharedServer, test } from '../support/shared-shop';

/*
 * « Facturation professionnelle » in the profile (docs/invoicing.md): a signed-in customer gives
 * their company's identity (a wrong SIREN first: a French message on its field, nothing saved), the
 * checkout of a digital order then starts with the business box ticked and filled, and the
 * identity can be removed. Without JavaScript the same forms are plain posts with their intent.
 */

const DIGITAL = '/configurateur?support=photos&photos.quantity=100&delivery=digital';
const BUSINESS = 'Je commande pour une entreprise, une association ou un organisme public';
const SAVE = 'Enregistrer la facturation professionnelle';
const REMOVE = 'Supprimer ces informations';

async function savedBuyer(shop: SharedServer, userId: string): Promise<unknown> {
  return withClient(shop.databaseUrl, async (client) => {
    const { rows } = await client.query('select buyer from customer_business_profiles where user_id = $1', [userId]);
    return rows[0]?.buyer ?? null;
  });
}

function businessSection(page: Page) {
  return page.getByRole('region', { name: 'Facturation professionnelle' });
}

describe('« Facturation professionnelle » in the profile', () => {
  test('a wrong SIREN changes nothing, a right one prefills the checkout of a digital order, and it can be removed', async ({
    shop,
    browser,
  }: {
    shop: SharedServer;
    browser: Browser;
  }) => {
    const customer = await createUser({ url: shop.url, firstName: 'Marie', lastName: 'Curie' });
    const page = await openPage(browser, undefined, { extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
    await addSessionCookie(page, shop.url, customer.cookie);
    await page.goto(`${shop.url}/profile?tab=profil`);
    await page.locator('[data-hydrated="true"]').waitFor();
    const section = businessSection(page);
    await section.getByLabel('Raison sociale').fill('Archives Curie SARL');
    await section.getByLabel('Numéro SIREN').fill('552 100 555');
    await section.getByLabel(/^Numéro de TVA/).fill('FR96 552 100 554');
    await section.getByLabel(/^Référence de bon de commande/).fill('BC-2027-12');
    await section.getByRole('button', { name: SAVE }).click();

    // The key is wrong: the message on the SIREN's field, what was typed kept, nothing saved.
    await section.getByText(BUSINESS_MESSAGES.sirenKey).waitFor();
    expect(await section.getByLabel('Numéro SIREN').getAttribute('aria-invalid')).toBe('true');
    expect(await section.getByLabel('Raison sociale').inputValue()).toBe('Archives Curie SARL');
    expect(await savedBuyer(shop, customer.id)).toBeNull();
    expect(await section.getByRole('button', { name: REMOVE }).count()).toBe(0);
    await expectNoSeriousA11yViolations(page);

    await section.getByLabel('Numéro SIREN').fill('552 100 554');
    await section.getByRole('button', { name: SAVE }).click();
    await section.getByRole('button', { name: REMOVE }).waitFor();
    expect(await savedBuyer(shop, customer.id)).toEqual({
      companyName: 'Archives Curie SARL',
      siren: '552100554',
      vatNumber: 'FR96552100554',
      purchaseOrderReference: 'BC-2027-12',
      publicBody: false,
      siret: null,
      chorusServiceCode: null,
      engagementNumber: null,
    });
    expect(await section.getByText(BUSINESS_MESSAGES.sirenKey).count()).toBe(0);
    await expectNoSeriousA11yViolations(page);

    // A digital order: its checkout starts as the company's, every field filled from the profile.
    await page.goto(`${shop.url}${DIGITAL}`);
    await page.getByRole('button', { name: 'Commander' }).click();
    await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
    const invoicing = page.getByRole('region', { name: 'Facturation' });
    expect(await invoicing.getByRole('checkbox', { name: BUSINESS }).isChecked()).toBe(true);
    await invoicing.getByLabel('Raison sociale').waitFor();
    expect(await invoicing.getByLabel('Raison sociale').inputValue()).toBe('Archives Curie SARL');
    expect(await invoicing.getByLabel('Numéro SIREN').inputValue()).toBe('552100554');
    expect(await invoicing.getByLabel(/^Numéro de TVA/).inputValue()).toBe('FR96552100554');
    expect(await invoicing.getByLabel(/^Référence de bon de commande/).inputValue()).toBe('BC-2027-12');

    // Removed: the next checkout is a consumer's again.
    await page.goto(`${shop.url}/profile?tab=profil`);
    await page.locator('[data-hydrated="true"]').waitFor();
    await businessSection(page).getByRole('button', { name: REMOVE }).click();
    // The page comes back with the form emptied (the button's name is its spinner's meanwhile).
    await expect.poll(() => businessSection(page).getByLabel('Raison sociale').inputValue()).toBe('');
    expect(
      await businessSection(page)
        .getByRole('button', { name: /^Supprimer|Suppression/ })
        .count(),
    ).toBe(0);
    expect(await savedBuyer(shop, customer.id)).toBeNull();
    await page.context().close();
  });

  test('works without JavaScript: plain form posts with their intent save, refuse in French and remove', async ({
    shop,
  }: {
    shop: SharedServer;
  }) => {
    const customer = await createUser({ url: shop.url });
    const post = (fields: Record<string, string>) =>
      fetch(`${shop.url}/profile?tab=profil`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: customer.cookie,
          origin: shop.url,
          'x-forwarded-for': randomIp(),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(fields),
      });
    const mairie = {
      intent: 'save-business',
      companyName: 'Mairie de Lyon',
      siren: '552100554',
      publicBody: 'on',
      siret: '552 100 554 00013',
      chorusServiceCode: 'SERVICE-FACTURES',
    };

    const refused = await post({ ...mairie, companyName: '', vatNumber: 'FR00552100554', siret: '' });
    expect(refused.status).toBe(200);
    const html = await refused.text();
    expect(html).toContain(BUSINESS_MESSAGES.companyName);
    expect(html).toContain(BUSINESS_MESSAGES.vatKey);
    expect(html).toContain(BUSINESS_MESSAGES.siret);
    expect(html).toContain('value="SERVICE-FACTURES"');
    expect(await savedBuyer(shop, customer.id)).toBeNull();

    const saved = await post(mairie);
    expect(saved.status).toBe(302);
    expect(saved.headers.get('location')).toBe('/profile?tab=profil');
    expect(await savedBuyer(shop, customer.id)).toMatchObject({
      companyName: 'Mairie de Lyon',
      publicBody: true,
      siret: '55210055400013',
      chorusServiceCode: 'SERVICE-FACTURES',
    });

    const removed = await post({ intent: 'remove-business' });
    expect(removed.status).toBe(302);
    expect(await savedBuyer(shop, customer.id)).toBeNull();
  });
});
