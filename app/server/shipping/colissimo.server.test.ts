import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeColissimo, startFakeColissimo } from '../../../tests/support/fake-colissimo';
import { insertOrder } from '../account/testing/fixtures';
import { db } from '../db/client.server';
import { orderAddresses, orderEvents, orders, shipments } from '../db/schema';
import { generateLabel, type LabelRequest } from './colissimo.server';
import { ensureInboundLabel, WORKSHOP_ADDRESS } from './labels.server';

let fake: FakeColissimo;
let credentials: { contractNumber: string; password: string };

beforeAll(async () => {
  fake = await startFakeColissimo();
  credentials = { contractNumber: fake.contractNumber, password: fake.password };
});
afterAll(() => fake.close());

const customer = {
  firstName: 'Marie',
  lastName: 'Curie',
  line2: '11 rue Pierre et Marie Curie',
  zipCode: '75005',
  city: 'Paris',
  countryCode: 'FR',
};

function request(overrides: Partial<LabelRequest> = {}): LabelRequest {
  return {
    orderNumber: 'SV-2026-000123',
    sender: WORKSHOP_ADDRESS,
    addressee: customer,
    insuredValueCents: 0,
    weightKg: 2,
    ...overrides,
  };
}

describe('generateLabel against the local Colissimo peer', () => {
  it('reads the multipart answer: the parcel number of its JSON part and the PDF of its label part', async () => {
    const result = await generateLabel(request(), { url: fake.url, credentials });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.parcelNumber).toMatch(/^6A\d{11}$/);
    expect(result.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(result.pdf.toString('latin1')).toContain(`Colis ${result.parcelNumber}`);
    expect(result.pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    const sent = fake.requests.at(-1)?.body as { letter: Record<string, Record<string, unknown>> };
    expect(sent.letter.service).toMatchObject({ productCode: 'DOM', orderNumber: 'SV-2026-000123' });
  });

  it('asks for an insured parcel with signature when an insured value is declared', async () => {
    const result = await generateLabel(request({ insuredValueCents: 50_000 }), { url: fake.url, credentials });
    expect(result.ok).toBe(true);
    const sent = fake.requests.at(-1)?.body as { letter: Record<string, Record<string, unknown>> };
    expect(sent.letter.service?.productCode).toBe('DOS');
    expect(sent.letter.parcel).toMatchObject({ insuranceValue: 50_000 });
  });

  it('says in French when Colissimo refuses the address, with its own words', async () => {
    const result = await generateLabel(request({ addressee: { ...customer, zipCode: '' } }), {
      url: fake.url,
      credentials,
    });
    expect(result).toMatchObject({
      ok: false,
      reason: 'refused',
      message: "Colissimo a refusé l’étiquette\u202F: Le code postal du destinataire n'est pas renseigné",
    });
  });

  it('says in French when the credentials are refused, or missing', async () => {
    expect(
      await generateLabel(request(), { url: fake.url, credentials: { ...credentials, password: 'faux' } }),
    ).toMatchObject({
      ok: false,
      reason: 'credentials',
      message: 'Colissimo a refusé les identifiants Coliship enregistrés dans le back office',
    });
    expect(await generateLabel(request(), { url: fake.url, credentials: null })).toMatchObject({
      ok: false,
      reason: 'not_configured',
      message: 'Les identifiants Coliship ne sont pas configurés dans le back office',
    });
  });

  it('says the service is unavailable when it is down or silent past the timeout', async () => {
    fake.setDown(true);
    try {
      expect(await generateLabel(request(), { url: fake.url, credentials })).toMatchObject({
        ok: false,
        reason: 'unavailable',
        message: 'Le service Colissimo ne répond pas pour le moment\u202F; réessayez dans quelques minutes',
      });
    } finally {
      fake.setDown(false);
    }
    // A peer that accepts the connection and never answers.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      expect(
        await generateLabel(request(), { url: `http://127.0.0.1:${port}`, credentials, timeoutMs: 200 }),
      ).toMatchObject({ ok: false, reason: 'unavailable' });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

async function paidLabelOrder() {
  const order = await insertOrder({ guestEmail: 'invite@example.fr', status: 'processing' });
  await db()
    .update(orders)
    .set({ sendMethod: 'label', paymentStatus: 'paid', paidAt: new Date() })
    .where(eq(orders.id, order.id));
  return order;
}

describe('ensureInboundLabel', () => {
  it('creates the prepaid label from the delivery address to the workshop, once, under concurrent calls', async () => {
    const order = await paidLabelOrder();
    await db().insert(orderAddresses).values({
      orderId: order.id,
      kind: 'delivery',
      firstName: 'Paul',
      lastName: 'Invité',
      line1: '3 place du Martroi',
      postalCode: '45000',
      city: 'Orléans',
      country: 'FR',
      phone: '0612345678',
    });
    const before = fake.parcelNumbers.length;
    const results = await Promise.all(
      [1, 2, 3].map(() => ensureInboundLabel(order.id, 'system', { url: fake.url, credentials })),
    );
    expect(fake.parcelNumbers.length - before).toBe(1);
    const parcelNumber = fake.parcelNumbers.at(-1);
    expect(results.map((r) => r.ok && r.parcelNumber)).toEqual([parcelNumber, parcelNumber, parcelNumber]);
    expect(results.filter((r) => r.ok && r.created)).toHaveLength(1);

    const sent = fake.requests.at(-1)?.body as {
      letter: { sender: { address: unknown }; addressee: { address: unknown } };
    };
    expect(sent.letter.sender.address).toMatchObject({ lastName: 'Invité', zipCode: '45000', city: 'Orléans' });
    expect(sent.letter.addressee.address).toMatchObject({ zipCode: '75004', city: 'Paris' });

    const rows = await db().select().from(shipments).where(eq(shipments.orderId, order.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ direction: 'inbound', carrier: 'colissimo', parcelNumber });
    expect(rows[0]?.labelPdf?.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.filter((e) => e.kind === 'label_created')).toMatchObject([
      { data: { direction: 'inbound', parcelNumber } },
    ]);
  });

  it('records the failure in the history and creates the label on a later call', async () => {
    const order = await paidLabelOrder();
    fake.setDown(true);
    try {
      expect(await ensureInboundLabel(order.id, 'system', { url: fake.url, credentials })).toMatchObject({
        ok: false,
        reason: 'service',
      });
    } finally {
      fake.setDown(false);
    }
    const failed = await db().select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(failed.filter((e) => e.kind === 'label_failed')).toHaveLength(1);
    // No delivery address frozen on this older order: the guest's own fields are used.
    await db()
      .update(orders)
      .set({ guestAddress: '8 rue Jeanne d’Arc', guestPostalCode: '45000', guestCity: 'Orléans' })
      .where(eq(orders.id, order.id));
    const retried = await ensureInboundLabel(order.id, 'customer', { url: fake.url, credentials });
    expect(retried).toMatchObject({ ok: true, created: true });
  });

  it('makes no label for an unpaid order or one without the prepaid label', async () => {
    const unpaid = await insertOrder({ guestEmail: 'invite@example.fr' });
    await db().update(orders).set({ sendMethod: 'label' }).where(eq(orders.id, unpaid.id));
    expect(await ensureInboundLabel(unpaid.id, 'system', { url: fake.url, credentials })).toMatchObject({
      ok: false,
      reason: 'not_paid',
    });
    const own = await insertOrder({ guestEmail: 'invite@example.fr' });
    expect(await ensureInboundLabel(own.id, 'system', { url: fake.url, credentials })).toMatchObject({
      ok: false,
      reason: 'not_needed',
    });
    const rows = await db().select().from(shipments).where(eq(shipments.orderId, unpaid.id));
    expect(rows).toHaveLength(0);
  });
});
