import { and, eq } from 'drizzle-orm';
import type { Recount } from '~/domain/orders/reception';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import { db } from '../db/client.server';
import { invoices, orderAdjustments, orderEvents, payments } from '../db/schema';
import { baseUrl } from '../env.server';
import { loadOrderFacts } from '../invoices/order-facts.server';
import { activeGateway, CheckoutError } from '../payments/checkout.server';
import { PaymentProviderError } from '../payments/types';
import { accessTokenMatches, cookieValue, getOrderForViewer, isOrderId } from './access.server';
import { applyTransition } from './lifecycle.server';

/*
 * The customer's side of a reception supplement (/supplement/:id): who may open it (the order's
 * owner, the guest with the order's token, or anyone holding the supplement's own e-mailed link),
 * paying it through the active gateway (a `payments` row with adjustment_id: its paid notification
 * settles the supplement), or declining it (digitise only what was paid).
 */

export const SUPPLEMENT_COOKIE_PREFIX = 'sv_supplement_';
const COOKIE_MAX_AGE = 60 * 24 * 60 * 60;

export interface SupplementView {
  id: string;
  orderId: string;
  orderNumber: string;
  amountCents: number;
  status: (typeof orderAdjustments.$inferSelect)['status'];
  decision: 'digitise_paid' | 'return_extra' | null;
  lines: Array<{ label: string; ordered: number; counted: number; differenceCents: number }>;
  invoiceNumber: string | null;
}

async function loadSupplement(id: string) {
  if (!isOrderId(id)) return null;
  const [row] = await db()
    .select()
    .from(orderAdjustments)
    .where(and(eq(orderAdjustments.id, id), eq(orderAdjustments.kind, 'supplement')));
  return row ?? null;
}

/** The e-mailed link `?t=<token>`: kept in a cookie, and the address without it (callers redirect). */
export async function supplementFromLink(
  request: Request,
  id: string,
): Promise<{ setCookie: string; cleanUrl: string } | null> {
  const url = new URL(request.url);
  const token = url.searchParams.get('t');
  if (!token) return null;
  url.searchParams.delete('t');
  const cleanUrl = `${url.pathname}${url.search}`;
  const row = await loadSupplement(id);
  if (!row || !accessTokenMatches(token, row.accessTokenHash)) return { setCookie: '', cleanUrl };
  const secure = baseUrl().startsWith('https://');
  const setCookie = `${SUPPLEMENT_COOKIE_PREFIX}${id}=${encodeURIComponent(token)}; Path=/supplement; Max-Age=${COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  return { setCookie, cleanUrl };
}

/** The supplement when the request may see it, else null (callers answer 404). */
export async function getSupplementForViewer(request: Request, id: string): Promise<SupplementView | null> {
  const row = await loadSupplement(id);
  if (!row) return null;
  const byLink = accessTokenMatches(cookieValue(request, `${SUPPLEMENT_COOKIE_PREFIX}${id}`), row.accessTokenHash);
  if (!byLink && !(await getOrderForViewer(request, row.orderId))) return null;
  const facts = await loadOrderFacts(db(), row.orderId);
  if (!facts) return null;
  const [invoice] = await db()
    .select({ number: invoices.number })
    .from(invoices)
    .where(eq(invoices.adjustmentId, row.id));
  const pricing = row.pricing as Partial<Recount>;
  return {
    id: row.id,
    orderId: row.orderId,
    orderNumber: facts.number,
    amountCents: row.amountCents,
    status: row.status,
    decision: row.decision,
    lines: (pricing.lines ?? [])
      .filter((line) => line.counted !== line.ordered)
      .map((line) => ({
        label: line.label,
        ordered: line.ordered,
        counted: line.counted,
        differenceCents: line.countedCents - line.orderedCents,
      })),
    invoiceNumber: invoice?.number ?? null,
  };
}

/** Opens a payment session for the supplement's amount with the active gateway; returns where to go. */
export async function createSupplementCheckout(supplement: SupplementView): Promise<string> {
  if (supplement.status !== 'awaiting_customer') throw new CheckoutError(409, SUPPLEMENT_MESSAGES.notOpen);
  const facts = await loadOrderFacts(db(), supplement.orderId);
  if (!facts) throw new CheckoutError(404, PAYMENT_MESSAGES.orderNotFound);
  const { provider } = await activeGateway();
  const page = `${baseUrl()}/supplement/${supplement.id}`;
  let session: Awaited<ReturnType<typeof provider.createSession>>;
  try {
    // The gateway charges the supplement: the order as the gateway sees it, at the supplement's amount.
    session = await provider.createSession({
      order: { ...facts, totalPriceCents: supplement.amountCents },
      returnUrl: page,
      cancelUrl: page,
      customerEmail: facts.customer.email,
    });
  } catch (error) {
    if (error instanceof PaymentProviderError) {
      throw new CheckoutError(502, PAYMENT_MESSAGES.sessionFailed(error.publicMessage));
    }
    throw error;
  }
  await db().transaction(async (tx) => {
    await tx.insert(payments).values({
      orderId: supplement.orderId,
      provider: provider.name,
      providerRef: session.sessionId,
      amountCents: supplement.amountCents,
      status: 'pending',
      method: 'card',
      rawEvent: { session: session.raw },
      adjustmentId: supplement.id,
    });
    await tx.insert(orderEvents).values({
      orderId: supplement.orderId,
      actor: provider.name,
      kind: 'payment_session_created',
      data: {
        provider: provider.name,
        sessionId: session.sessionId,
        amountCents: supplement.amountCents,
        adjustmentId: supplement.id,
      },
    });
  });
  return session.url;
}

export const SUPPLEMENT_MESSAGES = {
  notOpen: 'Ce supplément n’attend plus de réponse.',
  declined: 'Votre refus est enregistré : nous numériserons ce que vous avez déjà payé.',
} as const;

/** The customer (or the staff for them) declines: what becomes of the extra items. */
export async function declineSupplement(
  supplement: Pick<SupplementView, 'id' | 'orderId'>,
  decision: 'digitise_paid' | 'return_extra',
  actor: string,
) {
  return applyTransition(
    supplement.orderId,
    { type: 'decline_supplement', adjustmentId: supplement.id, decision },
    actor,
  );
}
