import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomIp } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { SANDBOX_ENV, type SharedServer, sharedServer } from '../support/shared-shop';

/*
 * The checkout that asks each thing once (docs/decisions/024) and the public pages' scripts, in
 * Chromium on the built app: a guest types their e-mail address and the delivery address ONCE in
 * « Vos coordonnées » and presses « Payer » ONCE, with JavaScript and without it; an address
 * mistake on a transfer order comes back under its field, headed as a mistake of the form (not
 * « Erreur de paiement »), with everything typed; no page violates the Content-Security-Policy (a
 * `securitypolicyviolation` listener on every public page of the sitemap, the configurator and the
 * checkout); the site's pages load no router script; the demonstration banner is not hidden under
 * the heroes.
 */

let server: SharedServer;
let browser: Browser;
let client: pg.Client;

const CONSENT = /Je demande expressément que la numérisation de ma commande commence/;
const PHYSICAL = '/configurateur?support=photos&photos.quantity=100&delivery=usb&returnOriginals=on';

beforeAll(async () => {
  [server, browser] = await Promise.all([sharedServer(SANDBOX_ENV), launchBrowser()]);
  client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await browser?.close();
  await server?.dispose();
});

async function guestPage(javaScriptEnabled = true): Promise<Page> {
  const page = await openPage(browser, undefined, {
    javaScriptEnabled,
    extraHTTPHeaders: { 'x-forwarded-for': randomIp() },
  });
  // A missing element fails with its locator rather than at the test's timeout.
  page.setDefaultTimeout(15_000);
  return page;
}

/** Orders the physical selection from the configurator (its « Commander » button) and lands on /checkout. */
async function orderFromConfigurator(page: Page): Promise<string> {
  await page.goto(`${server.url}${PHYSICAL}`);
  await page.getByRole('button', { name: 'Commander' }).click();
  await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
  return new URL(page.url()).searchParams.get('orderId') as string;
}

async function orderRow(orderId: string) {
  const { rows } = await client.query<{
    placed_at: Date | null;
    payment_method: string;
    guest_email: string | null;
    guest_first_name: string | null;
    early_start_consent_at: Date | null;
    delivery: string | null;
  }>(
    `select o.placed_at, o.payment_method, o.guest_email, o.guest_first_name, o.early_start_consent_at,
       (select a.line1 || ', ' || a.postal_code || ' ' || a.city from order_addresses a
         where a.order_id = o.id and a.kind = 'delivery') as delivery
     from orders o where o.id = $1`,
    [orderId],
  );
  return rows[0];
}

/** The street fields a guest can see: the address must be asked once. */
async function visibleStreetFields(page: Page): Promise<number> {
  const fields = await page.getByRole('textbox', { name: /Numéro et rue|^Adresse( \(facultatif\))?$/ }).all();
  let visible = 0;
  for (const field of fields) if (await field.isVisible()) visible += 1;
  return visible;
}

async function typeContact(page: Page, email: string, postalCode: string) {
  const contact = page.getByRole('region', { name: 'Vos coordonnées' });
  await contact.getByLabel('Adresse e-mail').fill(email);
  const delivery = contact.getByRole('group', { name: 'Livraison' });
  await delivery.getByLabel('Prénom').fill('Lucie');
  await delivery.getByLabel(/^Nom/).fill('Aubrac');
  await delivery.getByLabel('Numéro et rue').fill('3 rue Jeanne d’Arc');
  await delivery.getByLabel('Code postal').fill(postalCode);
  await delivery.getByLabel('Ville').fill('Orléans');
  await delivery.getByLabel('Téléphone').fill('06 11 22 33 44');
  await page.getByRole('checkbox', { name: CONSENT }).check();
}

describe('a guest’s checkout: one address block, one press of « Payer »', () => {
  it('with JavaScript: the address is asked once and « Payer » places the order and opens the payment', async () => {
    const page = await guestPage();
    const orderId = await orderFromConfigurator(page);
    expect(await page.getByRole('button', { name: /Enregistrer mes informations/ }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Vos informations' }).count()).toBe(0);
    await expect.poll(() => visibleStreetFields(page)).toBe(1);
    await expectNoSeriousA11yViolations(page);

    await typeContact(page, 'lucie.aubrac@example.fr', '45000');
    await page.getByRole('button', { name: /^Payer / }).click();
    await page.waitForURL(/\/paiement\/sandbox\//);
    expect(await orderRow(orderId)).toMatchObject({
      payment_method: 'card',
      guest_email: 'lucie.aubrac@example.fr',
      guest_first_name: 'Lucie',
      delivery: '3 rue Jeanne d’Arc, 45000 Orléans',
    });
    const row = await orderRow(orderId);
    expect(row?.placed_at).not.toBeNull();
    expect(row?.early_start_consent_at).not.toBeNull();
  });

  it('without JavaScript: a transfer order’s address mistake comes back on its field with what was typed, then one press places it', async () => {
    const page = await guestPage(false);
    const orderId = await orderFromConfigurator(page);
    expect(await visibleStreetFields(page)).toBe(1);
    await typeContact(page, 'sans.js@example.fr', '4500');
    await page.getByRole('radio', { name: /virement/i }).check();
    await page.getByRole('button', { name: /^Payer |^Commander et payer/ }).click();
    await page.waitForLoadState('load');

    const alert = page.getByRole('alert').filter({ hasText: 'Vérifiez vos coordonnées' });
    expect(await alert.count()).toBe(1);
    expect(await page.getByText('Erreur de paiement').count()).toBe(0);
    const delivery = page.getByRole('group', { name: 'Livraison' });
    expect(await delivery.getByText('Code postal invalide pour ce pays (exemple\u00a0: 75011)').isVisible()).toBe(true);
    expect(await delivery.getByLabel('Code postal').getAttribute('aria-invalid')).toBe('true');
    // Nothing typed is lost, nothing is placed.
    expect(await page.getByLabel('Adresse e-mail').inputValue()).toBe('sans.js@example.fr');
    expect(await delivery.getByLabel('Numéro et rue').inputValue()).toBe('3 rue Jeanne d’Arc');
    expect(await delivery.getByLabel('Code postal').inputValue()).toBe('4500');
    expect(await page.getByRole('radio', { name: /virement/i }).isChecked()).toBe(true);
    expect(await orderRow(orderId)).toMatchObject({ placed_at: null, guest_email: null, delivery: null });

    await delivery.getByLabel('Code postal').fill('45000');
    await page.getByRole('checkbox', { name: CONSENT }).check();
    await page.getByRole('button', { name: /^Payer |^Commander et payer/ }).click();
    await page.waitForURL(`${server.url}/confirmation?orderId=${orderId}`);
    expect(await orderRow(orderId)).toMatchObject({
      payment_method: 'transfer',
      guest_email: 'sans.js@example.fr',
      delivery: '3 rue Jeanne d’Arc, 45000 Orléans',
    });
  });

  it('without JavaScript: typed once, one press of « Payer » opens the card payment', async () => {
    const page = await guestPage(false);
    const orderId = await orderFromConfigurator(page);
    await typeContact(page, 'carte.sans.js@example.fr', '45000');
    await page.getByRole('button', { name: /^Payer / }).click();
    await page.waitForURL(/\/paiement\/sandbox\//);
    expect(await orderRow(orderId)).toMatchObject({
      payment_method: 'card',
      guest_email: 'carte.sans.js@example.fr',
      delivery: '3 rue Jeanne d’Arc, 45000 Orléans',
    });
  });
});

describe('the pages’ scripts and the Content-Security-Policy', () => {
  /** Every public page the sitemap lists, by path. */
  async function sitemapPaths(): Promise<string[]> {
    const xml = await (await fetch(`${server.url}/sitemap.xml`)).text();
    return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => {
      const url = new URL(match[1] as string);
      return `${url.pathname}${url.search}`;
    });
  }

  it('no page violates the CSP: every page of the sitemap, the configurator and the checkout', async () => {
    const page = await guestPage();
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
      });
    });
    const paths = await sitemapPaths();
    expect(paths.length).toBeGreaterThan(30);
    expect(paths).toContain('/cgv');
    const violations: string[] = [];
    const visit = async (path: string) => {
      await page.goto(`${server.url}${path}`);
      // A page the router hydrates (the configurator's live prices load their schemas afterwards)
      // is let settle; the site's documents have run their one inline script by `load`.
      if (await page.evaluate(() => '__reactRouterContext' in window)) await page.waitForLoadState('networkidle');
      const seen = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
      violations.push(...seen.map((entry) => `${path}: ${entry}`));
    };
    for (const path of paths) await visit(path);
    await visit(PHYSICAL);
    await page.getByRole('button', { name: 'Commander' }).click();
    await page.waitForURL(/\/checkout\?orderId=/);
    await page.waitForLoadState('networkidle');
    violations.push(
      ...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).map(
        (entry) => `/checkout: ${entry}`,
      ),
    );
    expect(violations).toEqual([]);
  }, 120_000);

  it('sends the Markdown pages and the free trial as documents: no router script', async () => {
    for (const path of [
      '/cgv',
      '/mentions-legales',
      '/a-propos',
      '/guide-conservation',
      '/numérisation-essai-gratuit',
    ]) {
      const html = await (await fetch(`${server.url}${encodeURI(path)}`)).text();
      expect(html, path).not.toMatch(/<script[^>]*type="module"/);
      expect(html, path).not.toContain('rel="modulepreload"');
      expect(html, path).not.toContain('__reactRouterContext');
    }
    // The configurator still hydrates.
    const configurator = await (await fetch(`${server.url}/configurateur`)).text();
    expect(configurator).toContain('rel="modulepreload"');
  });

  it('shows the demonstration banner above the heroes of /, /contact and a blog post', async () => {
    const page = await guestPage();
    const post = (await sitemapPaths()).find((path) => path.startsWith('/blog/'));
    expect(post).toBeDefined();
    for (const path of ['/', '/contact', post as string]) {
      await page.goto(`${server.url}${path}`);
      const banner = page.getByRole('note').filter({ hasText: 'Boutique de démonstration' });
      expect(await banner.isVisible(), path).toBe(true);
      // Visible means on top: the element at the banner's centre is the banner itself.
      const onTop = await banner.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return found !== null && element.contains(found);
      });
      expect(onTop, path).toBe(true);
    }
  });
});
