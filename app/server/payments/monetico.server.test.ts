import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { insertTestOrder, orderState, type TestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { createCheckout } from './checkout.server';
import { loadPaymentConfig, savePaymentConfig } from './config.server';
import { moneticoFormFor } from './monetico.server';
import { handlePaymentWebhook } from './webhooks.server';

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const KEY = '0123456789ABCDEF0123456789ABCDEF01234567';
const TPE = '1234567';
const databaseUrl = () => process.env.DATABASE_URL as string;

/** Monetico's seal, computed here independently of the shop's code. */
function seal(fields: Record<string, string>): string {
  const text = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('*');
  return createHmac('sha1', Buffer.from(KEY, 'hex')).update(text, 'utf8').digest('hex').toUpperCase();
}

async function configure(testMode = true) {
  await db().execute(sql`delete from config_options`);
  const saved = await savePaymentConfig({
    type: 'monetico',
    testMode,
    merchantId: TPE,
    companyCode: 'soovenirs',
    secretKey: KEY,
  });
  expect(saved.success).toBe(true);
}

beforeEach(() => configure());

function cgi2(reference: string, order: TestOrder, changes: Record<string, string> = {}) {
  const fields: Record<string, string> = {
    TPE,
    date: '21/11/2026_a_14:32:10',
    montant: `${(order.totalCents / 100).toFixed(2)}EUR`,
    reference,
    'texte-libre': order.id,
    'code-retour': 'payetest',
    cvx: 'oui',
    vld: '1230',
    brand: 'VI',
    status3ds: '-1',
    numauto: '010101',
    originecb: 'FRA',
    bincb: '424242',
    hpancb: 'F6FBF44A7EC30941DA2E7AC4D8D5D5F3C4A3B6E8',
    ipclient: '192.0.2.10',
    originetr: 'FRA',
    modepaiement: 'CB',
    usage: 'credit',
    typecompte: 'particulier',
    ecard: 'non',
    ...changes,
  };
  return { ...fields, MAC: seal(fields) };
}

async function post(fields: Record<string, string>) {
  const response = await handlePaymentWebhook(
    'monetico',
    new Request('https://www.soovenirs.test/api/webhooks/monetico', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }),
  );
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

async function open(): Promise<{ order: TestOrder; reference: string }> {
  const order = await insertTestOrder(databaseUrl());
  const session = await createCheckout({ orderId: order.id, returnUrl: `/checkout?orderId=${order.id}` });
  expect(session.url).toBe(`https://www.soovenirs.test/paiement/monetico/${session.sessionId}`);
  return { order, reference: session.sessionId };
}

describe('Monetico payment form', () => {
  it('is sealed with the merchant key over the sorted fields (version 3.0)', async () => {
    const { order, reference } = await open();
    expect(reference).toMatch(/^[A-Z0-9]{12}$/);
    const form = await moneticoFormFor(reference, await loadPaymentConfig());
    expect(form?.action).toBe('https://p.monetico-services.com/test/paiement.cgi');
    const { MAC, ...fields } = form?.fields ?? {};
    expect(fields).toMatchObject({
      TPE,
      version: '3.0',
      lgue: 'FR',
      societe: 'soovenirs',
      reference,
      montant: '94.90EUR',
      mail: 'invite@example.fr',
      'texte-libre': order.id,
      url_retour_ok: `https://www.soovenirs.test/checkout?orderId=${order.id}`,
      url_retour_err: `https://www.soovenirs.test/checkout?orderId=${order.id}&canceled=true`,
    });
    expect(fields.date).toMatch(/^\d{2}\/\d{2}\/\d{4}:\d{2}:\d{2}:\d{2}$/);
    expect(JSON.parse(Buffer.from(fields.contexte_commande as string, 'base64').toString('utf8'))).toEqual({
      billing: {
        firstName: 'Marie',
        lastName: 'Curie',
        email: 'invite@example.fr',
        addressLine1: '11 rue Pierre et Marie Curie',
        city: 'Paris',
        postalCode: '75005',
        country: 'FR',
      },
    });
    expect(MAC?.toUpperCase()).toBe(seal(fields));
  });

  it('uses the production page out of test mode, and is refused for an unknown reference', async () => {
    await configure(false);
    const { reference } = await open();
    expect((await moneticoFormFor(reference, await loadPaymentConfig()))?.action).toBe(
      'https://p.monetico-services.com/paiement.cgi',
    );
    expect(await moneticoFormFor('ZZZZZZZZZZZZ', await loadPaymentConfig())).toBeNull();
  });
});

describe('Monetico server-to-server return (CGI2)', () => {
  it('pays the order on a sealed "payetest" and answers exactly version=2\\ncdr=0\\n, once however often', async () => {
    const { order, reference } = await open();
    const fields = cgi2(reference, order);
    for (let i = 0; i < 3; i++) {
      expect(await post(fields)).toEqual({
        status: 200,
        type: 'text/plain; charset=utf-8',
        body: 'version=2\ncdr=0\n',
      });
    }
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({
      paymentStatus: 'paid',
      payments: [{ provider: 'monetico', status: 'paid', amount: order.totalCents }],
    });
    expect(state.invoices).toHaveLength(1);
  });

  it('answers exactly version=2\\ncdr=1\\n to a wrong seal and changes nothing', async () => {
    const { order, reference } = await open();
    const before = await orderState(databaseUrl(), order.id);
    const forged = { ...cgi2(reference, order), montant: '0.01EUR' };
    expect(await post(forged)).toEqual({ status: 200, type: 'text/plain; charset=utf-8', body: 'version=2\ncdr=1\n' });
    expect((await post({ ...cgi2(reference, order), TPE: '7654321' })).body).toBe('version=2\ncdr=1\n');
    const { MAC: _, ...unsealed } = cgi2(reference, order);
    expect((await post(unsealed)).body).toBe('version=2\ncdr=1\n');
    expect(await orderState(databaseUrl(), order.id)).toEqual(before);
  });

  it('records a refused payment ("Annulation"), leaving the order unpaid', async () => {
    const { order, reference } = await open();
    const refused = cgi2(reference, order, { 'code-retour': 'Annulation', motifrefus: 'Refus' });
    expect((await post(refused)).body).toBe('version=2\ncdr=0\n');
    expect(await orderState(databaseUrl(), order.id)).toMatchObject({
      paymentStatus: 'failed',
      invoices: [],
      payments: [{ status: 'failed' }],
    });
  });

  it('acknowledges but ignores a test payment on a shop in production mode', async () => {
    await configure(false);
    const { order, reference } = await open();
    const before = await orderState(databaseUrl(), order.id);
    expect((await post(cgi2(reference, order))).body).toBe('version=2\ncdr=0\n');
    expect(await orderState(databaseUrl(), order.id)).toEqual(before);
    expect((await post(cgi2(reference, order, { 'code-retour': 'paiement' }))).body).toBe('version=2\ncdr=0\n');
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('paid');
  });

  it('does not pay the order for another amount', async () => {
    const { order, reference } = await open();
    expect((await post(cgi2(reference, order, { montant: '1.00EUR' }))).body).toBe('version=2\ncdr=0\n');
    expect(await orderState(databaseUrl(), order.id)).toMatchObject({ paymentStatus: 'pending', invoices: [] });
  });
});
