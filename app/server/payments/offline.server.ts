import type { GuestContact } from '~/domain/orders/checkout-contact';
import type { CheckoutDetails, CheckoutInvoicing } from '~/domain/orders/checkout-details';
import { amountDueCents, type CheckoutMethod, LIFECYCLE_MESSAGES, type OrderState } from '~/domain/orders/lifecycle';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import { SANDBOX_POLICY_MESSAGES } from '~/domain/payments/sandbox-policy';
import { PROMOTION_MESSAGES } from '~/domain/vouchers/promotions';
import type { Tx } from '../db/client.server';
import { freezeCheckoutInvoicing } from '../invoices/business-buyers.server';
import { saveAddressToProfile } from '../orders/checkout-details.server';
import { recordEarlyStartConsentInTx } from '../orders/early-start.server';
import { recordCheckoutContact } from '../orders/guest-info.server';
import { lockOrderState, NOT_FOUND_MESSAGE, type TransitionResult, withLifecycle } from '../orders/lifecycle.server';
import {
  GIFT_CARD_CHECKOUT_MESSAGES,
  requestedGiftCardCents,
  spendGiftCardInTx,
} from '../vouchers/gift-card-spending.server';
import { applyPromotionCodesInTx } from '../vouchers/promotions.server';
import { CheckoutError } from './checkout.server';
import { getCardAvailability } from './sandbox-mode.server';

/*
 * The customer confirms the order at checkout by choosing how to pay (terms of sale, section 6):
 * card, bank transfer or cheque. A draft is placed then (the order lifecycle's `place`: the number
 * is the customer's, the back office is notified, the confirmation e-mail leaves, with the
 * instructions for a transfer or a cheque). A placed, unpaid order may change its way of paying
 * (`choose_payment_method`: after a declined card, say; the card sessions still open are closed
 * when the customer turns to a transfer or a cheque). A transfer or cheque then waits in the back
 * office's Validation Paiements; a card goes on to its gateway (createCheckout).
 */

const REFUSAL_STATUS: Record<string, { status: 404 | 409 | 422; message: string }> = {
  not_found: { status: 404, message: NOT_FOUND_MESSAGE },
  already_paid: { status: 409, message: PAYMENT_MESSAGES.alreadyPaid },
  canceled: { status: 409, message: PAYMENT_MESSAGES.orderCanceled },
  withdrawn: { status: 409, message: PAYMENT_MESSAGES.orderWithdrawn },
  nothing_to_pay: { status: 422, message: PAYMENT_MESSAGES.nothingToPay },
  no_address: { status: 422, message: LIFECYCLE_MESSAGES.noAddress },
};

/** A refusal inside the placing transaction: thrown to roll back what was written before it. */
class CheckoutRefusal extends Error {
  constructor(
    readonly result: Extract<TransitionResult, { ok: false }>,
    /** The HTTP status of a refusal that is not the lifecycle's (a gift card's). */
    readonly status?: 404 | 409 | 422 | 429,
  ) {
    super(result.message);
  }
}

export async function confirmCheckout(input: {
  orderId: string;
  method: CheckoutMethod;
  actor: string;
  /** The guest's access token (from their cookie), for the e-mail's link. */
  accessToken: string | null;
  /**
   * The addresses and insurance of the checkout form (something physical travels): written with
   * the placing of a draft, before `place`, which refuses such an order without its address.
   */
  details?: CheckoutDetails | null;
  /** A guest's contact typed in the same form (their e-mail address), written first. */
  contact?: GuestContact | null;
  /** The customer's express request to start before the end of the withdrawal period. */
  earlyStart?: boolean;
  /** « Enregistrer cette adresse dans mon profil »: the signed-in owner's id. */
  saveToProfileOf?: string | null;
  /**
   * A draft's business buyer and, with nothing physical, its billing address (docs/invoicing.md),
   * frozen with the placing; `profileOf`: the signed-in owner, whose profile keeps the business.
   */
  invoicing?: { value: CheckoutInvoicing; profileOf: string | null } | null;
  /**
   * A gift card's code typed at « Payer » (decision 037): it pays what it can, in this transaction;
   * `request` and `userId` count a wrong code against the client and the account.
   */
  giftCard?: { typed: string; amount?: string; request: Request; userId: string | null } | null;
  /**
   * The promotion codes typed at « Payer » (decision 038): checked again with their rows locked,
   * their uses written and the order's total lowered, in this transaction, before the gift card.
   */
  promotion?: { typed: string; request: Request; userId: string | null } | null;
}): Promise<{ paidByGiftCard: boolean }> {
  // No card may be chosen while no gateway can take one: the order stays as it was (a draft is
  // not placed, nobody is e-mailed); transfer and cheque remain.
  const typedCode = input.giftCard?.typed.trim() ? input.giftCard : null;
  if (input.method === 'card') {
    const card = await getCardAvailability();
    if (!card.available) {
      throw new CheckoutError(
        503,
        card.reason === 'sandbox-disabled' ? SANDBOX_POLICY_MESSAGES.cardUnavailable : PAYMENT_MESSAGES.notConfigured,
      );
    }
  }
  // Everything the form said is written in ONE transaction with the placing (or the change of
  // method): a refusal of the lifecycle rolls it all back, so a refused « Payer » changes nothing.
  try {
    // The lifecycle's use case: the placing's post-commit work (a Stripe session to expire) runs
    // once everything is committed.
    return await withLifecycle(async ({ tx, apply }) => {
      const locked = await lockOrderState(tx, input.orderId);
      if (!locked)
        throw new CheckoutRefusal({ ok: false, code: 'not_found', message: NOT_FOUND_MESSAGE, orderNumber: null });
      const { state: before } = locked;
      if (input.contact || (!before.placed && input.details)) {
        await recordCheckoutContact(tx, {
          orderId: input.orderId,
          contact: input.contact ?? null,
          details: input.details ?? null,
          placed: before.placed,
          actor: input.actor,
        });
      }
      if (input.invoicing && !before.placed) {
        await freezeCheckoutInvoicing(tx, {
          orderId: input.orderId,
          invoicing: input.invoicing.value,
          actor: input.actor,
          profileOf: input.invoicing.profileOf,
        });
      }
      if (input.earlyStart) await recordEarlyStartConsentInTx(tx, input.orderId, input.actor);
      if (input.saveToProfileOf && input.details) await saveAddressToProfile(input.saveToProfileOf, input.details, tx);
      if (input.promotion?.typed.trim()) await takePromotionCodes(tx, before, input.orderId, input.promotion);
      // The order as written above (its insurance, its discount): what the card and the rest pay.
      const { state } = (await lockOrderState(tx, input.orderId)) ?? locked;
      // Paying again the way already chosen: nothing else changes (a paid, cancelled or withdrawn
      // order is refused by the transition, which rolls back what was written above).
      const fromCard = typedCode ? await spendCard(tx, state, input, typedCode) : 0;
      // The card pays it all: the order is placed and settled now, by the card (nothing to collect).
      const settledByCard = fromCard > 0 && fromCard === amountDueCents(state);
      const method = settledByCard ? 'gift_card' : input.method;
      const unchanged =
        state.placed && state.paymentMethod === method && state.paymentStatus === 'pending' && !state.withdrawn;
      if (unchanged && fromCard === 0 && state.status !== 'canceled') return { paidByGiftCard: false };
      if (!state.placed || !settledByCard) {
        const applied = await apply(
          input.orderId,
          state.placed ? { type: 'choose_payment_method', method } : { type: 'place', method },
          input.actor,
          { accessToken: input.accessToken },
        );
        if (!applied.ok) throw new CheckoutRefusal(applied);
      }
      if (settledByCard) {
        const settled = await apply(
          input.orderId,
          { type: 'settle_payment', amountCents: 0, currency: 'EUR', method: 'gift_card' },
          input.actor,
          { accessToken: input.accessToken },
        );
        if (!settled.ok) throw new CheckoutRefusal(settled);
      }
      return { paidByGiftCard: settledByCard };
    });
  } catch (error) {
    if (!(error instanceof CheckoutRefusal)) throw error;
    const refusal = REFUSAL_STATUS[error.result.code] ?? {
      status: error.status ?? (409 as const),
      message: error.result.message,
    };
    throw new CheckoutError(refusal.status, refusal.message);
  }
}

/**
 * The typed promotion codes lower a draft's total (their uses written, their rows locked). A
 * placed order keeps the codes it was placed with: typed again, they change nothing; others are
 * refused.
 */
async function takePromotionCodes(
  tx: Tx,
  state: OrderState,
  orderId: string,
  promotion: { typed: string; request: Request; userId: string | null },
): Promise<void> {
  if (state.placed) {
    if ((state.discountCents ?? 0) > 0) return;
    throw new CheckoutRefusal(
      { ok: false, code: 'promotion', message: PROMOTION_MESSAGES.alreadyPlaced, orderNumber: null },
      409,
    );
  }
  const taken = await applyPromotionCodesInTx(tx, { ...promotion, orderId, now: new Date() });
  if (!taken.ok) {
    throw new CheckoutRefusal(
      { ok: false, code: 'promotion', message: taken.message, orderNumber: null },
      taken.limited ? 429 : 422,
    );
  }
}

/**
 * The typed card pays what it can of what the order asks (a `spent` entry), before the placing:
 * refused on a card's own sale, on an order a card already pays, and when the card cannot pay.
 */
async function spendCard(
  tx: Tx,
  state: OrderState,
  input: { orderId: string; actor: string },
  card: { typed: string; amount?: string; request: Request; userId: string | null },
): Promise<number> {
  const refuse = (message: string, status: 409 | 422 | 429 = 422): never => {
    throw new CheckoutRefusal({ ok: false, code: 'gift_card', message, orderNumber: null }, status);
  };
  if (state.kind === 'gift_card') refuse(GIFT_CARD_CHECKOUT_MESSAGES.ownSale);
  if ((state.giftCardCents ?? 0) > 0) refuse(GIFT_CARD_CHECKOUT_MESSAGES.oneCard, 409);
  if (state.status === 'canceled' || state.withdrawn || state.paymentStatus === 'paid') return 0;
  const due = amountDueCents(state);
  const requested = requestedGiftCardCents(card.amount ?? '', due);
  if (requested === null) refuse(GIFT_CARD_CHECKOUT_MESSAGES.amountInvalid(due));
  const spent = await spendGiftCardInTx(tx, {
    request: card.request,
    typed: card.typed,
    userId: card.userId,
    orderId: input.orderId,
    dueCents: requested ?? due,
    actor: input.actor,
    now: new Date(),
  });
  if (!spent.ok) return refuse(spent.message, spent.limited ? 429 : 422);
  return spent.fromCardCents;
}
