import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { supportLabel } from '~/domain/account/order-details';
import { returnsByPost } from '~/domain/orders/journey-steps';
import type { EmailEffect } from '~/domain/orders/lifecycle';
import type { Tx } from '../db/client.server';
import { orderEvents } from '../db/schema';
import { guestLinkToken } from '../email/guest-links.server';
import { enqueueEmail } from '../email/outbox.server';
import { deliveredFilesEmailFields } from '../files/publish-links.server';
import type { OrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import { orderFollowUrl } from './create-order.server';
import { enqueueSupplementEmail } from './supplement-emails.server';

/*
 * The e-mails of the originals' journey: reception with what was counted, a supplement
 * to approve and pay, the supplement paid, the files ready, the parcel shipped with its tracking
 * link. Queued in the lifecycle's transaction (outbox), one per history event.
 */

export type JourneyTemplate = Extract<
  EmailEffect,
  'originals-received' | 'order-ready' | 'order-shipped' | 'supplement-requested' | 'supplement-paid'
>;

export interface JourneyEmailInput {
  template: JourneyTemplate;
  /** Dedupe key part: one e-mail per history event. */
  eventKey: string;
  now: Date;
  /** The guest's access token when the caller has it (links that open in any browser). */
  accessToken: string | null;
  /** The supplement the e-mail is about (supplement-requested, supplement-paid). */
  adjustmentId: string | null;
  invoiceNumber: string | null;
  /** What the transition's caller handed over (counts, parcel number, pay link token…). */
  data: Record<string, unknown>;
}

/** What the reception's caller may hand over; anything else in `data` is ignored. */
const receptionData = z.object({
  counts: z
    .array(z.object({ label: z.string().min(1), ordered: z.number().int(), counted: z.number().int() }))
    .catch([])
    .default([]),
  remarks: z
    .array(z.object({ group: z.string().default(''), text: z.string().trim().min(1) }))
    .catch([])
    .default([]),
});

export async function enqueueJourneyEmail(tx: Tx, facts: OrderFacts, input: JourneyEmailInput): Promise<void> {
  if (input.template === 'supplement-requested' || input.template === 'supplement-paid') {
    await enqueueSupplementEmail(tx, facts, { ...input, template: input.template });
    return;
  }
  const to = facts.customer.email?.trim();
  if (!to || !z.email().safeParse(to).success) {
    log.info({ orderId: facts.id, template: input.template }, 'journey e-mail skipped: no valid address');
    return;
  }
  const common = {
    orderNumber: facts.number,
    ...(facts.customer.firstName?.trim() ? { customerName: facts.customer.firstName.trim() } : {}),
    // The account holder signs in; a guest's link carries a token that opens the order anywhere.
    orderUrl: orderFollowUrl(facts.id, await guestLinkToken(tx, facts.id, input.accessToken)),
  };
  const base = { to, dedupeKey: `${input.template}:${facts.id}:${input.eventKey}`, orderId: facts.id };
  switch (input.template) {
    case 'originals-received': {
      const { counts, remarks } = receptionData.parse(input.data);
      await enqueueEmail(tx, {
        ...base,
        template: 'originals-received',
        data: { ...common, counts, remarks: remarks.map((r) => ({ ...r, group: r.group && supportLabel(r.group) })) },
      });
      return;
    }
    case 'order-ready':
      await enqueueEmail(tx, {
        ...base,
        template: 'order-ready',
        // Published files (decision 011): the gallery, with the delivery token the publication passed.
        data: {
          ...common,
          returnsByPost: returnsByPost(facts),
          ...(await deliveredFilesEmailFields(tx, facts.id, input.accessToken)),
        },
      });
      return;
    case 'order-shipped': {
      const parcel = await shippedParcel(tx, facts.id, input.data);
      await enqueueEmail(tx, {
        ...base,
        template: 'order-shipped',
        data: {
          ...common,
          ...(parcel ? { parcelNumber: parcel.parcelNumber, carrier: parcel.carrier } : {}),
          // A typed number corrected after shipping (shipping.server.ts): the e-mail says so.
          corrected: input.data.corrected === true,
          ...(await deliveredFilesEmailFields(tx, facts.id, input.accessToken)),
        },
      });
      return;
    }
  }
}

/**
 * The return parcel's number and carrier: from the caller (a correction), else the `shipped`
 * history row just written (the ship transition's own fields).
 */
async function shippedParcel(
  tx: Tx,
  orderId: string,
  data: Record<string, unknown>,
): Promise<{ parcelNumber: string; carrier: 'colissimo' | 'other' } | null> {
  const carrierOf = (value: unknown) => (value === 'other' ? 'other' : 'colissimo');
  if (typeof data.parcelNumber === 'string' && data.parcelNumber.trim()) {
    return { parcelNumber: data.parcelNumber.trim(), carrier: carrierOf(data.carrier) };
  }
  const [parcel] = await tx
    .select({ data: orderEvents.data })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, 'shipped')))
    .orderBy(desc(orderEvents.at), desc(orderEvents.id))
    .limit(1);
  const stored = parcel?.data as { parcelNumber?: unknown; carrier?: unknown } | null;
  return typeof stored?.parcelNumber === 'string' && stored.parcelNumber.trim()
    ? { parcelNumber: stored.parcelNumber.trim(), carrier: carrierOf(stored.carrier) }
    : null;
}
