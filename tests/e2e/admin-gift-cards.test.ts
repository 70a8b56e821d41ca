import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayKey, parisDay } from '~/domain/calendar';
import { formatDateFr } from '~/domain/format';
import { formatGiftCardCode } from '~/domain/vouchers/gift-cards';
import { closeDatabase } from '~/server/db/client.server';
import { revealGiftCardCode } from '~/server/vouchers/gift-cards.server';
import { createUser, randomIp, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openStaffPage } from '../support/browser';
import { payBySandboxCard } from '../support/payments';
import { SANDBOX_ENV, type SharedServer, sharedServer } from '../support/shared-shop';

/*
 * « Cartes cadeaux » in Chromium on the built app (decision 037): a customer buys a card on
 * /carte-cadeau and pays it on the sandbox (the shop's own HTTP paths); the accountant finds it by
 * its code typed loosely (the code is posted, the address then names the card, never the code),
 * reads its ledger, extends it, and the same forms work posted plainly; the workshop is refused by
 * the door; axe finds nothing serious.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
let server: SharedServer;
let browser: Browser;
let client: pg.Client;
let customer: TestUser;
let accountant: TestUser;
let operator: TestUser;
let card: { orderId: string; number: string; id: string; code: string; expiresAt: Date };

const plain = (text: string | null) => (text ?? '').replace(/[\u00A0\u202F]/g, ' ');

/** A card of 40 € bought by the signed-in customer, to print, paid by card on the sandbox. */
async function buyCard(): Promise<typeof card> {
  const form = new URLSearchParams({
    amountChoice: 'custom',
    amount: '40',
    buyerName: 'Claire Martin',
    recipientName: 'Louise Martin',
    recipientEmail: 'louise.martin@example.fr',
    message: 'Pour les films de papa.',
    delivery: 'print',
  });
  const posted = await fetch(`${server.url}/carte-cadeau`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: server.url,
      cookie: customer.cookie,
      'x-forwarded-for': randomIp(),
    },
    body: form,
  });
  expect(posted.status).toBe(302);
  const orderId = new URL(posted.headers.get('location') ?? '', server.url).searchParams.get('orderId') as string;
  await payBySandboxCard(server.url, { id: orderId, cookie: customer.cookie }, customer.email);
  const { rows } = await client.query<{ id: string; number: string; expires_at: Date }>(
    `select c.id, o.number, c.expires_at from gift_cards c join orders o on o.id = c.sale_order_id
     where c.sale_order_id = $1`,
    [orderId],
  );
  const row = rows[0];
  const code = await revealGiftCardCode(orderId);
  if (!row || !code) throw new Error('the card was not issued');
  return { orderId, number: row.number, id: row.id, code, expiresAt: new Date(row.expires_at) };
}

beforeAll(async () => {
  [server, browser] = await Promise.all([sharedServer(SANDBOX_ENV), launchBrowser()]);
  // The code is sealed with the server's secret: read here through the shop's own module.
  process.env.DATABASE_URL = server.databaseUrl;
  process.env.APP_SECRET = server.appSecret;
  client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  [customer, accountant, operator] = await Promise.all([
    createUser({ url: server.url, firstName: 'Claire', lastName: 'Martin' }),
    createUser({
      url: server.url,
      databaseUrl: server.databaseUrl,
      role: 'comptabilite',
      firstName: 'Agathe',
      lastName: 'Comptable',
    }),
    createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'atelier' }),
  ]);
  card = await buyCard();
}, 120_000);

afterAll(async () => {
  await closeDatabase();
  await client?.end();
  await browser?.close();
  await server?.dispose();
});

describe('« Cartes cadeaux » in the back office', () => {
  it('the accountant finds a card by its code, reads its ledger and extends it', async () => {
    const page = await openStaffPage(browser, server.url, accountant.cookie, '/admin/comptabilite', DESKTOP);
    const owed = page.getByRole('region', { name: 'Cartes cadeaux en circulation' });
    expect(plain(await owed.innerText())).toMatch(/Solde des cartes actives au \d{2}\/\d{2}\/\d{4} : [\d ]+,\d{2} €/);
    await page
      .getByRole('navigation', { name: 'Sections du tableau de bord' })
      .getByRole('link', {
        name: 'Cartes cadeaux',
      })
      .click();
    await page.waitForURL(`${server.url}/admin/cartes-cadeaux`);
    await page.getByRole('heading', { name: 'Cartes cadeaux', level: 2 }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // Typed as read from a printed card: lower case, spaces instead of dashes.
    const typed = formatGiftCardCode(card.code).toLowerCase().replace(/-/g, ' ');
    const search = page.getByRole('search', { name: 'Rechercher une carte cadeau' });
    await search.getByRole('searchbox', { name: /Code de la carte/ }).fill(typed);
    await search.getByRole('button', { name: 'Rechercher' }).click();
    await page.waitForURL(`${server.url}/admin/cartes-cadeaux?carte=${card.id}`);
    expect(page.url()).not.toContain(card.code.slice(0, 4));

    const masked = `••••-••••-••••-${card.code.slice(-4)}`;
    const article = page.getByRole('article', { name: `Carte ${masked}` });
    await article.waitFor();
    const shown = plain(await article.innerText());
    expect(shown).toContain('Active');
    expect(shown).toContain('40,00 €');
    expect(shown).toContain(card.number);
    expect(shown).toContain('Louise Martin');
    expect(shown).toMatch(new RegExp(`Valable jusqu’au\\s+${formatDateFr(card.expiresAt)}`));
    const ledger = article.getByRole('table', { name: `Mouvements de la carte ${masked}` });
    expect(plain(await ledger.getByRole('row').nth(1).innerText())).toMatch(/Émission\s+\+40,00 €/);
    await expectNoSeriousA11yViolations(page);

    const day = dayKey(addDays(parisDay(card.expiresAt), 45));
    await article.getByLabel('Nouvelle fin de validité').fill(day);
    await article.getByRole('button', { name: /^Prolonger/ }).click();
    const until = formatDateFr(`${day}T12:00:00Z`);
    await article.getByText(`Carte ${masked} prolongée jusqu’au ${until}.`).waitFor();
    // The answer comes with the action; the card's details with the loaders revalidated just after.
    await expect.poll(async () => plain(await article.innerText())).toMatch(new RegExp(`Valable jusqu’au\\s+${until}`));
    await expectNoSeriousA11yViolations(page);

    const { rows } = await client.query<{ expires_at: Date }>('select expires_at from gift_cards where id = $1', [
      card.id,
    ]);
    expect(dayKey(parisDay(new Date(rows[0]?.expires_at ?? 0)))).toBe(day);
    const journal = await client.query<{ kind: string; actor_id: string; after: Record<string, unknown> }>(
      `select kind, actor_id, after from audit_log where subject = $1 and kind like 'gift_card.%'`,
      [card.orderId],
    );
    expect(journal.rows).toEqual([
      {
        kind: 'gift_card.extend',
        actor_id: accountant.id,
        after: { card: masked, validUntil: new Date(rows[0]?.expires_at ?? 0).toISOString() },
      },
    ]);
    await page.context().close();
  });

  it('works as plain forms, before any JavaScript: the search answers with the card, « Renvoyer la carte » in French', async () => {
    const headers = {
      cookie: accountant.cookie,
      origin: server.url,
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': randomIp(),
    };
    const post = (fields: Record<string, string>) =>
      fetch(`${server.url}/admin/cartes-cadeaux`, {
        method: 'POST',
        redirect: 'manual',
        headers,
        body: new URLSearchParams(fields),
      });
    const found = await post({ intent: 'search', q: formatGiftCardCode(card.code) });
    expect(found.status).toBe(302);
    expect(found.headers.get('location')).toBe(`/admin/cartes-cadeaux?carte=${card.id}`);
    const typo = await post({ intent: 'search', q: `${card.code.slice(0, 15)}${card.code.endsWith('0') ? '1' : '0'}` });
    expect(typo.status).toBe(200);
    expect(plain(await typo.text())).toContain('Ce code n’est pas valide : vérifiez chaque symbole');

    const resent = await post({ intent: 'resend', cardId: card.id });
    expect(resent.status).toBe(200);
    expect(plain(await resent.text())).toContain(
      `Carte ••••-••••-••••-${card.code.slice(-4)} renvoyée à ${customer.email}.`,
    );
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from email_outbox where order_id = $1 and template = 'gift-card'
         and dedupe_key like 'gift-card-resend:%'`,
      [card.orderId],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('the workshop is refused by the door, reading or writing', async () => {
    const headers = { cookie: operator.cookie, origin: server.url, 'x-forwarded-for': randomIp() };
    const read = await fetch(`${server.url}/admin/cartes-cadeaux`, { headers, redirect: 'manual' });
    expect(read.status).toBe(403);
    const write = await fetch(`${server.url}/admin/cartes-cadeaux`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'extend', cardId: card.id, expiresOn: '2099-01-01' }),
    });
    expect(write.status).toBe(403);
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from audit_log where subject = $1 and actor_id = $2`,
      [card.orderId, operator.id],
    );
    expect(rows[0]?.n).toBe(0);

    const page = await openStaffPage(browser, server.url, operator.cookie, '/admin', DESKTOP);
    const tabs = page.getByRole('navigation', { name: 'Sections du tableau de bord' });
    await tabs.getByRole('link', { name: 'Commandes' }).waitFor();
    expect(await tabs.getByRole('link', { name: 'Cartes cadeaux' }).count()).toBe(0);
    // In a second tab of the session: Chromium logs a 403 document as a console error, which the
    // pages of openPage count as a failure.
    const denied = await page.context().newPage();
    const response = await denied.goto(`${server.url}/admin/cartes-cadeaux`);
    expect(response?.status()).toBe(403);
    await denied.getByRole('heading', { name: 'Accès non autorisé' }).waitFor();
    await expectNoSeriousA11yViolations(denied);
    await page.context().close();
  });
});
