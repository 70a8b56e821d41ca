import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revealEmailData } from '~/server/email/sealed-data.server';
import { createUser } from '../support/auth';
import { billingFormFields } from '../support/billing';
import { type SharedServer, sharedServer } from '../support/shared-shop';

/*
 * The configurator and the quotes over HTTP, as a browser without JavaScript (or a forger) talks to
 * them: forged prices are ignored, bad input gets a French message and never a 500.
 */

describe('the configurator over HTTP', () => {
  let server: SharedServer;
  let client: pg.Client;

  async function query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await client.query(sql, params)).rows as T[];
  }

  function post(path: string, body: Record<string, string | string[]>, cookie?: string) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(body)) {
      for (const item of Array.isArray(value) ? value : [value]) form.append(key, item);
    }
    return fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: server.url,
        ...(cookie ? { cookie } : {}),
      },
      body: form,
    });
  }

  /** The page's text without tags, French spaces as spaces. */
  async function text(response: Response): Promise<string> {
    return (await response.text())
      .replace(/<script[\s\S]*?<\/script>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#x27;|&#39;/g, '’')
      .replace(/[\u00A0\u202F]/g, ' ')
      .replace(/\s+/g, ' ');
  }

  beforeAll(async () => {
    server = await sharedServer();
    // The test reads the outbox's encrypted links: it shares the server's APP_SECRET.
    process.env.APP_SECRET = server.appSecret;
    client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await server?.dispose();
  });

  it('creates an order with the server’s prices, whatever prices the form carries', async () => {
    const response = await post('/configurateur', {
      support: ['photos', 'film'],
      'photos.quantity': '100',
      'photos.resolution': '4800dpi',
      'photos.format': 'tif',
      'film.reels.medium': '2',
      delivery: 'usb',
      intent: 'order',
      priceListVersion: '1',
      // Forged: none of these is read.
      totalPrice: '1',
      total_price: '1',
      totalPriceCents: '1',
      basePrice: '0',
      'photos.unitPrice': '0',
      'photos.basePrice': '0',
      deliveryCost: '0',
      delivery_cost: '0',
    });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!, server.url);
    expect(location.pathname).toBe('/checkout');
    const orderId = location.searchParams.get('orderId')!;

    const [order] = await query('select * from orders where id = $1', [orderId]);
    expect(order).toMatchObject({
      total_price: 12_426,
      base_price: 8500,
      resolution_price: 1575,
      format_price: 761,
      delivery_cost: 1590,
      status: 'pending',
      payment_status: 'pending',
      user_id: null,
    });
    // Numbered in the shop's series (the shared server's other files may have placed orders before).
    expect(order?.number).toMatch(/^SV-\d{4}-\d{6}$/);

    // The guest's access: an HttpOnly, SameSite=Lax cookie whose SHA-256 is the order's hash.
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith(`sv_order_${orderId}=`))!;
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    const token = setCookie.split(';')[0]!.split('=')[1]!;
    expect(createHash('sha256').update(token).digest('hex')).toBe(order?.access_token_hash);
    expect(await query('select kind from order_events where order_id = $1', [orderId])).toEqual([{ kind: 'created' }]);
    // A draft until the customer confirms it at checkout: the back office is not told yet.
    expect(await query('select kind, status from notifications where order_id = $1', [orderId])).toEqual([]);
  });

  it('sends the confirmation e-mail through the outbox once the signed-in customer confirms at checkout', async () => {
    const customer = await createUser({ url: server.url, firstName: 'Hélène' });
    const response = await post(
      '/configurateur',
      { support: 'vhs', 'vhs.quantity': '2', intent: 'order', priceListVersion: '1' },
      customer.cookie,
    );
    expect(response.status).toBe(302);
    expect(response.headers.getSetCookie().some((c) => c.startsWith('sv_order_'))).toBe(false);
    const orderId = new URL(response.headers.get('location')!, server.url).searchParams.get('orderId');
    const mailsOf = () => query('select id from email_outbox where order_id = $1', [orderId]);
    // « Commander » makes a draft: nothing is sent before the customer confirms it.
    expect(await mailsOf()).toEqual([]);
    const confirmed = await post(
      `/checkout?orderId=${orderId}`,
      { intent: 'pay', paymentMethod: 'transfer', earlyStartConsent: 'on', ...billingFormFields() },
      customer.cookie,
    );
    expect(confirmed.status).toBe(302);
    const mails = await query<{ to: string; template: string; data: { totalCents: number } }>(
      'select "to", template, data from email_outbox where order_id = $1',
      [orderId],
    );
    expect(mails).toMatchObject([{ to: customer.email, template: 'order-confirmation', data: { totalCents: 3400 } }]);
  });

  it.each<[string, string, string]>([
    ['an unknown support', 'support=cassettes-audio', 'Support inconnu : « cassettes-audio ».'],
    ['a quantity of zero', 'support=photos&photos.quantity=0', 'La quantité doit être comprise entre 1 et 100 000.'],
    ['a quantity too large', 'support=vhs&vhs.quantity=1000000', 'La quantité doit être comprise entre 1 et 100 000.'],
    ['a decimal quantity', 'support=photos&photos.quantity=1.5', 'La quantité doit être un nombre entier.'],
    ['words for a quantity', 'support=photos&photos.quantity=%3Cscript%3E', 'La quantité doit être un nombre entier.'],
    ['an unknown resolution', 'support=photos&photos.resolution=9600dpi', 'Résolution inconnue.'],
    ['an unknown reel size', 'support=film&film.reels.geante=1', 'Taille de bobine inconnue : « geante ».'],
    ['an unknown delivery', 'support=vhs&delivery=pigeon', 'Mode de livraison inconnu.'],
    ['a repeated field', 'support=vhs&vhs.quantity=1&vhs.quantity=2', 'Valeur invalide.'],
    ['a price nested in a field', 'support=film&film.reels.medium=2&film.reels.medium.price=0', 'Valeur invalide.'],
  ])('answers %s in a link with a French message, not an error', async (_name, query, message) => {
    const response = await fetch(`${server.url}/configurateur?${query}`);
    expect(response.status).toBe(200);
    expect(await text(response)).toContain(message);
  });

  it.each<[string, Record<string, string | string[]>, number, string]>([
    ['no support', { intent: 'order', priceListVersion: '1' }, 400, 'Choisissez au moins un support à numériser.'],
    [
      'a negative quantity',
      { support: 'photos', 'photos.quantity': '-3', intent: 'order' },
      400,
      'La quantité doit être comprise entre 1 et 100 000.',
    ],
    [
      'more restorations than photos',
      { support: 'photos', 'photos.quantity': '5', 'photos.restoration': '6', intent: 'save' },
      400,
      'Le nombre d’éléments à restaurer doit être compris entre 0 et la quantité (5).',
    ],
    [
      'an unknown intent',
      { support: 'photos', 'photos.quantity': '5', intent: 'payer' },
      400,
      'Action inconnue : utilisez les boutons du formulaire.',
    ],
    [
      'prices that changed since the page was shown',
      { support: 'photos', 'photos.quantity': '5', intent: 'order', priceListVersion: '999' },
      409,
      'Les tarifs viennent d’être mis à jour : vérifiez le nouveau montant avant de continuer.',
    ],
    [
      'an order too large for the shop online',
      {
        support: ['vhs', 'vhs-c', 'minidv', 'film'],
        'vhs.quantity': '100000',
        'vhs.quality': 'premium',
        'vhs.denoise': 'on',
        'vhs-c.quantity': '100000',
        'vhs-c.quality': 'premium',
        'vhs-c.denoise': 'on',
        'minidv.quantity': '100000',
        'minidv.quality': 'premium',
        'minidv.denoise': 'on',
        'film.reels.large': '100000',
        'film.quality': 'premium',
        'film.denoise': 'on',
        intent: 'order',
      },
      400,
      'Le montant estimé dépasse 10 000 000 € : contactez-nous pour un devis sur mesure.',
    ],
  ])('refuses to order or save %s, with a French message', async (_name, body, status, message) => {
    const before = await query<{ orders: number; quotes: number }>(
      'select (select count(*)::int from orders) as orders, (select count(*)::int from quotes) as quotes',
    );
    const response = await post('/configurateur', body);
    expect(response.status).toBe(status);
    expect(await text(response)).toContain(message);
    expect(
      await query('select (select count(*)::int from orders) as orders, (select count(*)::int from quotes) as quotes'),
    ).toEqual(before);
  });

  it('saves a guest quote behind a private link, e-mails it, and orders it', async () => {
    const saved = await post('/configurateur', {
      support: 'slides',
      'slides.quantity': '100',
      'slides.format': 'tif',
      intent: 'save',
      totalPrice: '0',
    });
    expect(saved.status).toBe(302);
    const link = saved.headers.get('location')!;
    expect(link).toMatch(/^\/devis\/[A-Za-z0-9_-]{43}\?enregistre=1$/);
    const token = link.slice('/devis/'.length, link.indexOf('?'));
    const [quote] = await query<{ id: string; total_price: number }>(
      'select id, total_price from quotes where access_token_hash = $1',
      [createHash('sha256').update(token).digest('hex')],
    );
    expect(quote?.total_price).toBe(5175);

    const page = await fetch(`${server.url}${link}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    const content = await text(page);
    expect(content).toContain('Votre devis est enregistré.');
    expect(content).toContain('51,75 €');
    expect((await fetch(`${server.url}/devis/${token.slice(0, -2)}xx`)).status).toBe(404);
    expect((await fetch(`${server.url}/devis/nimportequoi`)).status).toBe(404);

    const invalid = await post(`/devis/${token}`, { intent: 'email', email: 'pas-une-adresse' });
    expect(invalid.status).toBe(400);
    expect(await text(invalid)).toContain('Adresse e-mail invalide.');
    const mailed = await post(`/devis/${token}`, { intent: 'email', email: 'visiteur@example.fr' });
    expect(mailed.status).toBe(200);
    expect(await text(mailed)).toContain('Devis envoyé à visiteur@example.fr.');
    const [mail] = await query<{ to: string; data: { quoteUrl: string; totalCents: number } }>(
      `select "to", data from email_outbox where template = 'quote-saved' and "to" = 'visiteur@example.fr'`,
    );
    // The link is the quote's token: stored encrypted, decrypted by the e-mail worker only.
    expect(JSON.stringify(mail?.data)).not.toContain(token);
    expect(revealEmailData('quote-saved', mail?.data)).toMatchObject({
      quoteUrl: `${server.url}/devis/${token}`,
      totalCents: 5175,
    });
    // The address typed to receive the quote is not remembered, nor shown to whoever opens the link.
    expect(await text(await fetch(`${server.url}/devis/${token}`))).not.toContain('visiteur@example.fr');

    const ordered = await post(`/devis/${token}`, { intent: 'order', priceListVersion: '1', totalPrice: '1' });
    expect(ordered.status).toBe(302);
    const orderId = new URL(ordered.headers.get('location')!, server.url).searchParams.get('orderId');
    // Whoever held the link chose that address: it is not the order's contact.
    expect(await query('select total_price, guest_email from orders where id = $1', [orderId])).toEqual([
      { total_price: 5175, guest_email: null },
    ]);
    const guestCookie = ordered.headers.getSetCookie()[0]!.split(';')[0]!;
    const checkout = await fetch(`${server.url}/checkout?orderId=${orderId}`, { headers: { cookie: guestCookie } });
    expect(await text(checkout)).not.toContain('visiteur@example.fr');
    // The customer types their own address at checkout, sent with « Payer »; the confirmation (with
    // the token) goes there only.
    const confirmed = await post(
      `/checkout?orderId=${orderId}`,
      {
        intent: 'pay',
        paymentMethod: 'cheque',
        earlyStartConsent: 'on',
        'contact.email': 'cliente@example.fr',
        ...billingFormFields({ firstName: 'Lucie' }),
      },
      guestCookie,
    );
    expect(confirmed.status).toBe(302);
    const confirmations = await query<{ to: string; data: { orderUrl: string } }>(
      `select "to", data from email_outbox where template = 'order-confirmation' and order_id = $1`,
      [orderId],
    );
    expect(confirmations.map((c) => c.to)).toEqual(['cliente@example.fr']);
    expect(JSON.stringify(confirmations)).not.toMatch(/token=/);
    const orderUrl = (revealEmailData('order-confirmation', confirmations[0]?.data) as { orderUrl: string }).orderUrl;
    expect(orderUrl).toMatch(new RegExp(`/confirmation\\?orderId=${orderId}&token=[A-Za-z0-9_-]{43}$`));
    expect(await query(`select count(*)::int as n from email_outbox where "to" = 'visiteur@example.fr'`)).toEqual([
      { n: 1 },
    ]);

    // Ordering again with the order's cookie finds the same order (a double click); without it, a new one.
    const again = await post(`/devis/${token}`, { intent: 'order', priceListVersion: '1' }, guestCookie);
    expect(new URL(again.headers.get('location')!, server.url).searchParams.get('orderId')).toBe(orderId);
  });

  it('keeps a customer’s quotes to themselves', async () => {
    const owner = await createUser({ url: server.url });
    const other = await createUser({ url: server.url });
    const saved = await post('/configurateur', { support: 'vhs', intent: 'save' }, owner.cookie);
    const path = saved.headers.get('location')!.replace(/\?.*$/, '');
    expect(path).toMatch(/^\/mes-devis\/[0-9a-f-]{36}$/);

    expect((await fetch(`${server.url}${path}`, { headers: { cookie: owner.cookie } })).status).toBe(200);
    expect((await fetch(`${server.url}${path}`, { headers: { cookie: other.cookie } })).status).toBe(404);
    const anonymous = await fetch(`${server.url}${path}`, { redirect: 'manual' });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    expect((await post(path, { intent: 'order' }, other.cookie)).status).toBe(404);
    expect((await fetch(`${server.url}/mes-devis/pas-un-uuid`, { headers: { cookie: owner.cookie } })).status).toBe(
      404,
    );

    const list = await text(await fetch(`${server.url}/mes-devis`, { headers: { cookie: other.cookie } }));
    expect(list).toContain('Vous n’avez pas encore enregistré de devis.');
    const signedOut = await text(await fetch(`${server.url}/mes-devis`));
    expect(signedOut).toContain('Connectez-vous pour retrouver les devis enregistrés avec votre compte.');
  });

  it('tells pages the active price list version, with an ETag', async () => {
    const response = await fetch(`${server.url}/api/price-list`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { version: number; data: { deliveryCosts: unknown } };
    expect(body.version).toBeGreaterThanOrEqual(1);
    expect(body.data.deliveryCosts).toEqual({ digital: 0, usb: 1590, disc: 1290 });
    const etag = response.headers.get('etag')!;
    const again = await fetch(`${server.url}/api/price-list`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});
