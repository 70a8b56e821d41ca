import { describe, expect, it } from 'vitest';
import { loader as jobSheetLoader } from '~/routes/admin/job-sheet-pdf';
import { loader as slipLoader } from '~/routes/shop/order-slip-pdf';
import { isPdf, pdfText } from '../../../tests/support/pdf';
import { insertOrder, registeredAccount, requestWith, TEST_BASE } from '../account/testing/fixtures';
import { db } from '../db/client.server';
import { receptions } from '../db/schema';
import { createOrderAccessToken, orderAccessCookieName } from '../orders/access.server';

process.env.BASE_URL = TEST_BASE;

type SlipArgs = Parameters<typeof slipLoader>[0];
type SheetArgs = Parameters<typeof jobSheetLoader>[0];

async function slip(orderId: string, cookies: string[] = []): Promise<Response> {
  const request = requestWith(`/commande/${orderId}/bordereau.pdf`, cookies);
  try {
    return await slipLoader({ request, params: { orderId }, context: {} } as unknown as SlipArgs);
  } catch (thrown) {
    return thrownResponse(thrown);
  }
}

async function jobSheet(orderId: string, cookies: string[] = []): Promise<Response> {
  const request = requestWith(`/admin/commandes/${orderId}/fiche-atelier.pdf`, cookies);
  try {
    return await jobSheetLoader({ request, params: { orderId }, context: {} } as unknown as SheetArgs);
  } catch (thrown) {
    return thrownResponse(thrown);
  }
}

/** A loader's thrown `data(…, { status })` or Response, as the status a browser would get. */
function thrownResponse(thrown: unknown): Response {
  if (thrown instanceof Response) return thrown;
  const init = (thrown as { init?: { status?: number } }).init;
  if (init?.status) return new Response(null, { status: init.status });
  throw thrown;
}

async function text(response: Response): Promise<string> {
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(isPdf(bytes)).toBe(true);
  // The PDF cuts lines into runs (and wraps long ones): compare the words, not the layout.
  return pdfText(bytes).replace(/\s+/g, ' ');
}

describe('the order slip /commande/:id/bordereau.pdf', () => {
  it('gives the owner a PDF with the order number, the supports declared and the workshop address', async () => {
    const owner = await registeredAccount();
    const order = await insertOrder({ userId: owner.id });
    const response = await slip(order.id, [owner.cookie]);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    const content = await text(response);
    expect(content).toContain(order.number);
    expect(content).toContain('Bordereau d’envoi des originaux');
    expect(content).toContain('Photos papier');
    expect(content).toContain('Quantité : 120');
    expect(content).toContain('12 rue des Archives');
    expect(content).toContain('75004 Paris');
  });

  it('opens for the guest holding the token and an administrator, and is a 404 for anyone else', async () => {
    const { token, hash } = createOrderAccessToken();
    const order = await insertOrder({ guestEmail: 'paul@example.fr', accessTokenHash: hash });
    const admin = await registeredAccount('admin');
    const stranger = await registeredAccount();
    expect((await slip(order.id, [`${orderAccessCookieName(order.id)}=${token}`])).status).toBe(200);
    expect((await slip(order.id, [admin.cookie])).status).toBe(200);
    expect((await slip(order.id, [stranger.cookie])).status).toBe(404);
    expect((await slip(order.id)).status).toBe(404);
    expect((await slip('00000000-0000-4000-8000-000000000000', [admin.cookie])).status).toBe(404);
  });
});

describe('the job sheet /admin/commandes/:id/fiche-atelier.pdf', () => {
  it('gives the staff the number, the items with options, the delay and the reception remarks', async () => {
    const admin = await registeredAccount('admin');
    const order = await insertOrder({ guestEmail: 'paul@example.fr' });
    await db()
      .insert(receptions)
      .values({
        orderId: order.id,
        receivedAt: new Date(),
        receivedBy: admin.id,
        receivedByName: 'Jeanne Martin',
        counts: [],
        remarks: [{ group: 'vhs', text: 'Cassette cassée, bande à réparer' }],
      });
    const response = await jobSheet(order.id, [admin.cookie]);
    expect(response.status).toBe(200);
    const content = await text(response);
    expect(content).toContain('Fiche atelier');
    expect(content).toContain(order.number);
    expect(content).toContain('Délai standard');
    expect(content).toContain('Cassettes VHS');
    expect(content).toContain('Cassette cassée, bande à réparer');
    expect(content).toContain('Paul Invité');
  });

  it('shows what was counted at reception, with the declared quantity when it differs', async () => {
    const admin = await registeredAccount('admin');
    const order = await insertOrder({ guestEmail: 'paul@example.fr' });
    const before = await text(await jobSheet(order.id, [admin.cookie]));
    expect(before).toContain('SUPPORTS DÉCLARÉS');
    expect(before).toContain('Quantité : 120');
    await db()
      .insert(receptions)
      .values({
        orderId: order.id,
        receivedAt: new Date(),
        receivedBy: admin.id,
        receivedByName: 'Jeanne Martin',
        counts: [
          { key: 'line-0', label: 'Photos papier', type: 'photos', ordered: 120, counted: 100 },
          { key: 'line-1', label: 'Cassettes VHS', type: 'vhs', ordered: 2, counted: 2 },
          { key: 'reel-small', label: 'Bobine 8 mm (15 m)', type: 'film', ordered: 0, counted: 1 },
        ],
        remarks: [],
      });
    const content = await text(await jobSheet(order.id, [admin.cookie]));
    expect(content).toContain('SUPPORTS COMPTÉS À LA RÉCEPTION');
    expect(content).toContain('Quantité : 100 (déclaré : 120)');
    expect(content).toContain('Quantité : 2 ');
    expect(content).not.toContain('Quantité : 2 (déclaré');
    expect(content).toContain('Bobine 8 mm (15 m) Quantité : 1 (déclaré : 0)');
    // The customer's slip stays what they declared.
    const owner = await text(await slip(order.id, [admin.cookie]));
    expect(owner).toContain('Quantité : 120');
    expect(owner).not.toContain('déclaré :');
  });

  it('is refused to customers and anonymous visitors', async () => {
    const owner = await registeredAccount();
    const order = await insertOrder({ userId: owner.id });
    expect((await jobSheet(order.id, [owner.cookie])).status).toBe(403);
    expect((await jobSheet(order.id)).status).toBe(401);
  });
});
