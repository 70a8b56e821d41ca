import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { originalsState } from '~/domain/account/withdrawal-texts';
import { transitionAuditChange } from '~/domain/audit/order-entries';
import { formatEurosFromCents } from '~/domain/format';
import { type OrderStatus, orderStatusLabel, paymentMethodLabel, wasPaid } from '~/domain/order-status';
import { workNotBefore } from '~/domain/orders/early-start';
import {
  type Accepted,
  decide,
  type Effect,
  isOrderKind,
  type OrderState,
  shipsSomethingPhysical,
  type Transition,
  withdrawalCase,
} from '~/domain/orders/lifecycle';
import { PAYMENT_PROVIDER_LABELS, type PaymentProviderName } from '~/domain/payments/payment-config';
import { TERMS_VERSION } from '~/domain/terms';
import { splitGiftCardRefund } from '~/domain/vouchers/gift-cards';
import { recordStaffAudit } from '../audit/audit.server';
import type { Executor } from '../config/config-options.server';
import { applyPaidRetentionExtension } from '../copies/extra-copies.server';
import type { Tx } from '../db/client.server';
import { notifications, orderAdjustments, orderEvents, orders, payments, refunds } from '../db/schema';
import { guestLinkToken, withGuestToken } from '../email/guest-links.server';
import { enqueueOrderStatusEmail } from '../email/order-status-email.server';
import { enqueueEmail } from '../email/outbox.server';
import {
  issueCreditNotes,
  issueInvoice,
  issueSupplementInvoice,
  refusalCreditsLeft,
} from '../invoices/invoices.server';
import { customerName, loadOrderFacts, type OrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import {
  closeUnusedGiftCard,
  GiftCardInUseError,
  giftCardLedgerOf,
  issueGiftCardInTx,
  recordGiftCardEntry,
} from '../vouchers/gift-cards.server';
import { releasePromotionUses } from '../vouchers/promotions.server';
import { enqueueOrderConfirmation, enqueuePaymentReceived, enqueuePaymentRejected } from './confirmation-email.server';
import { enqueueJourneyEmail } from './journey-emails.server';
import { forgetIbanWhenSettled, type IbanRequestOutcome, requestIbanForRefund } from './refund-iban.server';

/*
 * The core of the one place that changes an order's states (docs/product.md, « The lifecycle »):
 * what runs INSIDE a transaction. Callers reach it through lifecycle.server.ts (`applyTransition`,
 * `withLifecycle`), which also runs the work after the commit; refunds.server.ts imports this module
 * directly because lifecycle.server.ts's post-commit work imports refunds.server.ts (no cycle).
 * `applyTransitionInTx` locks the order row, reads its state, asks the rule book (domain/orders/lifecycle.ts) and, when
 * the transition is accepted, writes in the same transaction the new state, the history event and
 * every side effect the rule book lists: notification, e-mail (outbox), invoice, credit note,
 * closing the open payment sessions. What must talk to a gateway (expiring Stripe sessions, giving
 * money back) runs after the commit, so that a slow gateway never holds the order's lock.
 *
 * Checkout, the gateways' notifications, offline payments, the back office, withdrawal and refunds
 * all come here; nothing else updates orders.status, orders.payment_status, placed_at or
 * withdrawn_at (the columns also have CHECK constraints).
 */

/** Who asked: a staff member's user id, `customer`, `system`, or a gateway's name. */
export type Actor = string;

export interface TransitionContext {
  /** The payment attempt that settles or fails (settle_payment, fail_payment). */
  payment?: { id: string; provider: PaymentProviderName; reference: string } | null;
  /** Gateway's words on a failure, kept in the history for the staff. */
  detail?: string | null;
  /** The guest's access token, so that the e-mail's link opens the order in any browser. */
  accessToken?: string | null;
  /** publish_files: the hash of a guest's new delivery token, stored with the publication. */
  deliveryTokenHash?: string | null;
  /** The refund row this `refund` transition completes (refunds.server.ts). */
  refundId?: string;
  /** Why the money goes back, on the credit note and in the e-mail. */
  reason?: string;
  /** How money given back in the same step goes (cancel, withdrawal): the gateway, or by hand. */
  refundMethod?: 'gateway' | 'transfer' | 'cheque' | 'gift_card';
  /** Anything else the history entry should keep. */
  data?: Record<string, unknown>;
  /**
   * The reception's adjustment: the supplement `request_supplement` creates (re-priced lines, pay
   * link), or the reduction a `refund` gives back. `payToken` is the pay link's raw token, for the
   * e-mail only (never stored, nor written in the history).
   */
  adjustment?: { receptionId: string | null; pricing: unknown; accessTokenHash: string | null; payToken?: string };
  now?: Date;
}

export type StatusEmailOutcome =
  | { kind: 'queued'; outboxId: string; recipient: string; recipientName: string }
  | { kind: 'skipped'; reason: 'notifications-disabled' | 'no-email' }
  | { kind: 'failed'; error: string };

export interface AppliedTransition {
  ok: true;
  orderId: string;
  orderNumber: string;
  decision: Accepted;
  invoiceNumber: string | null;
  /** The first credit note of a refund (one per invoice it credits: `creditNotes`). */
  creditNote: { id: string; number: string; isDemo: boolean } | null;
  creditNotes: Array<{ id: string; number: string; isDemo: boolean }>;
  statusEmail: StatusEmailOutcome | null;
  /**
   * Money owed back by this change, reserved as `due` refunds in its transaction; the approved ones
   * are made once committed (by applyTransition, or the caller's afterCommit).
   */
  refunds: Array<{ refundId: string; amountCents: number; approved: boolean; iban: IbanRequestOutcome }>;
  /** Stripe sessions to expire once committed. */
  stripeSessions: string[];
  /** What became of `refunds` (filled by applyTransition after the commit). */
  refundResults: RefundResult[];
  /** The supplement row `request_supplement` created. */
  adjustmentId: string | null;
}

/** What became of money owed back once the change is committed (refunds.server.ts makes it). */
export type RefundResult =
  | {
      ok: true;
      refundId: string;
      amountCents: number;
      creditNoteNumber: string | null;
      status: 'succeeded' | 'pending';
    }
  /** `due`: the money is still owed, « à rembourser » with this reason (a retry is possible). */
  | { ok: false; message: string; due?: boolean };

export type TransitionResult =
  | AppliedTransition
  | { ok: false; code: string; message: string; orderNumber: string | null };

export const NOT_FOUND_MESSAGE = 'Commande introuvable';

/** The reason of a reduction's refund, on its credit note. */
export const REDUCTION_REASON = 'Écart au comptage à la réception';

export interface LockedOrder {
  facts: OrderFacts;
  state: OrderState;
  placedAt: Date | null;
  accessTokenHash: string | null;
}

/** Locks the order row (FOR UPDATE) and reads its lifecycle state. */
export function lockOrderState(
  tx: Tx,
  orderId: string,
  context: { refundId?: string } = {},
): Promise<LockedOrder | null> {
  return loadOrderState(tx, orderId, { ...context, lock: true });
}

/**
 * Reads an order's lifecycle state without locking it: what the back office may offer
 * (allowedTransitions), never what it then does (applyTransition locks and asks again).
 */
export function readOrderState(executor: Executor, orderId: string): Promise<LockedOrder | null> {
  return loadOrderState(executor, orderId, { lock: false });
}

async function loadOrderState(
  tx: Executor,
  orderId: string,
  context: { refundId?: string; lock: boolean },
): Promise<LockedOrder | null> {
  const facts = await loadOrderFacts(tx, orderId, { lock: context.lock });
  if (!facts) return null;
  const extra = await tx.execute<{
    placed_at: string | null;
    early_start_consent_at: string | null;
    refunded: number;
    owed: number;
    token: string | null;
    has_address: boolean;
    supplements_paid: number;
    open_supplement_id: string | null;
    open_supplement_amount: number | null;
    kind: string | null;
    gift_card_used: boolean;
    review_open: boolean;
  }>(sql`
    select o.placed_at, o.access_token_hash as token, o.early_start_consent_at,
      coalesce((select l.kind from linked_orders l where l.order_id = o.id),
        (select 'gift_card' from gift_card_sales g where g.order_id = o.id)) as kind,
      exists (select 1 from gift_cards c join gift_card_ledger e on e.card_id = c.id
        where c.sale_order_id = o.id and e.kind = 'spent') as gift_card_used,
      exists (select 1 from order_addresses a where a.order_id = o.id and a.kind = 'delivery') as has_address,
      (select coalesce(sum(j.amount), 0)::int from order_adjustments j
        where j.order_id = o.id and j.kind = 'supplement' and j.status = 'paid') as supplements_paid,
      s.id as open_supplement_id, s.amount as open_supplement_amount,
      exists (select 1 from order_reviews v where v.order_id = o.id and v.closed_at is null) as review_open,
      (select coalesce(sum(r.amount) filter (where r.status in ('pending', 'succeeded')), 0)::int from ${forTheOrder(context.refundId)}) as refunded,
      (select coalesce(sum(r.amount) filter (where r.status = 'due'), 0)::int from ${forTheOrder(context.refundId)}) as owed
    from orders o
    left join order_adjustments s on s.order_id = o.id and s.kind = 'supplement' and s.status = 'awaiting_customer'
    where o.id = ${orderId}`);
  const row = extra.rows[0];
  const { paymentStatus } = facts;
  const paid = wasPaid(paymentStatus);
  return {
    facts,
    placedAt: row?.placed_at ? new Date(row.placed_at) : null,
    accessTokenHash: row?.token ?? null,
    state: {
      // Extra copies and retention extensions (decision 029), gift cards (037); a digitisation otherwise.
      kind: isOrderKind(row?.kind) ? row.kind : 'digitisation',
      giftCardUsed: Boolean(row?.gift_card_used),
      giftCardCents: facts.giftCard?.cents ?? 0,
      giftCardOpen: facts.giftCard?.open ?? true,
      discountCents: facts.discountCents,
      status: facts.status,
      paymentStatus,
      paymentMethod: facts.paymentMethod,
      placed: Boolean(row?.placed_at),
      withdrawn: facts.withdrawnAt !== null,
      totalCents: facts.totalPriceCents,
      // An order is paid only for its exact amount (the rule book), so what paid it is its total,
      // plus the reception supplements paid since.
      paidCents: paid ? facts.totalPriceCents + Number(row?.supplements_paid ?? 0) : 0,
      refundedCents: Number(row?.refunded ?? 0),
      owedCents: Number(row?.owed ?? 0),
      stage: facts.stage,
      physical: shipsSomethingPhysical(facts),
      hasDeliveryAddress: Boolean(row?.has_address),
      supplement: row?.open_supplement_id
        ? { id: row.open_supplement_id, amountCents: Number(row.open_supplement_amount) }
        : null,
      workNotBefore: workNotBefore({
        createdAt: facts.createdAt,
        earlyStartConsentAt: row?.early_start_consent_at ? new Date(row.early_start_consent_at) : null,
      }),
      reviewOpen: Boolean(row?.review_open),
    },
  };
}

/**
 * The refunds of the order's money (`r`), but `refundId` (the one being completed): those of money
 * that paid it or its supplements, not those of money it could not take (refundUnappliedPayment).
 */
function forTheOrder(refundId: string | undefined) {
  return sql`refunds r where r.order_id = o.id and r.id is distinct from ${refundId ?? null}::uuid
    and (r.payment_id is null or exists (select 1 from payments p where p.id = r.payment_id
      and (p.settles_order or p.adjustment_id is not null)))`;
}

/**
 * Applies a transition inside the caller's transaction. The caller must run `afterCommit` with the
 * result once its transaction has committed (applyTransition does both).
 */
export async function applyTransitionInTx(
  tx: Tx,
  orderId: string,
  transition: Transition,
  actor: Actor,
  context: TransitionContext = {},
): Promise<TransitionResult> {
  const locked = await lockOrderState(tx, orderId, context);
  if (!locked) return { ok: false, code: 'not_found', message: NOT_FOUND_MESSAGE, orderNumber: null };
  const { facts, state } = locked;
  const now = context.now ?? new Date();
  const decision = decide(state, transition, now);
  if (!decision.ok) return { ok: false, code: decision.code, message: decision.message, orderNumber: facts.number };

  const next = decision.next;
  await tx
    .update(orders)
    .set({
      status: next.status,
      paymentStatus: next.paymentStatus,
      paymentMethod: next.paymentMethod,
      // Placing the order accepts the terms of sale (their section 4): version and date recorded with it.
      ...(next.placed && !state.placed ? { placedAt: now, termsVersion: TERMS_VERSION, termsAcceptedAt: now } : {}),
      ...(next.withdrawn && !state.withdrawn ? { withdrawnAt: now } : {}),
      ...(next.paymentStatus === 'paid' && state.paymentStatus !== 'paid' ? { paidAt: now } : {}),
      stage: next.stage,
      ...(transition.type === 'receive' ? { receivedAt: now, dueAt: new Date(transition.dueAt) } : {}),
      ...(transition.type === 'ship' ? { shippedAt: now } : {}),
      // Published files are online, again after a deletion (that one was the old files'); a guest's
      // first publication stores the hash of the e-mail's delivery token.
      ...(transition.type === 'publish_files'
        ? {
            filesPublishedAt: now,
            filesExpireAt: new Date(transition.expiresAt),
            filesReminderSentAt: null,
            filesDeletedAt: null,
            ...(context.deliveryTokenHash ? { deliveryTokenHash: context.deliveryTokenHash } : {}),
          }
        : {}),
      updatedAt: now,
    })
    .where(eq(orders.id, orderId));
  const adjustmentId = await writeAdjustment(tx, orderId, transition, context, now);

  const [event] = await tx
    .insert(orderEvents)
    .values({
      orderId,
      at: now,
      actor,
      kind: decision.event.kind,
      from: decision.event.from,
      to: decision.event.to,
      data: eventData(transition, context),
    })
    .returning({ id: orderEvents.id });

  const applied: AppliedTransition = {
    ok: true,
    orderId,
    orderNumber: facts.number,
    decision,
    invoiceNumber: null,
    creditNote: null,
    creditNotes: [],
    statusEmail: null,
    refunds: [],
    stripeSessions: [],
    refundResults: [],
    adjustmentId,
  };
  const run = { tx, facts, transition, actor, context, now, applied, eventId: event?.id ?? 0 };
  for (const effect of decision.effects) await perform(run, effect);
  // A refund paid: the customer's IBAN, if they gave one for it, is deleted with it (decision 025).
  if (transition.type === 'refund') {
    await forgetIbanWhenSettled(tx, {
      orderId,
      actor,
      amountCents: transition.amountCents,
      method: context.refundMethod,
      now,
    });
  }
  // A staff member's action goes to the audit log, in this transaction (customers' and gateways' do not).
  const change = transitionAuditChange(state, next, transition, {
    invoiceNumber: applied.invoiceNumber,
    creditNoteNumber: applied.creditNote?.number,
    reason: context.reason,
  });
  await recordStaffAudit(tx, { actor, subject: orderId, subjectLabel: facts.number, at: now, ...change });
  return applied;
}

/** The reception supplements follow their transitions: created, paid, declined. */
async function writeAdjustment(
  tx: Tx,
  orderId: string,
  transition: Transition,
  context: TransitionContext,
  now: Date,
): Promise<string | null> {
  switch (transition.type) {
    case 'request_supplement': {
      const [row] = await tx
        .insert(orderAdjustments)
        .values({
          orderId,
          receptionId: context.adjustment?.receptionId ?? null,
          kind: 'supplement',
          amountCents: transition.amountCents,
          pricing: context.adjustment?.pricing ?? {},
          accessTokenHash: context.adjustment?.accessTokenHash ?? null,
          createdAt: now,
        })
        .returning({ id: orderAdjustments.id });
      return row?.id ?? null;
    }
    case 'record_reduction': {
      // Items counted short at reception: the reduction, owed back until its refund is made.
      const [row] = await tx
        .insert(orderAdjustments)
        .values({
          orderId,
          receptionId: context.adjustment?.receptionId ?? null,
          kind: 'reduction',
          amountCents: transition.amountCents,
          pricing: context.adjustment?.pricing ?? {},
          status: 'refund_due',
          createdAt: now,
        })
        .returning({ id: orderAdjustments.id });
      return row?.id ?? null;
    }
    case 'refund': {
      // The refund of a reduction settles it once nothing of it is owed any more.
      if (!context.refundId) return null;
      const settled = await tx.execute<{ id: string }>(sql`
        update order_adjustments a set status = 'refunded', decided_at = ${now}
        from refunds r
        where r.id = ${context.refundId} and a.id = r.adjustment_id and a.status = 'refund_due'
          and not exists (select 1 from refunds o where o.adjustment_id = a.id and o.status = 'due' and o.id <> r.id)
        returning a.id`);
      return settled.rows[0]?.id ?? null;
    }
    case 'settle_supplement':
    case 'decline_supplement':
      await tx
        .update(orderAdjustments)
        .set({
          status: transition.type === 'settle_supplement' ? 'paid' : 'declined',
          ...(transition.type === 'decline_supplement' ? { decision: transition.decision } : {}),
          decidedAt: now,
        })
        .where(eq(orderAdjustments.id, transition.adjustmentId));
      return transition.adjustmentId;
    default:
      return null;
  }
}

function refundReason(decision: Accepted): string {
  if (decision.event.kind === 'withdrawal_requested' || decision.event.kind === 'withdrawal_settled') {
    return 'Rétractation du client';
  }
  if (decision.event.kind === 'reduction_recorded') return REDUCTION_REASON;
  return 'Commande annulée';
}

function eventData(transition: Transition, context: TransitionContext): Record<string, unknown> {
  const { type: _type, ...fields } = transition;
  return {
    ...fields,
    ...(context.payment
      ? { paymentId: context.payment.id, provider: context.payment.provider, reference: context.payment.reference }
      : {}),
    ...(context.detail ? { detail: context.detail } : {}),
    ...(context.reason ? { reason: context.reason } : {}),
    ...(context.refundId ? { refundId: context.refundId } : {}),
    ...context.data,
  };
}

interface Run {
  tx: Tx;
  facts: OrderFacts;
  transition: Transition;
  actor: Actor;
  context: TransitionContext;
  now: Date;
  applied: AppliedTransition;
  eventId: number;
}

function validEmail(facts: OrderFacts): string | null {
  const email = facts.customer.email?.trim();
  return email && z.email().safeParse(email).success ? email : null;
}

function customerLabel(facts: OrderFacts): string {
  return customerName(facts) ?? facts.customer.email ?? 'client invité';
}

async function perform(run: Run, effect: Effect): Promise<void> {
  const { tx, facts, applied } = run;
  switch (effect.kind) {
    case 'notify':
      await tx.insert(notifications).values({ orderId: facts.id, ...notificationFor(run, effect.about) });
      return;
    case 'invoice': {
      const invoice = await issueInvoice(tx, {
        orderId: facts.id,
        actor: run.actor,
        payment: {
          method: applied.decision.next.paymentMethod,
          paidAt: run.now,
          provider: run.context.payment?.provider ?? null,
        },
      });
      applied.invoiceNumber = invoice.number;
      return;
    }
    case 'issue_gift_card':
      await issueGiftCardInTx(tx, { saleOrderId: facts.id, actor: run.actor, now: run.now });
      return;
    case 'cancel_gift_card': {
      // Withdrawn unused: the card's whole value goes back with the order's refund (the guard saw it
      // unused; the card's lock decides against a spend made meanwhile, and then nothing is written).
      const refusal = await closeUnusedGiftCard(tx, { saleOrderId: facts.id, actor: run.actor, now: run.now });
      if (refusal) throw new GiftCardInUseError(refusal);
      return;
    }
    case 'restore_gift_card': {
      await restoreGiftCard(run, effect.amountCents);
      return;
    }
    case 'release_promotions':
      await releasePromotionUses(tx, facts.id, run.now);
      return;
    case 'extend_retention': {
      // A paid « Prolonger d’un an »: the source order's files are kept longer, in this transaction.
      await applyPaidRetentionExtension(tx, facts.id, run.actor, run.now);
      return;
    }
    case 'credit_note': {
      applied.creditNotes = await creditRefund(run, effect.amountCents);
      const [first] = applied.creditNotes;
      applied.creditNote = first ?? null;
      if (first && run.context.refundId) {
        await tx.execute(
          sql`update refunds set credit_note_id = ${first.id}, updated_at = now() where id = ${run.context.refundId}`,
        );
      }
      return;
    }
    case 'close_payment_sessions': {
      const closed = await tx
        .update(payments)
        .set({ status: 'canceled', updatedAt: run.now })
        .where(and(eq(payments.orderId, facts.id), eq(payments.status, 'pending')))
        .returning({ provider: payments.provider, ref: payments.providerRef });
      for (const session of closed) {
        await tx.insert(orderEvents).values({
          orderId: facts.id,
          at: run.now,
          actor: 'system',
          kind: 'payment_session_closed',
          data: { provider: session.provider, sessionId: session.ref, reason: effect.reason },
        });
        if (session.provider === 'stripe') applied.stripeSessions.push(session.ref);
      }
      return;
    }
    case 'supplement_invoice': {
      const invoice = await issueSupplementInvoice(tx, {
        orderId: facts.id,
        adjustmentId: effect.adjustmentId,
        amountCents: effect.amountCents,
        actor: run.actor,
        payment: {
          method: applied.decision.next.paymentMethod,
          paidAt: run.now,
          provider: run.context.payment?.provider ?? null,
        },
      });
      applied.invoiceNumber = invoice.number;
      return;
    }
    case 'refund':
      await reserveRefund(run, effect);
      return;
    case 'email':
      await queueEmail(run, effect.template);
      return;
  }
}

/**
 * The credit notes of a refund of `amountCents`, the one the refund row is linked to first. Money a
 * buyer's refusal already credited (decision 047) is given back under that credit note, never
 * credited a second time; the rest gets one credit note per invoice it credits (the order's, then
 * its supplements'), each within what remains of it.
 */
async function creditRefund(
  run: Run,
  amountCents: number,
): Promise<Array<{ id: string; number: string; isDemo: boolean }>> {
  const { tx, facts, context } = run;
  const [refused] = context.refundId ? await refusalCreditsLeft(tx, facts.id, context.refundId) : [];
  const covered = refused ? Math.min(refused.leftCents, amountCents) : 0;
  const rest = amountCents - covered;
  const issued =
    rest > 0
      ? await issueCreditNotes(tx, {
          orderId: facts.id,
          actor: run.actor,
          reason: context.reason ?? 'Remboursement',
          amountCents: rest,
        })
      : [];
  const notes = issued.map((note) => ({ id: note.id, number: note.number, isDemo: note.isDemo }));
  return refused ? [{ id: refused.id, number: refused.number, isDemo: refused.isDemo }, ...notes] : notes;
}

/**
 * Reserves money owed back as `due` refunds in the change's transaction: what a gift card paid goes
 * back to that card first (decision 037, its own row), the rest the way the order was paid. Not
 * approved (who made the change lacks the refund right): the « à rembourser » alert goes to the
 * staff at once.
 */
async function reserveRefund(run: Run, effect: Extract<Effect, { kind: 'refund' }>): Promise<void> {
  const { tx, facts, applied, context } = run;
  const reason = context.reason ?? refundReason(applied.decision);
  const toCard = await giftCardShareOfRefund(tx, facts, effect.amountCents, run.now);
  const parts = [
    { method: 'gift_card' as const, amountCents: toCard },
    { method: context.refundMethod ?? ('gateway' as const), amountCents: effect.amountCents - toCard },
  ];
  for (const part of parts.filter((candidate) => candidate.amountCents > 0)) {
    const [row] = await tx
      .insert(refunds)
      .values({
        orderId: facts.id,
        method: part.method,
        amountCents: part.amountCents,
        reason,
        actor: run.actor,
        status: 'due',
        adjustmentId: run.transition.type === 'record_reduction' ? applied.adjustmentId : null,
      })
      .returning({ id: refunds.id });
    if (!row) throw new Error('refunds: the insert returned no row');
    // Paid by transfer or cheque: the customer is asked for their IBAN with this change (decision 025).
    const iban =
      part.method === 'gift_card'
        ? null
        : await requestIbanForRefund(tx, facts, {
            refundId: row.id,
            amountCents: part.amountCents,
            method: part.method,
            reason,
            accessToken: context.accessToken ?? null,
            now: run.now,
            notify: effect.approved,
          });
    if (!effect.approved) {
      await tx.insert(orderEvents).values({
        orderId: facts.id,
        at: run.now,
        actor: run.actor,
        kind: 'refund_due',
        data: { amountCents: part.amountCents, refundId: row.id, reason },
      });
      await tx.insert(notifications).values({
        kind: 'payment',
        orderId: facts.id,
        status: 'refund_due',
        title: `À rembourser — commande ${facts.number}`,
        body: `${formatEurosFromCents(part.amountCents)} à rembourser${part.method === 'gift_card' ? ' sur la carte cadeau' : ''} (${reason}) : à approuver par une personne habilitée aux remboursements.`,
      });
    }
    applied.refunds.push({ refundId: row.id, amountCents: part.amountCents, approved: effect.approved, iban });
  }
}

/**
 * How much of a refund of `amountCents` goes back to the order's gift card (splitGiftCardRefund):
 * up to what the card paid of the order, less what is already owed back to it.
 */
export async function giftCardShareOfRefund(
  tx: Tx,
  facts: OrderFacts,
  amountCents: number,
  now: Date,
): Promise<number> {
  if (!facts.giftCard || facts.giftCard.cents <= 0) return 0;
  const ledger = await giftCardLedgerOf(tx, facts.giftCard.cardId, facts.giftCard.expiresAt);
  const [owed] = await tx
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.orderId, facts.id), eq(refunds.method, 'gift_card'), eq(refunds.status, 'due')));
  const { toCardCents } = splitGiftCardRefund(ledger, facts.id, amountCents, now);
  return Math.max(0, Math.min(toCardCents, facts.giftCard.cents - Number(owed?.cents ?? 0)));
}

/** A gift card gets back what it paid of this order (a `restored` entry, under the card's lock). */
async function restoreGiftCard(run: Run, amountCents: number): Promise<void> {
  const { tx, facts } = run;
  const card = facts.giftCard;
  if (!card || amountCents <= 0) return;
  const refusal = await recordGiftCardEntry(tx, card.cardId, {
    kind: 'restored',
    amountCents,
    orderId: facts.id,
    at: run.now,
    actor: run.actor,
  });
  // Expired or closed since: by the card's terms nothing goes back to it (docs/payments.md).
  if (refusal) log.warn({ orderId: facts.id, amountCents, refusal }, 'gift card: nothing restored');
}

function notificationFor(
  run: Run,
  about: Extract<Effect, { kind: 'notify' }>['about'],
): { kind: 'order' | 'payment' | 'withdrawal'; status: string; title: string; body: string } {
  const { facts, applied, context } = run;
  const amount = formatEurosFromCents(facts.totalPriceCents);
  const method = applied.decision.next.paymentMethod;
  switch (about) {
    case 'new_order': {
      const items = facts.items.reduce((sum, line) => sum + line.quantity, 0);
      return {
        kind: 'order',
        status: 'pending',
        title: `Nouvelle commande ${facts.number}`,
        body: `${amount} · ${items} élément${items > 1 ? 's' : ''} · ${customerLabel(facts)} · ${paymentMethodLabel(method)}`,
      };
    }
    case 'payment_received': {
      const provider = context.payment ? PAYMENT_PROVIDER_LABELS[context.payment.provider] : null;
      return {
        kind: 'payment',
        status: 'paid',
        title: `Paiement reçu — commande ${facts.number}`,
        body: provider
          ? `${amount} payés par carte (${provider}).`
          : `${amount} reçus par ${paymentMethodLabel(method).toLowerCase()}.`,
      };
    }
    case 'supplement_paid': {
      const provider = context.payment ? PAYMENT_PROVIDER_LABELS[context.payment.provider] : null;
      const invoiced = applied.decision.effects.find((effect) => effect.kind === 'supplement_invoice');
      const supplement = formatEurosFromCents(invoiced?.kind === 'supplement_invoice' ? invoiced.amountCents : 0);
      return {
        kind: 'payment',
        status: 'paid',
        title: `Supplément payé — commande ${facts.number}`,
        body: provider
          ? `Supplément de ${supplement} payé par carte (${provider}).`
          : `Supplément de ${supplement} reçu par ${paymentMethodLabel(method).toLowerCase()}.`,
      };
    }
    case 'payment_failed': {
      const provider = context.payment ? PAYMENT_PROVIDER_LABELS[context.payment.provider] : null;
      return {
        kind: 'payment',
        status: 'failed',
        title: `Échec de paiement — commande ${facts.number}`,
        body: provider
          ? `Le paiement par ${provider} a échoué${context.detail ? ` (${context.detail})` : ''}.`
          : `Le paiement par ${paymentMethodLabel(method).toLowerCase()} a été rejeté.`,
      };
    }
    case 'payment_method':
      return {
        kind: 'payment',
        status: 'pending',
        title: `Paiement par ${paymentMethodLabel(method).toLowerCase()} attendu — commande ${facts.number}`,
        body: `${amount} à recevoir, référence ${facts.number}.`,
      };
    case 'withdrawal':
      return {
        kind: 'withdrawal',
        status: applied.decision.next.status,
        title: `Rétractation — commande ${facts.number}`,
        body: `${customerLabel(facts)} s’est rétracté le ${run.now.toLocaleString('fr-FR', { timeZone: 'Europe/Paris' })}.`,
      };
  }
}

async function queueEmail(run: Run, template: Extract<Effect, { kind: 'email' }>['template']): Promise<void> {
  const { tx, facts, applied, context } = run;
  const next = applied.decision.next;
  switch (template) {
    case 'order-confirmation': {
      const method = next.paymentMethod;
      await enqueueOrderConfirmation(tx, {
        orderId: facts.id,
        accessToken: context.accessToken ?? null,
        ...(method === 'card' || method === 'gift_card' ? {} : { paymentMethod: method }),
      });
      return;
    }
    case 'payment-received':
      await enqueuePaymentReceived(tx, facts, {
        paidAt: run.now,
        invoiceNumber: applied.invoiceNumber,
        accessToken: context.accessToken ?? null,
      });
      return;
    case 'order-status':
      applied.statusEmail = await queueStatusEmail(run, next.status);
      return;
    case 'payment-rejected':
      await enqueuePaymentRejected(tx, facts, {
        accessToken: context.accessToken ?? null,
        eventId: run.eventId,
        reason: context.reason,
      });
      return;
    case 'withdrawal-acknowledgement': {
      // Not checked beforehand: the law asks for this acknowledgement, so an address the outbox
      // refuses aborts the withdrawal (the customer is told to try again) rather than skip it.
      const email = facts.customer.email?.trim();
      if (!email) return;
      await enqueueEmail(tx, {
        to: email,
        template: 'withdrawal-acknowledgement',
        data: {
          orderNumber: facts.number,
          requestedAt: run.now.toISOString(),
          orderDate: facts.createdAt.toISOString(),
          customerName: facts.customer.firstName || undefined,
          // The case the rule applied, from the order as it was: the text per case.
          withdrawalCase: withdrawalCase({ ...facts, kind: run.applied.decision.next.kind }),
          originals: originalsState({ ...facts, shippedAt: null }),
          refundCents: applied.decision.effects.reduce((sum, e) => sum + (e.kind === 'refund' ? e.amountCents : 0), 0),
        },
        dedupeKey: `withdrawal:${facts.id}`,
        orderId: facts.id,
      });
      return;
    }
    case 'refund-issued':
      await queueRefundEmail(run);
      return;
    case 'originals-received':
    case 'order-ready':
    case 'order-shipped':
    case 'supplement-requested':
    case 'supplement-paid':
      await enqueueJourneyEmail(tx, facts, {
        template,
        eventKey: `event${run.eventId}`,
        now: run.now,
        accessToken: context.accessToken ?? null,
        adjustmentId: applied.adjustmentId,
        invoiceNumber: applied.invoiceNumber,
        data: {
          ...('amountCents' in run.transition ? { amountCents: run.transition.amountCents } : {}),
          ...context.data,
          ...(context.adjustment?.payToken ? { supplementToken: context.adjustment.payToken } : {}),
        },
      });
      return;
  }
}

async function queueRefundEmail(run: Run): Promise<void> {
  const { tx, facts, applied, context, transition } = run;
  const email = validEmail(facts);
  if (!email || transition.type !== 'refund') return;
  const note = applied.creditNote;
  // Money back to a gift card has no credit note (decision 037); any other refund has its own.
  if (!note && !transition.toGiftCard) return;
  await enqueueEmail(tx, {
    to: email,
    template: 'refund-issued',
    data: {
      orderNumber: facts.number,
      amountCents: transition.amountCents,
      method: transition.toGiftCard ? 'gift_card' : (context.refundMethod ?? 'gateway'),
      ...(note
        ? {
            creditNoteNumber: note.number,
            otherCreditNotes: applied.creditNotes.slice(1).map((other) => other.number),
            creditNoteUrl: withGuestToken(
              `/facture/${facts.id}?avoir=${encodeURIComponent(note.number)}`,
              await guestLinkToken(tx, facts.id, context.accessToken ?? null),
            ),
          }
        : {}),
      customerArea: facts.userId !== null,
      partial: transition.amountCents < facts.totalPriceCents,
      demo: note?.isDemo ?? false,
      customerName: customerName(facts),
      ...(context.reason ? { reason: context.reason } : {}),
    },
    dedupeKey: `refund-issued:${context.refundId ?? run.eventId}`,
    orderId: facts.id,
  });
}

/** Where the customer follows their orders: the account for account holders; guests have no page to link. */
function customerOrderUrl(userId: string | null): string | undefined {
  return userId ? '/profile' : undefined;
}

async function queueStatusEmail(run: Run, status: OrderStatus): Promise<StatusEmailOutcome> {
  const { tx, facts } = run;
  const recipient = (facts.customer.email ?? '').trim();
  const name = customerName(facts) ?? '';
  try {
    const queued = await enqueueOrderStatusEmail(tx, {
      orderId: facts.id,
      email: recipient,
      customer: facts.customer.firstName?.trim() || name,
      status,
      statusLabel: orderStatusLabel(status),
      orderUrl: customerOrderUrl(facts.userId),
      eventKey: `event${run.eventId}`,
    });
    if (!queued.success) {
      return queued.skipped ? { kind: 'skipped', reason: queued.skipped } : { kind: 'failed', error: queued.error };
    }
    await tx.insert(orderEvents).values({
      orderId: facts.id,
      at: run.now,
      actor: run.actor,
      kind: 'email_queued',
      data: { to: recipient, outboxId: queued.outboxId, template: 'order-status' },
    });
    return { kind: 'queued', outboxId: queued.outboxId, recipient, recipientName: name || recipient };
  } catch (error) {
    // The status change still stands: the e-mail's failure is reported, not the whole change.
    log.error({ err: error, orderId: facts.id }, 'the status e-mail could not be queued');
    return { kind: 'failed', error: "Erreur lors de l'envoi de l'email" };
  }
}
