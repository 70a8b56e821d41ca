import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { orderEvent } from '~/domain/orders/events';
import {
  type CarrierEvent,
  carrierEventLabel,
  firstPickupEvent,
  type ParcelTrackingView,
  readTrackingAnswer,
  type TrackingReading,
} from '~/domain/shipping/carrier-events';
import { trackingUrl } from '~/domain/shipping/tracking';

export type { ParcelTrackingView };

import { db } from '../db/client.server';
import { orderEvents, orders, parcelEvents, parcelTracking, shipments } from '../db/schema';
import { log } from '../log.server';
import { loadTrackingKey, trackingApiUrl } from './tracking-settings.server';

/*
 * The parcels' carrier events (decision 026): a client of La Poste's tracking service
 * (API « Suivi » v2: `GET {LAPOSTE_TRACKING_API_URL}/idships/{parcelNumber}?lang=fr_FR` with the
 * key saved in the back office as `X-Okapi-Key`), which tracks Colissimo's parcels, and the store
 * of what it said (tables parcel_tracking and parcel_events).
 *
 * The carrier is never hammered: a parcel is asked about at most once every TRACKING_REFRESH_MINUTES
 * (30 by default), whoever asks — the customer's order page on view, or the housekeeping job for the
 * parcels still travelling — because the right to ask is claimed in the database first (one
 * UPDATE … WHERE checked_at < now − N), so that two pages or two instances never ask at once. A
 * delivered parcel (`isFinal`) is never asked again; a parcel is followed for 60 days at most.
 *
 * The carrier's first scan of the originals' parcel (any event past the label's announcement)
 * writes `parcel_posted` in the order's history once: the journey's « Colis envoyé ». It changes no
 * state of the order (the workshop's `receive` does, through the lifecycle), so it is a history
 * line like the label's, not a transition. Nothing here throws.
 */

export const TRACKING_TIMEOUT_MS = 5_000;
/** Parcels older than this are not followed any more (a label printed and never posted). */
export const TRACKING_MAX_AGE_DAYS = 60;
const JOB_BATCH = 50;

export function refreshMinutes(): number {
  const value = Number(process.env.TRACKING_REFRESH_MINUTES);
  return process.env.TRACKING_REFRESH_MINUTES !== undefined && Number.isInteger(value) && value >= 0 ? value : 30;
}

export interface TrackingOptions {
  url?: string;
  /** The key; by default the one saved in the back office. */
  key?: string | null;
  timeoutMs?: number;
  now?: Date;
  /** Minimum minutes between two questions about one parcel. */
  minutes?: number;
}

/** Asks the service about one parcel. Never throws. */
export async function fetchParcelEvents(
  parcelNumber: string,
  { url = trackingApiUrl(), key, timeoutMs = TRACKING_TIMEOUT_MS }: TrackingOptions & { key: string },
): Promise<TrackingReading> {
  try {
    const response = await fetch(`${url}/idships/${encodeURIComponent(parcelNumber)}?lang=fr_FR`, {
      headers: { accept: 'application/json', 'X-Okapi-Key': key },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // A proxy's page, an outage: the status says what to make of it.
    }
    if (body === null && response.ok) return { ok: false, reason: 'unreadable', detail: 'réponse non JSON' };
    return readTrackingAnswer(response.status, body);
  } catch (error) {
    return { ok: false, reason: 'unavailable', detail: (error as Error).message };
  }
}

/**
 * Claims the right to ask the carrier about a parcel now: true when it was never asked, or last
 * asked more than `minutes` ago and not delivered. The claim is the row's update itself.
 */
async function claimParcel(parcelNumber: string, now: Date, minutes: number): Promise<boolean> {
  const threshold = new Date(now.getTime() - minutes * 60_000);
  const claimed = await db()
    .insert(parcelTracking)
    .values({ parcelNumber, checkedAt: now })
    .onConflictDoUpdate({
      target: parcelTracking.parcelNumber,
      set: { checkedAt: now },
      setWhere: and(eq(parcelTracking.final, false), lt(parcelTracking.checkedAt, threshold)),
    })
    .returning({ parcelNumber: parcelTracking.parcelNumber });
  return claimed.length > 0;
}

export type RefreshOutcome = 'not_configured' | 'fresh' | 'updated' | 'failed';

/** Asks the carrier about one parcel when its events are older than N minutes, and stores the answer. */
export async function refreshParcel(parcelNumber: string, options: TrackingOptions = {}): Promise<RefreshOutcome> {
  try {
    const key = options.key === undefined ? await loadTrackingKey() : options.key;
    if (!key) return 'not_configured';
    const now = options.now ?? new Date();
    if (!(await claimParcel(parcelNumber, now, options.minutes ?? refreshMinutes()))) return 'fresh';
    const reading = await fetchParcelEvents(parcelNumber, { ...options, key });
    if (!reading.ok) {
      await db()
        .update(parcelTracking)
        .set({ lastError: `${reading.reason}: ${reading.detail}`.slice(0, 500) })
        .where(eq(parcelTracking.parcelNumber, parcelNumber));
      if (reading.reason !== 'unknown') log.warn({ parcelNumber, ...reading }, 'La Poste tracking failed');
      return 'failed';
    }
    await storeEvents(parcelNumber, reading.events, reading.final);
    await recordFirstScan(parcelNumber);
    return 'updated';
  } catch (error) {
    log.error({ err: error, parcelNumber }, 'the parcel’s tracking could not be refreshed');
    return 'failed';
  }
}

async function storeEvents(parcelNumber: string, events: CarrierEvent[], final: boolean): Promise<void> {
  await db().transaction(async (tx) => {
    if (events.length > 0) {
      await tx
        .insert(parcelEvents)
        // The carrier lists the newest first: stored oldest first, so that two scans of the same
        // second keep the carrier's order when read back newest first (by date, then id).
        .values(
          [...events]
            .reverse()
            .map((event) => ({ parcelNumber, code: event.code, label: event.label, at: new Date(event.at) })),
        )
        .onConflictDoNothing();
    }
    await tx
      .update(parcelTracking)
      .set({ final, lastError: null })
      .where(eq(parcelTracking.parcelNumber, parcelNumber));
  });
}

/** The stored events of a parcel, newest first. */
async function storedEvents(parcelNumber: string): Promise<CarrierEvent[]> {
  const rows = await db()
    .select({ code: parcelEvents.code, label: parcelEvents.label, at: parcelEvents.at })
    .from(parcelEvents)
    .where(eq(parcelEvents.parcelNumber, parcelNumber))
    .orderBy(desc(parcelEvents.at), desc(parcelEvents.id));
  return rows.map((row) => ({ code: row.code, label: row.label, at: row.at.toISOString() }));
}

/**
 * The first scan of an order's originals' parcel, written once in its history (`parcel_posted`,
 * dated by the carrier): the journey's « Colis envoyé ». The order row is held (NO KEY UPDATE,
 * which the history's inserts do not wait for) so that two refreshes write it once.
 */
async function recordFirstScan(parcelNumber: string): Promise<void> {
  const parcels = await db()
    .select({ orderId: shipments.orderId })
    .from(shipments)
    .where(
      and(
        eq(shipments.parcelNumber, parcelNumber),
        eq(shipments.direction, 'inbound'),
        eq(shipments.carrier, 'colissimo'),
      ),
    );
  if (parcels.length === 0) return;
  const pickup = firstPickupEvent(await storedEvents(parcelNumber));
  if (!pickup) return;
  for (const { orderId } of parcels) {
    await db().transaction(async (tx) => {
      const [order] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.id, orderId))
        .for('no key update');
      if (!order) return;
      const [already] = await tx
        .select({ id: orderEvents.id })
        .from(orderEvents)
        .where(
          and(
            eq(orderEvents.orderId, orderId),
            eq(orderEvents.kind, 'parcel_posted'),
            sql`${orderEvents.data}->>'parcelNumber' = ${parcelNumber}`,
          ),
        )
        .limit(1);
      if (already) return;
      await tx.insert(orderEvents).values({
        orderId,
        actor: 'system',
        ...orderEvent('parcel_posted', { direction: 'inbound', parcelNumber, code: pickup.code, scannedAt: pickup.at }),
      });
    });
  }
}

/** The order's Colissimo parcels (both ways), refreshed when their events are older than N minutes. */
export async function refreshOrderParcels(orderId: string, options: TrackingOptions = {}): Promise<void> {
  const parcels = await db()
    .select({ parcelNumber: shipments.parcelNumber })
    .from(shipments)
    .where(and(eq(shipments.orderId, orderId), eq(shipments.carrier, 'colissimo')));
  await Promise.all(parcels.map((parcel) => refreshParcel(parcel.parcelNumber, options)));
}

/**
 * The housekeeping's part (every 15 minutes, any instance): the Colissimo parcels still
 * travelling — not delivered, younger than 60 days, of an order not cancelled — whose events are
 * older than N minutes, a batch at a time. Returns how many were asked about.
 */
export async function refreshParcelsInTransit(now: Date = new Date(), options: TrackingOptions = {}): Promise<number> {
  const key = options.key === undefined ? await loadTrackingKey() : options.key;
  if (!key) return 0;
  const minutes = options.minutes ?? refreshMinutes();
  const threshold = new Date(now.getTime() - minutes * 60_000);
  const since = new Date(now.getTime() - TRACKING_MAX_AGE_DAYS * 86_400_000);
  const due = await db()
    .selectDistinct({ parcelNumber: shipments.parcelNumber, checkedAt: parcelTracking.checkedAt })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .leftJoin(parcelTracking, eq(parcelTracking.parcelNumber, shipments.parcelNumber))
    .where(
      and(
        eq(shipments.carrier, 'colissimo'),
        gte(shipments.createdAt, since),
        sql`${orders.status} <> 'canceled'`,
        or(
          isNull(parcelTracking.parcelNumber),
          and(eq(parcelTracking.final, false), lt(parcelTracking.checkedAt, threshold)),
        ),
      ),
    )
    .orderBy(sql`${parcelTracking.checkedAt} asc nulls first`)
    .limit(JOB_BATCH);
  let asked = 0;
  for (const parcel of due) {
    const outcome = await refreshParcel(parcel.parcelNumber, { ...options, key, now, minutes });
    if (outcome === 'updated' || outcome === 'failed') asked += 1;
  }
  return asked;
}

/** The order's Colissimo parcels with their stored events, newest first (inbound first). */
export async function loadParcelTracking(orderId: string): Promise<ParcelTrackingView[]> {
  const parcels = await db()
    .select({
      direction: shipments.direction,
      parcelNumber: shipments.parcelNumber,
      final: parcelTracking.final,
      checkedAt: parcelTracking.checkedAt,
    })
    .from(shipments)
    .leftJoin(parcelTracking, eq(parcelTracking.parcelNumber, shipments.parcelNumber))
    .where(and(eq(shipments.orderId, orderId), eq(shipments.carrier, 'colissimo')))
    .orderBy(asc(shipments.direction));
  if (parcels.length === 0) return [];
  const rows = await db()
    .select({
      parcelNumber: parcelEvents.parcelNumber,
      code: parcelEvents.code,
      label: parcelEvents.label,
      at: parcelEvents.at,
    })
    .from(parcelEvents)
    .where(
      inArray(
        parcelEvents.parcelNumber,
        parcels.map((p) => p.parcelNumber),
      ),
    )
    .orderBy(desc(parcelEvents.at), desc(parcelEvents.id));
  return parcels.map((parcel) => ({
    direction: parcel.direction,
    parcelNumber: parcel.parcelNumber,
    url: trackingUrl(parcel.parcelNumber),
    events: rows
      .filter((row) => row.parcelNumber === parcel.parcelNumber)
      .map((row) => ({ code: row.code, label: carrierEventLabel(row), at: row.at.toISOString() })),
    final: parcel.final ?? false,
    checkedAt: parcel.checkedAt ? parcel.checkedAt.toISOString() : null,
  }));
}

/**
 * For the order page: refresh the order's parcels (at most every N minutes each, a few seconds at
 * most, a slow carrier never holds the page longer) then read what is stored. Nothing when no key
 * is saved.
 */
export async function parcelTrackingForPage(orderId: string): Promise<ParcelTrackingView[]> {
  // Without a key the shop reads nothing at La Poste: no section that would wrongly say « nothing yet ».
  const key = await loadTrackingKey();
  if (!key) return [];
  await refreshOrderParcels(orderId, { key, timeoutMs: 3_000 });
  return loadParcelTracking(orderId);
}
