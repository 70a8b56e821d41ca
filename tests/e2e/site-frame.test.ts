import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage, waitForHydrationOnLoad } from '../support/browser';
import { type SharedServer, sharedServer } from '../support/shared-shop';

const DESKTOP = { viewport: { width: 1280, height: 720 } };
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };

/** The text as a person reads it: French no-break spaces count as spaces. */
async function textOf(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/[\u00A0\u202F]/g, ' ');
}

async function hrefOf(locator: Locator): Promise<string | null> {
  await locator.waitFor({ state: 'visible' });
  return locator.getAttribute('href');
}

/**
 * A header menu's button: a native <summary>, which Chromium announces as an expandable button
 * (Playwright's role engine gives <summary> no role, hence the tag).
 */
function menuButton(scope: Locator, name: string): Locator {
  return scope.locator('summary').filter({ hasText: new RegExp(`^${name}$`) });
}

async function isOpen(button: Locator): Promise<boolean> {
  return button.evaluate((el) => (el.parentElement as HTMLDetailsElement).open);
}

async function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));
}

async function headerBackground(page: Page): Promise<string> {
  return page.getByRole('banner').evaluate((el) => getComputedStyle(el).backgroundColor);
}

describe('the site frame', () => {
  let server: SharedServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([sharedServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('speaks French and offers the menus, the sign-in link and the main call to action', async () => {
    const page = await openPage(browser, server.url, DESKTOP);
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.title()).toContain('Soovenirs');

    const header = page.getByRole('banner');
    const navigation = header.getByRole('navigation', { name: 'Navigation principale' });
    for (const menu of ['Prestations', 'Infos', 'Ressources', 'Pro']) {
      expect(await menuButton(navigation, menu).isVisible(), menu).toBe(true);
    }
    expect(await hrefOf(header.getByRole('link', { name: 'Estimer ma commande' }))).toBe('/configurateur');
    expect(await hrefOf(header.getByRole('link', { name: 'Se connecter' }))).toBe('/login');
    // Signed out: no account link, no administration link, and "Mes devis" lives in the mobile menu only.
    expect(await header.getByRole('link', { name: 'Mon Compte' }).count()).toBe(0);
    expect(await header.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    expect(await header.getByRole('link', { name: 'Mes devis' }).count()).toBe(0);

    // The home page's hero.
    const main = page.getByRole('main');
    expect(await main.getAttribute('id')).toBe('contenu');
    expect(await main.getByRole('heading', { level: 1 }).count()).toBe(1);
    // The hero's call to action (the page repeats it in its closing section).
    expect(await hrefOf(main.getByRole('link', { name: 'Estimer ma commande' }).first())).toBe('/configurateur');
    const hero = await textOf(main);
    for (const figure of ['100 %', 'Made in France', '30 000', 'souvenirs numérisés']) expect(hero).toContain(figure);
  });

  it('lets a keyboard user skip to the content', async () => {
    const page = await openPage(browser, server.url, DESKTOP);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Aller au contenu' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'contenu');
  });

  it('opens the drop-down menus, with the illustrated service grid, from the mouse and the keyboard', async () => {
    const page = await openPage(browser, `${server.url}/faq`, DESKTOP);
    const header = page.getByRole('banner');
    const navigation = header.getByRole('navigation', { name: 'Navigation principale' });

    const services = menuButton(navigation, 'Prestations');
    await services.click();
    const vhs = header.getByRole('link', { name: 'Cassettes VHS', exact: true });
    expect(await hrefOf(vhs)).toBe('/services/vhs');
    expect(await vhs.locator('img').getAttribute('src')).toBe('/images/services/vhs.svg');
    expect(await hrefOf(header.getByRole('link', { name: 'Plaques de verre' }))).toBe('/services/plaques-de-verre');
    expect(
      await header.getByRole('link', { name: /^(Photos|Diapositives|Négatifs|Soovenirs sur mesure)/ }).count(),
    ).toBe(4);
    // The illustrations are real files, served by the site itself.
    const svg = await fetch(`${server.url}/images/services/vhs.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');

    // A click elsewhere closes the panel.
    await page.mouse.click(640, 600);
    await vhs.waitFor({ state: 'hidden' });

    // From the keyboard: Enter on a button opens its panel, which marks the page being read.
    const infos = menuButton(navigation, 'Infos');
    await infos.focus();
    await page.keyboard.press('Enter');
    expect(await isOpen(infos)).toBe(true);
    const faq = header.getByRole('link', { name: 'Questions fréquentes' });
    expect(await hrefOf(faq)).toBe('/faq');
    expect(await faq.getAttribute('aria-current')).toBe('page');
    // Tab goes into the panel; Escape closes it and gives the focus back to its button.
    await page.keyboard.press('Tab');
    expect(await hasFocus(header.getByRole('link', { name: 'Organiser ma commande' }))).toBe(true);
    await page.keyboard.press('Escape');
    await faq.waitFor({ state: 'hidden' });
    expect(await hasFocus(infos)).toBe(true);

    // One panel at a time: opening « Pro » closes « Infos ».
    await page.keyboard.press('Enter');
    await faq.waitFor({ state: 'visible' });
    await menuButton(navigation, 'Pro').click();
    expect(await hrefOf(header.getByRole('link', { name: 'Demander un devis professionnel' }))).toBe(
      '/contact?pro=true',
    );
    await faq.waitFor({ state: 'hidden' });

    // Following a link closes the menu.
    await header.getByRole('link', { name: 'Offre entreprises' }).click();
    await page.waitForURL((url) => url.pathname === '/services-entreprises');
    await header.getByRole('link', { name: 'Offre entreprises' }).waitFor({ state: 'hidden' });
  });

  it('is transparent at the top of the page and opaque once scrolled, without moving', async () => {
    const page = await openPage(browser, server.url, DESKTOP);
    const header = page.getByRole('banner');
    await page.waitForFunction(() => document.querySelector('header')?.dataset.scrolled === 'false');
    expect(await headerBackground(page)).toBe('rgba(0, 0, 0, 0)');
    const before = await header.boundingBox();

    await page.mouse.wheel(0, 400);
    await page.waitForFunction(() => document.querySelector('header')?.dataset.scrolled === 'true');
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector('header')!).backgroundColor === 'rgb(250, 246, 239)',
    );
    expect(await header.boundingBox()).toEqual(before);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => document.querySelector('header')?.dataset.scrolled === 'false');
  });

  it('scrolls back to the top when a link opens a new page', async () => {
    const page = await openPage(browser, server.url, DESKTOP);
    await page.waitForFunction(() => document.querySelector('header')?.dataset.scrolled === 'false');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(() => window.scrollY > 200);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Soovenirs, accueil' }).click();
    await page.waitForFunction(() => window.scrollY === 0);
  });

  it('shows a menu on a phone, opened from the keyboard, with "Mes devis"', async () => {
    const page = await openPage(browser, server.url, PHONE);
    const header = page.getByRole('banner');
    expect(await header.getByRole('navigation', { name: 'Navigation principale' }).isVisible()).toBe(false);

    const trigger = menuButton(header, 'Menu');
    await trigger.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('navigation', { name: 'Menu mobile' });
    await menu.waitFor({ state: 'visible' });
    await page.keyboard.press('Tab');
    expect(await hasFocus(menu)).toBe(true);

    expect(await hrefOf(menu.getByRole('link', { name: 'Mes devis' }))).toBe('/mes-devis');
    expect(await hrefOf(menu.getByRole('link', { name: 'Estimer ma commande' }))).toBe('/configurateur');
    expect(await hrefOf(menu.getByRole('link', { name: 'Se connecter' }))).toBe('/login');
    expect(await menu.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    expect(await menu.getByRole('link', { name: 'Accueil' }).getAttribute('aria-current')).toBe('page');

    // The groups fold open: Ressources holds the blog.
    await menuButton(menu, 'Ressources').click();
    expect(await hrefOf(menu.getByRole('link', { name: 'Blog' }))).toBe('/blog');

    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await hasFocus(trigger)).toBe(true);
  });

  it('closes the phone menu when one of its links is followed', async () => {
    const page = await openPage(browser, `${server.url}/faq`, PHONE);
    await page.evaluate(() => window.scrollTo(0, 300));
    await menuButton(page.getByRole('banner'), 'Menu').click();
    const menu = page.getByRole('navigation', { name: 'Menu mobile' });
    await menu.getByRole('link', { name: 'Accueil' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await menu.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => window.scrollY === 0);
  });

  it('shows "Mon Compte" to a signed-in customer, and "Administration" to administrators only', async () => {
    const customer = await createUser({ url: server.url });
    const customerPage = await openPage(browser, undefined, DESKTOP);
    await addSessionCookie(customerPage, server.url, customer.cookie);
    await customerPage.goto(server.url);
    const customerHeader = customerPage.getByRole('banner');
    expect(await hrefOf(customerHeader.getByRole('link', { name: 'Mon Compte' }))).toBe('/profile');
    expect(await customerHeader.getByRole('link', { name: 'Se connecter' }).count()).toBe(0);
    expect(await customerHeader.getByRole('link', { name: 'Administration' }).count()).toBe(0);

    const admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
    const adminPage = await openPage(browser, undefined, DESKTOP);
    await addSessionCookie(adminPage, server.url, admin.cookie);
    await adminPage.goto(server.url);
    const adminHeader = adminPage.getByRole('banner');
    expect(await hrefOf(adminHeader.getByRole('link', { name: 'Administration' }))).toBe('/admin');
    expect(await hrefOf(adminHeader.getByRole('link', { name: 'Mon Compte' }))).toBe('/profile');

    const adminPhone = await openPage(browser, undefined, PHONE);
    await addSessionCookie(adminPhone, server.url, admin.cookie);
    await adminPhone.goto(server.url);
    await menuButton(adminPhone.getByRole('banner'), 'Menu').click();
    const menu = adminPhone.getByRole('navigation', { name: 'Menu mobile' });
    expect(await hrefOf(menu.getByRole('link', { name: 'Administration' }))).toBe('/admin');
    expect(await hrefOf(menu.getByRole('link', { name: 'Mon Compte' }))).toBe('/profile');
  });

  it('gives the business hours, the legal identity and the legal links in the footer', async () => {
    const page = await openPage(browser, server.url, DESKTOP);
    const footer = page.getByRole('contentinfo');
    const text = await textOf(footer);
    for (const expected of [
      'Lundi–vendredi',
      '9h–20h30',
      'Samedi',
      '10h–15h',
      'Dimanche',
      'Fermé',
      'Soovenirs SAS',
      'capital de 15 000 €',
      'SIREN 912 345 678',
      'RCS Paris',
      '12 rue des Archives',
      '75004 Paris',
      '01 84 60 12 34',
      'contact@soovenirs.fr',
      '100 % Made in France',
    ]) {
      expect(text, expected).toContain(expected);
    }
    const links: Record<string, string> = {
      'Mentions légales': '/mentions-legales',
      'Conditions générales de vente': '/cgv',
      'Politique de confidentialité': '/politique-de-confidentialite',
      'Legal notice (English)': '/legal-notice',
      'Plaques de verre': '/services/plaques-verre',
      // One link to the box, to its own page.
      'La boîte Soovenirs': '/boite-soovenirs',
      // The specification links the back office from the footer for everyone.
      Administration: '/admin',
    };
    for (const [name, href] of Object.entries(links)) {
      expect(await hrefOf(footer.getByRole('link', { name, exact: true })), name).toBe(href);
    }
    expect(await footer.getByRole('link', { name: /boîte soovenirs/i }).count()).toBe(1);
    expect(await footer.getByRole('link', { name: '01 84 60 12 34' }).getAttribute('href')).toBe('tel:+33184601234');
  });

  it('answers an unknown address with a French 404 page inside the frame', async () => {
    const res = await fetch(`${server.url}/cette-page-n-existe-pas`);
    expect(res.status).toBe(404);

    // Chromium reports the document's own 404 status on the console: that one line is expected here.
    const context = await browser.newContext({ locale: 'fr-FR', ...DESKTOP });
    const errors: string[] = [];
    const page = await context.newPage();
    waitForHydrationOnLoad(page);
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('status of 404')) errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      const response = await page.goto(`${server.url}/cette-page-n-existe-pas`);
      expect(response?.status()).toBe(404);
      expect(await page.title()).toContain('Page introuvable');
      const main = page.getByRole('main');
      expect(await textOf(main.getByRole('heading', { level: 1 }))).toBe('Page introuvable');
      expect(await hrefOf(main.getByRole('link', { name: 'Retour à l’accueil' }))).toBe('/');
      expect(await hrefOf(main.getByRole('link', { name: 'Nos prestations' }))).toBe('/services');
      expect(await hrefOf(main.getByRole('link', { name: 'Nous contacter' }))).toBe('/contact');
      expect(await page.getByRole('banner').getByRole('link', { name: 'Estimer ma commande' }).count()).toBe(1);
      expect(await page.getByRole('contentinfo').count()).toBe(1);
      await expectNoSeriousA11yViolations(page);
    } finally {
      await context.close();
    }
    expect(errors).toEqual([]);
  });

  it('has no serious accessibility violation on the home page, on a desktop and on a phone', async () => {
    const desktop = await openPage(browser, server.url, DESKTOP);
    await expectNoSeriousA11yViolations(desktop);
    const phone = await openPage(browser, server.url, PHONE);
    await expectNoSeriousA11yViolations(phone);
    await menuButton(phone.getByRole('banner'), 'Menu').click();
    await phone.getByRole('navigation', { name: 'Menu mobile' }).waitFor({ state: 'visible' });
    await expectNoSeriousA11yViolations(phone);
    await menuButton(desktop.getByRole('navigation', { name: 'Navigation principale' }), 'Prestations').click();
    await desktop.getByRole('banner').getByRole('link', { name: 'Cassettes VHS', exact: true }).waitFor();
    await expectNoSeriousA11yViolations(desktop);
  });
});
