import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomIp } from '../support/auth';
import { insertTestOrder, orderState, type TestOrder } from '../support/orders';
import { storePaymentConfig } from '../support/payments';
import { startServer, type TestServer } from '../support/server';

/*
 * Monetico over HTTP on the built app: the hand-over page with its sealed form, and the
 * server-to-server return (CGI2) answered byte for byte as Monetico expects.
 */

const KEY = 'A1B2C3D4E5F60718293A4B5C6D7E8F9012345678';
const TPE = '7654321';

let server: TestServer;

beforeAll(async () => {
  process.env.APP_SECRET = randomBytes(32).toString('hex');
  server = await startServer({ env: { APP_SECRET: process.env.APP_SECRET } });
  await storePaymentConfig(server.databaseUrl, {
    type: 'monetico',
    merchantId: TPE,
    companyCode: 'soovenirs',
    secretKey: KEY,
  });
});

afterAll(async () => {
  await server?.dispose();
});

/** The seal, computed here from Monetico's rule, independently of the shop's code. */
function seal(fields: Record<string, string>): string {
  const text = Object.keys(fields)
    .sort()
    .map((name) => `${name}=${fields[name]}`)
    .join('*');
  return createHmac('sha1', Buffer.from(KEY, 'hex')).update(text).digest('hex');
}

async function open(): Promise<{ order: TestOrder; reference: string; url: string }> {
  const order = await insertTestOrder(server.databaseUrl);
  const response = await fetch(`${server.url}/api/create-checkout`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: server.url,
      'x-forwarded-for': randomIp(),
      cookie: order.cookie as string,
    },
    body: JSON.stringify({ orderId: order.id, returnUrl: `/checkout?orderId=${order.id}` }),
  });
  expect(response.status).toBe(200);
  const { url, sessionId } = (await response.json()) as { url: string; sessionId: string };
  return { order, reference: sessionId, url };
}

async function cgi2(fields: Record<string, string>) {
  const response = await fetch(`${server.url}/api/webhooks/monetico`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('Monetico', () => {
  it('hands the customer over with a form sealed by the merchant key', async () => {
    const { order, reference, url } = await open();
    expect(url).toBe(`${server.url}/paiement/monetico/${reference}`);
    const html = await (await fetch(url)).text();
    expect(html).toContain('action="https://p.monetico-services.com/test/paiement.cgi"');
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
        m[1] as string,
        (m[2] as string).replaceAll('&amp;', '&'),
      ]),
    );
    const { MAC, ...sealed } = fields;
    expect(sealed).toMatchObject({ TPE, reference, montant: '94.90EUR', 'texte-libre': order.id, version: '3.0' });
    expect(MAC).toBe(seal(sealed));
  });

  it('answers the CGI2 return exactly, and pays the order on a sealed payment only', async () => {
    const { order, reference } = await open();
    const fields = {
      TPE,
      date: '21/11/2026_a_15:02:11',
      montant: '94.90EUR',
      reference,
      'texte-libre': order.id,
      'code-retour': 'payetest',
      cvx: 'oui',
      vld: '1230',
      brand: 'MC',
      status3ds: '1',
      numauto: '123456',
      originecb: 'FRA',
      bincb: '555555',
      hpancb: '0123456789ABCDEF0123456789ABCDEF01234567',
      ipclient: '192.0.2.44',
      originetr: 'FRA',
      modepaiement: 'CB',
      usage: 'debit',
      typecompte: 'particulier',
      ecard: 'non',
    };
    const before = await orderState(server.databaseUrl, order.id);
    const forged = await cgi2({ ...fields, MAC: seal({ ...fields, montant: '0.01EUR' }) });
    expect(forged).toEqual({ status: 200, bytes: Buffer.from('version=2\ncdr=1\n', 'ascii') });
    expect(await orderState(server.databaseUrl, order.id)).toEqual(before);

    const genuine = { ...fields, MAC: seal(fields) };
    for (let i = 0; i < 3; i++) {
      expect(await cgi2(genuine)).toEqual({ status: 200, bytes: Buffer.from('version=2\ncdr=0\n', 'ascii') });
    }
    const state = await orderState(server.databaseUrl, order.id);
    expect(state.paymentStatus).toBe('paid');
    expect(state.invoices).toHaveLength(1);
  });
});
