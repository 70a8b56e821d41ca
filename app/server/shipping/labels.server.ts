import { and, eq, sql } from 'drizzle-orm';
import { company } from '~/domain/company';
import { wasPaid } from '~/domain/order-status';
import { orderEvent } from '~/domain/orders/events';
import type { PrepaidLabelView } from '~/domain/shipping/labels';
import { LABEL_MESSAGES } from '~/domain/shipping/messages';
import type { Direction, ShipmentSummary } from '~/domain/shipping/shipments';
import { type Database, db, type Tx } from '../db/client.server';
import { orderAddresses, orderEvents, orders, shipments, user } from '../db/schema';
import { log } from '../log.server';
import { type ColissimoAddress, type ColissimoOptions, generateLabel } from './colissimo.server';
import { enqueueLabelReady } from './label-ready-email.server';

/*
 * The order's parcels (table `shipments`, one per order and direction): the prepaid sending label of
 * the customer's originals (inbound, created once the order is paid) and the return (outbound,
 * shipping.server.ts). A label's PDF is kept, so that it is generated once and downloaded as often
 * as needed; its creation or its failure is written in the order's history.
 */

/** The flat weight declared for a parcel of originals (kg): the carrier bills the weighed parcel. */
export const DECLARED_WEIGHT_KG = 2;

/** The workshop, as sender of the returns and addressee of the originals. */
export const WORKSHOP_ADDRESS: ColissimoAddress = {
  companyName: company.name,
  lastName: 'Atelier',
  firstName: company.brand,
  line2: company.street,
  countryCode: 'FR',
  city: company.city,
  zipCode: company.postalCode,
  phoneNumber: company.phoneHref.replace(/^tel:\+33/, '0'),
  email: company.email,
};

export async function listShipments(orderId: string, database: Database | Tx = db()): Promise<ShipmentSummary[]> {
  const rows = await database
    .select({
      direction: shipments.direction,
      carrier: shipments.carrier,
      parcelNumber: shipments.parcelNumber,
      hasLabel: sql<boolean>`${shipments.labelPdf} is not null`,
      insuredValueCents: shipments.insuredValueCents,
      createdAt: shipments.createdAt,
    })
    .from(shipments)
    .where(eq(shipments.orderId, orderId))
    .orderBy(shipments.direction);
  return rows;
}

/** A label's PDF and parcel number, or null when the order has no label that way. */
export async function shipmentLabel(
  orderId: string,
  direction: Direction,
): Promise<{ parcelNumber: string; pdf: Buffer } | null> {
  const [row] = await db()
    .select({ parcelNumber: shipments.parcelNumber, pdf: shipments.labelPdf })
    .from(shipments)
    .where(and(eq(shipments.orderId, orderId), eq(shipments.direction, direction)))
    .limit(1);
  return row?.pdf ? { parcelNumber: row.parcelNumber, pdf: Buffer.from(row.pdf) } : null;
}

/**
 * The customer's address for a label: the delivery address frozen on the order, else (orders placed
 * before addresses were asked for) the account's or the guest's address.
 */
export async function customerAddress(executor: Database | Tx, orderId: string): Promise<ColissimoAddress | null> {
  const [frozen] = await executor
    .select()
    .from(orderAddresses)
    .where(and(eq(orderAddresses.orderId, orderId), eq(orderAddresses.kind, 'delivery')))
    .limit(1);
  if (frozen) {
    return {
      ...(frozen.company ? { companyName: frozen.company } : {}),
      firstName: frozen.firstName,
      lastName: frozen.lastName,
      line2: frozen.line1,
      ...(frozen.line2 ? { line3: frozen.line2 } : {}),
      zipCode: frozen.postalCode,
      city: frozen.city,
      countryCode: frozen.country,
      ...(frozen.phone ? { phoneNumber: frozen.phone } : {}),
    };
  }
  const [row] = await executor
    .select({
      firstName: sql<string | null>`coalesce(${user.firstName}, ${orders.guestFirstName})`,
      lastName: sql<string | null>`coalesce(${user.lastName}, ${orders.guestLastName})`,
      street: sql<string | null>`coalesce(${user.street}, ${orders.guestAddress})`,
      postalCode: sql<string | null>`coalesce(${user.postalCode}, ${orders.guestPostalCode})`,
      city: sql<string | null>`coalesce(${user.city}, ${orders.guestCity})`,
      country: user.country,
      phone: sql<string | null>`coalesce(${user.phone}, ${orders.guestPhone})`,
      email: sql<string | null>`coalesce(${user.email}, ${orders.guestEmail})`,
    })
    .from(orders)
    .leftJoin(user, eq(user.id, orders.userId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!row) return null;
  // An incomplete address still goes to Colissimo, whose refusal says what is missing.
  return {
    firstName: row.firstName ?? '',
    lastName: row.lastName ?? '',
    line2: row.street ?? '',
    zipCode: row.postalCode ?? '',
    city: row.city ?? '',
    countryCode: row.country ?? 'FR',
    ...(row.phone ? { phoneNumber: row.phone } : {}),
    ...(row.email ? { email: row.email } : {}),
  };
}

export async function recordLabelFailure(
  executor: Database | Tx,
  orderId: string,
  direction: Direction,
  actor: string,
  detail: string,
): Promise<void> {
  await executor.insert(orderEvents).values({ orderId, actor, ...orderEvent('label_failed', { direction, detail }) });
}

export type EnsureLabelResult =
  | { ok: true; created: boolean; parcelNumber: string }
  | { ok: false; reason: 'not_found' | 'not_needed' | 'not_paid' | 'service'; message: string };

/**
 * The prepaid sending label of a paid order bought with one: created the first time (from the
 * customer's address to the workshop), the stored one afterwards. The order row stays locked while
 * Colissimo answers, so that two calls at once (the payment's hook, the customer's click) make one
 * label: the second waits, then finds the first's. A failure is written in the history.
 */
export async function ensureInboundLabel(
  orderId: string,
  actor = 'system',
  options: ColissimoOptions = {},
): Promise<EnsureLabelResult> {
  return db().transaction(async (tx) => {
    const [order] = await tx
      .select({
        number: orders.number,
        sendMethod: orders.sendMethod,
        paymentStatus: orders.paymentStatus,
        status: orders.status,
      })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update');
    if (!order) return { ok: false, reason: 'not_found', message: 'Commande introuvable' };
    const [existing] = await tx
      .select({ parcelNumber: shipments.parcelNumber })
      .from(shipments)
      .where(and(eq(shipments.orderId, orderId), eq(shipments.direction, 'inbound')))
      .limit(1);
    if (existing) return { ok: true, created: false, parcelNumber: existing.parcelNumber };
    if (order.sendMethod !== 'label' || order.status === 'canceled') {
      return { ok: false, reason: 'not_needed', message: LABEL_MESSAGES.notNeeded };
    }
    if (!wasPaid(order.paymentStatus)) return { ok: false, reason: 'not_paid', message: LABEL_MESSAGES.notPaid };
    const sender = await customerAddress(tx, orderId);
    const label = await generateLabel(
      {
        orderNumber: order.number,
        sender: sender ?? { line2: '', zipCode: '', city: '', countryCode: 'FR' },
        addressee: WORKSHOP_ADDRESS,
        insuredValueCents: 0,
        weightKg: DECLARED_WEIGHT_KG,
      },
      options,
    );
    if (!label.ok) {
      await recordLabelFailure(
        tx,
        orderId,
        'inbound',
        actor,
        label.detail ? `${label.message} (${label.detail})` : label.message,
      );
      return { ok: false, reason: 'service', message: label.message };
    }
    await tx.insert(shipments).values({
      orderId,
      direction: 'inbound',
      carrier: 'colissimo',
      parcelNumber: label.parcelNumber,
      labelPdf: label.pdf,
      createdBy: actor,
    });
    await tx.insert(orderEvents).values({
      orderId,
      actor,
      ...orderEvent('label_created', { direction: 'inbound', parcelNumber: label.parcelNumber }),
    });
    await enqueueLabelReady(tx, orderId, label.parcelNumber);
    return { ok: true, created: true, parcelNumber: label.parcelNumber };
  });
}

/**
 * Once an order is paid (card notification, offline payment validated, any lifecycle caller): its
 * prepaid sending label, when it has one, is made. Colissimo is called after the payment's commit;
 * a failure stays in the history and the customer can ask again from the order. Never throws.
 */
export async function createLabelAfterPayment(orderId: string): Promise<void> {
  try {
    const result = await ensureInboundLabel(orderId, 'system');
    if (!result.ok && result.reason === 'service')
      log.warn({ orderId, message: result.message }, 'prepaid label failed');
  } catch (error) {
    log.error({ err: error, orderId }, 'the prepaid sending label could not be created');
  }
}

/** What the customer's pages show of the prepaid sending label; null when the order has none. */
export async function prepaidLabelView(order: {
  id: string;
  sendMethod: string;
  paymentStatus: string;
  status: string;
}): Promise<PrepaidLabelView | null> {
  if (order.sendMethod !== 'label' || order.status === 'canceled') return null;
  const [row] = await db()
    .select({ parcelNumber: shipments.parcelNumber })
    .from(shipments)
    .where(and(eq(shipments.orderId, order.id), eq(shipments.direction, 'inbound')))
    .limit(1);
  if (row) return { state: 'ready', parcelNumber: row.parcelNumber };
  return wasPaid(order.paymentStatus) ? { state: 'missing' } : { state: 'unpaid' };
}

/** The PDF response of a stored label: private, never cached. */
export function labelResponse(label: { pdf: Buffer }, fileName: string): Response {
  return new Response(new Uint8Array(label.pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Content-Length': String(label.pdf.length),
      // An address and a prepaid postage: never kept by a shared cache.
      'Cache-Control': 'private, no-store',
    },
  });
}
