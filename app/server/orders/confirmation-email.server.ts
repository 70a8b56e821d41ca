import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { withdrawalPeriod } from '~/domain/account/withdrawal';
import { packingAdviceFor, WORKSHOP_ADDRESS_LINES } from '~/domain/orders/sending-instructions';
import type { OfflinePaymentMethod } from '~/domain/payments/offline';
import {
  DEFAULT_PRICE_LIST,
  type DeliveryMethod,
  type PriceListDocument,
  type SendMethod,
} from '~/domain/pricing/default-price-list';
import { emailItems, extraLines } from '~/domain/pricing/labels';
import type { LineChoice, PricedLine } from '~/domain/pricing/pricing';
import { prepaidLabelPath } from '~/domain/shipping/labels';
import { TERMS_VERSION } from '~/domain/terms';
import type { Tx } from '../db/client.server';
import { orderItems, orders, priceLists, user } from '../db/schema';
import { guestLinkToken, withGuestToken } from '../email/guest-links.server';
import { enqueueEmail } from '../email/outbox.server';
import { customerName, type OrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import { hasInboundLabel } from '../shipping/label-ready-email.server';
import { orderGiftCardPart } from '../vouchers/order-gift-card.server';
import { orderFollowUrl } from './create-order.server';
import { orderSlipPath } from './journey.server';

/*
 * The order confirmation e-mail of an order that already exists: a guest who gave no e-mail
 * address when ordering gets it once they save their information at checkout, and a customer who
 * chooses a bank transfer or a cheque gets it again with the instructions to pay. createOrder
 * queues the first one itself, with the same dedupe key, so nobody gets the plain one twice.
 *
 * It is the confirmation of the contract on a durable medium (Code de la consommation, L221-13):
 * the terms of sale the customer accepted (their version and date; the text attached as a PDF),
 * the withdrawal information and the model withdrawal form, and what the customer chose about the
 * early start of the work. A guest's links carry a token that opens the order in any browser
 * (email/guest-links.server.ts); then the « Paiement reçu » e-mail, with the invoice's link.
 */

export function orderConfirmationDedupeKey(orderId: string, method?: OfflinePaymentMethod): string {
  return method ? `order-confirmation:${orderId}:${method}` : `order-confirmation:${orderId}`;
}

/**
 * Queues the order confirmation in the caller's transaction. `accessToken` is the guest's token
 * (from their cookie) so that the e-mail's link opens the order in any browser. Returns false when
 * the order has no e-mail address (nothing queued).
 */
export async function enqueueOrderConfirmation(
  tx: Tx,
  input: { orderId: string; accessToken: string | null; paymentMethod?: OfflinePaymentMethod },
): Promise<boolean> {
  const [order] = await tx
    .select({
      id: orders.id,
      number: orders.number,
      createdAt: orders.createdAt,
      placedAt: orders.placedAt,
      termsVersion: orders.termsVersion,
      termsAcceptedAt: orders.termsAcceptedAt,
      earlyStartConsentAt: orders.earlyStartConsentAt,
      userId: orders.userId,
      guestEmail: orders.guestEmail,
      guestFirstName: orders.guestFirstName,
      deliveryMethod: orders.deliveryMethod,
      sendMethod: orders.sendMethod,
      returnOriginals: orders.returnOriginals,
      deliveryCostCents: orders.deliveryCostCents,
      sendShippingCostCents: orders.sendShippingCostCents,
      returnShippingCostCents: orders.returnShippingCostCents,
      expressPriceCents: orders.expressPriceCents,
      insurancePriceCents: orders.insurancePriceCents,
      totalPriceCents: orders.totalPriceCents,
      priceListId: orders.priceListId,
    })
    .from(orders)
    .where(eq(orders.id, input.orderId))
    .limit(1);
  if (!order) return false;
  const [owner] = order.userId
    ? await tx.select({ email: user.email, firstName: user.firstName }).from(user).where(eq(user.id, order.userId))
    : [];
  const email = (owner ? owner.email : order.guestEmail)?.trim();
  if (!email) return false;
  const firstName = (owner ? owner.firstName : order.guestFirstName)?.trim();

  const [items, [list]] = await Promise.all([
    tx
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id))
      .orderBy(asc(orderItems.position), asc(orderItems.id)),
    order.priceListId
      ? tx.select({ data: priceLists.data }).from(priceLists).where(eq(priceLists.id, order.priceListId))
      : Promise.resolve([]),
  ]);
  if (items.length === 0) return false;
  // The words of the lines (titles, options) come from the order's price list; the amounts are the
  // stored ones. An order without a price list (imported, demo) reads the default words.
  const words = (list?.data as PriceListDocument | undefined) ?? DEFAULT_PRICE_LIST;
  // The stored items carry every choice a line's words need (lineTitle, lineOptions).
  const lines = items.map((item) => ({ ...(item as unknown as LineChoice), lineTotalCents: item.lineTotalCents }));

  const token = await guestLinkToken(tx, order.id, input.accessToken);
  const giftCard = await orderGiftCardPart(tx, order.id);
  const placedAt = order.placedAt ?? order.createdAt;
  await enqueueEmail(tx, {
    to: email,
    template: 'order-confirmation',
    data: {
      orderNumber: order.number,
      createdAt: order.createdAt.toISOString(),
      ...(firstName ? { customerName: firstName } : {}),
      items: emailItems(words, lines as PricedLine[]),
      extras: extraLines(order, {
        deliveryMethod: order.deliveryMethod as DeliveryMethod,
        sendMethod: order.sendMethod as SendMethod,
        returnOriginals: order.returnOriginals,
      }),
      totalCents: order.totalPriceCents,
      ...(giftCard && giftCard.cents > 0 ? { giftCardCents: giftCard.cents } : {}),
      orderUrl: orderFollowUrl(order.id, token),
      ...(input.paymentMethod ? { paymentMethod: input.paymentMethod } : {}),
      // How to send the originals, for an order that has some to send (not extra copies, a retention
      // extension or a gift card: `send_method` none).
      ...(order.sendMethod === 'none'
        ? {}
        : {
            sending: {
              addressLines: [...WORKSHOP_ADDRESS_LINES],
              packing: packingAdviceFor(items.map((item) => item.type)),
              slipUrl: withGuestToken(orderSlipPath(order.id), token),
              // The label is offered only once it exists (made at payment); before, the e-mail says when.
              ...(order.sendMethod !== 'label'
                ? {}
                : (await hasInboundLabel(tx, order.id))
                  ? { labelUrl: withGuestToken(prepaidLabelPath(order.id), token) }
                  : { labelAfterPayment: true }),
            },
          }),
      contract: {
        // Placing the order accepts the terms in force (the lifecycle records them with `place`).
        termsVersion: order.termsVersion ?? TERMS_VERSION,
        termsAcceptedAt: (order.termsAcceptedAt ?? placedAt).toISOString(),
        placedAt: placedAt.toISOString(),
        withdrawalEndsAt: withdrawalPeriod(placedAt).deadline.toISOString(),
        earlyStartConsentAt: order.earlyStartConsentAt?.toISOString() ?? null,
      },
    },
    dedupeKey: orderConfirmationDedupeKey(order.id, input.paymentMethod),
    orderId: order.id,
  });
  return true;
}

/**
 * « Paiement reçu », queued by the lifecycle when the order is paid: the amount, the date and the
 * invoice's link (with the guest's token: a guest has no customer area to find it in).
 */
export async function enqueuePaymentReceived(
  tx: Tx,
  facts: OrderFacts,
  input: { paidAt: Date; invoiceNumber: string | null; accessToken: string | null },
): Promise<void> {
  const email = facts.customer.email?.trim();
  if (!email || !z.email().safeParse(email).success) {
    log.warn({ orderId: facts.id }, 'paid order without a valid e-mail address: no payment-received e-mail');
    return;
  }
  const token = await guestLinkToken(tx, facts.id, input.accessToken);
  await enqueueEmail(tx, {
    to: email,
    template: 'payment-received',
    data: {
      orderNumber: facts.number,
      amountCents: facts.amountDueCents,
      ...(facts.giftCard && facts.giftCard.cents > 0 ? { giftCardCents: facts.giftCard.cents } : {}),
      paidAt: input.paidAt.toISOString(),
      invoiceNumber: input.invoiceNumber ?? '',
      invoiceUrl: withGuestToken(`/facture/${facts.id}`, token),
      customerArea: facts.userId !== null,
      customerName: customerName(facts),
    },
    dedupeKey: `payment-received:${facts.id}`,
    orderId: facts.id,
  });
}

/**
 * « Paiement non validé »: the staff rejected the transfer or cheque the order waited
 * for. The customer learns it, with the amount and a link to pay again; one e-mail per rejection.
 */
export async function enqueuePaymentRejected(
  tx: Tx,
  facts: OrderFacts,
  input: { accessToken: string | null; eventId: number; reason?: string },
): Promise<void> {
  const email = facts.customer.email?.trim();
  if (!email || !z.email().safeParse(email).success) {
    log.warn({ orderId: facts.id }, 'rejected payment of an order without a valid e-mail address: no e-mail');
    return;
  }
  const method =
    facts.paymentMethod === 'cheque' || facts.paymentMethod === 'transfer' ? facts.paymentMethod : undefined;
  await enqueueEmail(tx, {
    to: email,
    template: 'payment-rejected',
    data: {
      orderNumber: facts.number,
      amountCents: facts.amountDueCents,
      paymentMethod: method,
      orderUrl: orderFollowUrl(facts.id, await guestLinkToken(tx, facts.id, input.accessToken)),
      customerName: customerName(facts),
      ...(input.reason ? { reason: input.reason } : {}),
    },
    dedupeKey: `payment-rejected:${facts.id}:${input.eventId}`,
    orderId: facts.id,
  });
}
