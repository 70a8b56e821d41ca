import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeColissimo, startFakeColissimo } from '../../../tests/support/fake-colissimo';
import { insertOrder } from '../account/testing/fixtures';
import { saveAndCheckColishipCredentials } from '../admin/coliship.server';
import { db } from '../db/client.server';
import { configOptions, orderAddresses, orderEvents, orders, parcelTracking } from '../db/schema';
import { loadOrderJourney } from '../orders/journey.server';
import { ensureInboundLabel } from './labels.server';
import { shipOrder } from './shipping.server';
import {
  fetchParcelEvents,
  loadParcelTracking,
  refreshOrderParcels,
  refreshParcel,
  refreshParcelsInTransit,
} from './tracking.server';
import { loadTrackingKey, saveTrackingKey } from './tracking-settings.server';

let fake: FakeColissimo;

beforeAll(async () => {
  fake = await startFakeColissimo();
  // As in production: COLISSIMO_API_URL and LAPOSTE_TRACKING_API_URL, the key saved in the back office.
  process.env.COLISSIMO_API_URL = fake.url;
  process.env.LAPOSTE_TRACKING_API_URL = fake.trackingUrl;
  const saved = await saveAndCheckColishipCredentials({
    username: 'atelier',
    password: fake.password,
    contractNumber: fake.contractNumber,
  });
  expect(saved).toMatchObject({ ok: true, check: { ok: true } });
  expect(await saveTrackingKey({ apiKey: fake.trackingKey }, 'system')).toMatchObject({ ok: true, keySet: true });
});
afterAll(async () => {
  delete process.env.COLISSIMO_API_URL;
  delete process.env.LAPOSTE_TRACKING_API_URL;
  await fake.close();
});

/** A paid order with the prepaid label, its label made by the peer. */
async function postedLabelOrder() {
  const order = await insertOrder({ guestEmail: 'invite@example.fr', status: 'processing' });
  await db()
    .update(orders)
    .set({ sendMethod: 'label', paymentStatus: 'paid', paidAt: new Date(), deliveryMethod: 'usb' })
    .where(eq(orders.id, order.id));
  await db().insert(orderAddresses).values({
    orderId: order.id,
    kind: 'delivery',
    firstName: 'Jeanne',
    lastName: 'Martin',
    line1: '5 rue de Bourgogne',
    postalCode: '45000',
    city: 'Orléans',
    country: 'FR',
  });
  const label = await ensureInboundLabel(order.id);
  if (!label.ok) throw new Error(label.message);
  return { order, parcelNumber: label.parcelNumber };
}

const requestsFor = (parcelNumber: string) => fake.trackingRequests.filter((r) => r.parcelNumber === parcelNumber);
const minutesLater = (minutes: number) => new Date(Date.now() + minutes * 60_000);

async function postedEvents(orderId: string) {
  return db()
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, 'parcel_posted')));
}

describe('the tracking client against the local peer (La Poste Suivi v2)', () => {
  it('keeps the key encrypted and sends it as X-Okapi-Key', async () => {
    const [row] = await db().select().from(configOptions).where(eq(configOptions.optionName, 'laposte_tracking'));
    expect(row?.optionValue).not.toContain(fake.trackingKey);
    expect(await loadTrackingKey()).toBe(fake.trackingKey);
    const { parcelNumber } = await postedLabelOrder();
    const reading = await fetchParcelEvents(parcelNumber, { key: fake.trackingKey });
    expect(reading).toMatchObject({ ok: true, final: false, events: [{ code: 'DR1' }] });
    expect(requestsFor(parcelNumber).at(-1)?.key).toBe(fake.trackingKey);
    expect(await fetchParcelEvents(parcelNumber, { key: 'wrong' })).toMatchObject({ ok: false, reason: 'credentials' });
    expect(await fetchParcelEvents('6A00000000000', { key: fake.trackingKey })).toMatchObject({
      ok: false,
      reason: 'unknown',
    });
  });

  it('ticks « Colis envoyé » at the first scan, not at the label, and asks at most every N minutes', async () => {
    const { order, parcelNumber } = await postedLabelOrder();
    expect(await refreshParcel(parcelNumber, { minutes: 30 })).toBe('updated');
    let journey = await loadOrderJourney(order.id);
    expect(journey?.steps?.find((s) => s.id === 'sent')?.state).toBe('upcoming');
    expect(await postedEvents(order.id)).toHaveLength(0);

    // The next day (the peer writes whole seconds, as La Poste does).
    const scannedAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000);
    fake.scan(parcelNumber, 'PC1', { at: scannedAt });
    // Asked a minute ago: the stored events answer, the carrier is not asked again.
    const asked = requestsFor(parcelNumber).length;
    expect(await refreshParcel(parcelNumber, { minutes: 30 })).toBe('fresh');
    expect(requestsFor(parcelNumber)).toHaveLength(asked);

    expect(await refreshParcel(parcelNumber, { minutes: 30, now: minutesLater(31) })).toBe('updated');
    journey = await loadOrderJourney(order.id);
    expect(journey?.steps?.find((s) => s.id === 'sent')).toMatchObject({
      state: 'current',
      at: scannedAt.toISOString(),
    });
    const [parcel] = await loadParcelTracking(order.id);
    expect(parcel).toMatchObject({ direction: 'inbound', parcelNumber, final: false });
    expect(parcel?.events.map((e) => [e.code, e.label])).toEqual([
      ['PC1', 'Pris en charge par La Poste'],
      ['DR1', 'Étiquette créée, colis pas encore déposé'],
    ]);

    // Asked again later, with the same scan among the events: one history line, one copy of each event.
    fake.scan(parcelNumber, 'ET1', { at: new Date(scannedAt.getTime() + 3_600_000) });
    expect(await refreshParcel(parcelNumber, { minutes: 30, now: minutesLater(62) })).toBe('updated');
    expect(await postedEvents(order.id)).toHaveLength(1);
    expect((await loadParcelTracking(order.id))[0]?.events.map((e) => e.code)).toEqual(['ET1', 'PC1', 'DR1']);
  });

  it('stops asking about a delivered parcel; the job asks about the travelling ones only', async () => {
    const travelling = await postedLabelOrder();
    const delivered = await postedLabelOrder();
    fake.scan(delivered.parcelNumber, 'PC1');
    fake.scan(delivered.parcelNumber, 'DI1');
    const now = minutesLater(24 * 60);
    expect(await refreshParcelsInTransit(now, { minutes: 30 })).toBeGreaterThanOrEqual(2);
    const [state] = await db()
      .select()
      .from(parcelTracking)
      .where(eq(parcelTracking.parcelNumber, delivered.parcelNumber));
    expect(state?.final).toBe(true);

    const before = [requestsFor(travelling.parcelNumber).length, requestsFor(delivered.parcelNumber).length];
    await refreshParcelsInTransit(minutesLater(25 * 60), { minutes: 30 });
    expect(requestsFor(travelling.parcelNumber)).toHaveLength((before[0] as number) + 1);
    expect(requestsFor(delivered.parcelNumber)).toHaveLength(before[1] as number);
    expect(await refreshParcel(delivered.parcelNumber, { minutes: 0, now: minutesLater(26 * 60) })).toBe('fresh');
  });

  it('follows the return parcel too, and asks nothing without a key or when the carrier is down', async () => {
    const { order, parcelNumber } = await postedLabelOrder();
    await db()
      .update(orders)
      .set({ status: 'completed', stage: 'ready', returnOriginals: true })
      .where(eq(orders.id, order.id));
    const shipped = await shipOrder(order.id, { mode: 'colissimo' }, 'staff');
    if (!shipped.ok) throw new Error(shipped.message);
    fake.scan(shipped.parcelNumber, 'PC1');
    await refreshOrderParcels(order.id, { minutes: 0 });
    const parcels = await loadParcelTracking(order.id);
    expect(parcels.map((p) => [p.direction, p.parcelNumber, p.events[0]?.code])).toEqual([
      ['inbound', parcelNumber, 'DR1'],
      ['outbound', shipped.parcelNumber, 'PC1'],
    ]);
    // The return's scan is not the customer's parcel being posted.
    expect(await postedEvents(order.id)).toHaveLength(0);

    const asked = fake.trackingRequests.length;
    expect(await refreshParcel(parcelNumber, { key: null, minutes: 0 })).toBe('not_configured');
    expect(fake.trackingRequests).toHaveLength(asked);
    fake.setDown(true);
    try {
      expect(await refreshParcel(parcelNumber, { minutes: 0, now: minutesLater(90) })).toBe('failed');
    } finally {
      fake.setDown(false);
    }
    const [state] = await db().select().from(parcelTracking).where(eq(parcelTracking.parcelNumber, parcelNumber));
    expect(state?.lastError).toMatch(/^unavailable/);
    // What was stored stays shown.
    expect((await loadParcelTracking(order.id))[0]?.events).toHaveLength(1);
  });
});
