import { and, eq, sql } from 'drizzle-orm';
import { orderEvent } from '~/domain/orders/events';
import { decide } from '~/domain/orders/lifecycle';
import { LABEL_MESSAGES } from '~/domain/shipping/messages';
import { shipmentCarrier } from '~/domain/shipping/parcel-number';
import type { ShipInput, TypedParcel } from '~/domain/shipping/ship-form';
import type { ShippingFacts } from '~/domain/shipping/shipments';
import { trackingUrl } from '~/domain/shipping/tracking';
import { recordStaffAudit } from '../audit/audit.server';
import { db } from '../db/client.server';
import { emailOutbox, orderEvents, orders, shipments } from '../db/schema';
import { enqueueJourneyEmail } from '../orders/journey-emails.server';
import { lockOrderState, NOT_FOUND_MESSAGE, withLifecycle } from '../orders/lifecycle.server';
import type { ColissimoOptions } from './colissimo.server';
import { generateLabel } from './colissimo.server';
import {
  customerAddress,
  DECLARED_WEIGHT_KG,
  listShipments,
  recordLabelFailure,
  WORKSHOP_ADDRESS,
} from './labels.server';

/*
 * « Expédier » in the back office: the return parcel leaves the workshop, either with a Colissimo
 * return label made here (from the workshop to the delivery address, insured for the value the
 * customer declared) or with a tracking number the staff type (carrier « Autre »). The outbound
 * shipment and the lifecycle's `ship` transition are written in one transaction: an order is never
 * « Expédiée » without its parcel, nor a parcel recorded on an order the rule book refused to ship.
 */

export type ShipResult =
  | { ok: true; orderNumber: string; parcelNumber: string; carrier: 'colissimo' | 'other'; trackingUrl: string | null }
  | { ok: false; message: string };

/** The return parcel carries something: the originals, or the USB key or DVD. */
function hasReturnParcel(order: { deliveryMethod: string; returnOriginals: boolean }): boolean {
  return order.deliveryMethod !== 'digital' || order.returnOriginals;
}

export async function shippingFacts(orderId: string): Promise<ShippingFacts | null> {
  return db().transaction(async (tx) => {
    const locked = await lockOrderState(tx, orderId);
    if (!locked) return null;
    const [order] = await tx
      .select({ insuredValueCents: orders.insuredValueCents })
      .from(orders)
      .where(eq(orders.id, orderId));
    const decision = decide(locked.state, { type: 'ship', parcelNumber: 'x', carrier: 'other' });
    return {
      orderNumber: locked.facts.number,
      status: locked.facts.status,
      returnLabel: hasReturnParcel(locked.facts),
      insuredValueCents: order?.insuredValueCents ?? 0,
      shipments: await listShipments(orderId, tx),
      refusal: decision.ok ? null : decision.message,
    };
  });
}

/** A refusal thrown inside the transaction, so that nothing of it is kept. */
class Refused extends Error {}

export async function shipOrder(
  orderId: string,
  input: ShipInput,
  actor: string,
  options: ColissimoOptions = {},
): Promise<ShipResult> {
  const facts = await shippingFacts(orderId);
  if (!facts) return { ok: false, message: NOT_FOUND_MESSAGE };
  // Refused before a label is paid for at Colissimo.
  if (facts.refusal) return { ok: false, message: facts.refusal };
  if (input.mode === 'colissimo' && !facts.returnLabel) return { ok: false, message: LABEL_MESSAGES.noReturn };

  let parcel: { parcelNumber: string; pdf: Buffer | null; carrier: 'colissimo' | 'other' };
  if (input.mode === 'colissimo') {
    const addressee = await customerAddress(db(), orderId);
    const label = await generateLabel(
      {
        orderNumber: facts.orderNumber,
        sender: WORKSHOP_ADDRESS,
        addressee: addressee ?? { line2: '', zipCode: '', city: '', countryCode: 'FR' },
        insuredValueCents: facts.insuredValueCents,
        weightKg: DECLARED_WEIGHT_KG,
      },
      options,
    );
    if (!label.ok) {
      await recordLabelFailure(
        db(),
        orderId,
        'outbound',
        actor,
        label.detail ? `${label.message} (${label.detail})` : label.message,
      );
      return { ok: false, message: label.message };
    }
    parcel = { parcelNumber: label.parcelNumber, pdf: label.pdf, carrier: 'colissimo' };
  } else {
    parcel = { parcelNumber: input.parcelNumber, pdf: null, carrier: shipmentCarrier(input.mode) };
  }

  // La Poste tracks Colissimo's parcels; another carrier's number gets no La Poste link.
  const link = parcel.carrier === 'colissimo' ? trackingUrl(parcel.parcelNumber) : null;
  try {
    // The lifecycle's use case: the shipment row with the transition, and its post-commit work after.
    await withLifecycle(async ({ tx, apply }) => {
      const result = await apply(
        orderId,
        { type: 'ship', parcelNumber: parcel.parcelNumber, carrier: parcel.carrier },
        actor,
        { data: { trackingUrl: link, insuredValueCents: facts.insuredValueCents } },
      );
      if (!result.ok) throw new Refused(result.message);
      const values = {
        carrier: parcel.carrier,
        parcelNumber: parcel.parcelNumber,
        labelPdf: parcel.pdf,
        insuredValueCents: facts.insuredValueCents,
        createdBy: actor,
        createdAt: new Date(),
      };
      // Shipped again after going back to « Traité »: the new parcel replaces the old one.
      await tx
        .insert(shipments)
        .values({ orderId, direction: 'outbound', ...values })
        .onConflictDoUpdate({ target: [shipments.orderId, shipments.direction], set: values });
      if (parcel.pdf) {
        await tx.insert(orderEvents).values({
          orderId,
          actor,
          ...orderEvent('label_created', { direction: 'outbound', parcelNumber: parcel.parcelNumber }),
        });
      }
      return result;
    });
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message };
    throw error;
  }
  return {
    ok: true,
    orderNumber: facts.orderNumber,
    parcelNumber: parcel.parcelNumber,
    carrier: parcel.carrier,
    trackingUrl: link,
  };
}

export type CorrectionResult = { ok: true; orderNumber: string; parcelNumber: string } | { ok: false; message: string };

export const CORRECTION_MESSAGES = {
  noParcel: 'Aucun colis n’est parti pour cette commande : il n’y a pas de numéro de suivi à corriger.',
  fromLabel: 'Ce numéro vient de l’étiquette Colissimo créée ici : il ne peut pas être corrigé.',
  same: 'C’est déjà le numéro de suivi de ce colis.',
} as const;

/**
 * « Corriger le numéro de suivi »: a number typed at shipping replaced by the right one (a typo).
 * In one transaction: the parcel's number, the order's history (`tracking_corrected`, old and new),
 * the Journal (recordStaffAudit) and, when the customer was e-mailed the shipping, a new
 * « expédiée » e-mail with the corrected number and link (docs/back-office.md, Shipping).
 * A number made by Colissimo with its label is never typed, so never corrected.
 */
export async function correctParcelNumber(
  orderId: string,
  input: TypedParcel,
  actor: string,
): Promise<CorrectionResult> {
  return db().transaction(async (tx) => {
    const locked = await lockOrderState(tx, orderId);
    if (!locked) return { ok: false, message: NOT_FOUND_MESSAGE };
    const [parcel] = await tx
      .select({
        parcelNumber: shipments.parcelNumber,
        carrier: shipments.carrier,
        hasLabel: sql<boolean>`${shipments.labelPdf} is not null`,
      })
      .from(shipments)
      .where(and(eq(shipments.orderId, orderId), eq(shipments.direction, 'outbound')))
      .limit(1);
    if (!parcel || locked.facts.status !== 'shipped') return { ok: false, message: CORRECTION_MESSAGES.noParcel };
    if (parcel.hasLabel) return { ok: false, message: CORRECTION_MESSAGES.fromLabel };
    const carrier = shipmentCarrier(input.mode);
    if (parcel.parcelNumber === input.parcelNumber && parcel.carrier === carrier) {
      return { ok: false, message: CORRECTION_MESSAGES.same };
    }
    await tx
      .update(shipments)
      .set({ parcelNumber: input.parcelNumber, carrier })
      .where(and(eq(shipments.orderId, orderId), eq(shipments.direction, 'outbound')));
    const [event] = await tx
      .insert(orderEvents)
      .values({
        orderId,
        actor,
        ...orderEvent('tracking_corrected', { from: parcel.parcelNumber, to: input.parcelNumber, carrier }),
      })
      .returning({ id: orderEvents.id });
    await recordStaffAudit(tx, {
      actor,
      kind: 'order.shipping',
      subject: orderId,
      subjectLabel: locked.facts.number,
      before: { parcelNumber: parcel.parcelNumber },
      after: { parcelNumber: input.parcelNumber },
    });
    // The customer followed the wrong link: they get the right one, once per correction.
    const [told] = await tx
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.template, 'order-shipped')))
      .limit(1);
    if (told) {
      await enqueueJourneyEmail(tx, locked.facts, {
        template: 'order-shipped',
        eventKey: `correction-${event?.id ?? Date.now()}`,
        now: new Date(),
        accessToken: null,
        adjustmentId: null,
        invoiceNumber: null,
        data: { parcelNumber: input.parcelNumber, carrier, corrected: true },
      });
    }
    return { ok: true, orderNumber: locked.facts.number, parcelNumber: input.parcelNumber };
  });
}
