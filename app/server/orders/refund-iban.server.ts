import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatEurosFromCents } from '~/domain/format';
import {
  formatIban,
  IBAN_MAX_KEEP_DAYS,
  IBAN_PAGE_MESSAGES,
  IBAN_REMINDER_DAYS,
  type IbanForm,
  ibanFormSchema,
  maskIban,
} from '~/domain/orders/iban';
import { recordAudit, recordStaffAudit } from '../audit/audit.server';
import type { Executor } from '../config/config-options.server';
import { decryptSecret, encryptSecret } from '../crypto.server';
import { db, type Tx } from '../db/client.server';
import { notifications, orderEvents, refundBankDetails, refunds } from '../db/schema';
import { guestLinkToken, withGuestToken } from '../email/guest-links.server';
import { enqueueEmail } from '../email/outbox.server';
import { customerName, loadOrderFacts, type OrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import { supportsRefund } from '../payments/refunds.server';

/*
 * The customer's IBAN for a refund by transfer (docs/decisions/025-refund-iban.md).
 *
 * Money owed back on an order that no card can take it back to (paid by transfer or cheque) is
 * reserved as a `due` refund like any other (refunds.server.ts, decision 022); in that same
 * transaction `requestIbanForRefund` records the request and queues « Indiquez-nous votre IBAN »
 * with a link to /remboursement/:orderId (a guest's link carries the order's token). The customer
 * gives holder, IBAN and BIC there (`saveIban`): encrypted at rest (AES-256-GCM bound to the order,
 * crypto.server.ts), never logged; staff see it masked, and those with the refund right read it in
 * full (`revealIban`, journaled). When the refund is marked paid through the lifecycle's `refund`
 * transition, `forgetIbanWhenSettled` deletes it in that transaction; the housekeeping reminds the
 * customer once and deletes an IBAN unused after IBAN_MAX_KEEP_DAYS.
 */

const detailsSchema = z.object({ holder: z.string(), iban: z.string(), bic: z.string().nullable() });
export type BankDetails = z.infer<typeof detailsSchema>;

/** The encryption context: a ciphertext copied to another order's row does not decrypt there. */
function context(orderId: string): string {
  return `refund_bank_details:${orderId}`;
}

/** The customer's page, with a guest's token when they have no account. */
export function ibanPagePath(orderId: string): string {
  return `/remboursement/${orderId}`;
}

/** What a card gateway can still give back on the order (its card payments, less their refunds). */
async function cardCapacity(executor: Executor, orderId: string): Promise<number> {
  const result = await executor.execute<{ provider: string; remaining: number }>(sql`
    select p.provider, (p.amount - coalesce((select sum(r.amount) from refunds r
      where r.payment_id = p.id and r.status in ('pending', 'succeeded')), 0))::int as remaining
    from payments p
    where p.order_id = ${orderId} and p.status = 'paid' and (p.settles_order or p.adjustment_id is not null)`);
  return result.rows
    .filter((row) => supportsRefund(row.provider))
    .reduce((sum, row) => sum + Math.max(0, Number(row.remaining)), 0);
}

/** The money still owed back on the order (its `due` refunds). */
async function owedCents(executor: Executor, orderId: string): Promise<number> {
  const result = await executor.execute<{ owed: number }>(
    sql`select coalesce(sum(amount), 0)::int as owed from refunds where order_id = ${orderId} and status = 'due'`,
  );
  return Number(result.rows[0]?.owed ?? 0);
}

async function queueRequest(
  tx: Tx,
  facts: OrderFacts,
  input: { key: string; reminder: boolean; reason?: string; accessToken?: string | null; now: Date },
): Promise<number> {
  const amountCents = await owedCents(tx, facts.id);
  const email = facts.customer.email?.trim();
  if (!email || amountCents <= 0) return 0;
  const token = await guestLinkToken(tx, facts.id, input.accessToken ?? null);
  await enqueueEmail(tx, {
    to: email,
    template: 'refund-iban-request',
    data: {
      orderNumber: facts.number,
      amountCents,
      ibanUrl: withGuestToken(ibanPagePath(facts.id), token),
      reminder: input.reminder,
      customerName: facts.customer.firstName?.trim() || customerName(facts),
      ...(input.reason ? { reason: input.reason } : {}),
    },
    dedupeKey: input.key,
    orderId: facts.id,
  });
  await tx.insert(orderEvents).values({
    orderId: facts.id,
    at: input.now,
    actor: 'system',
    kind: 'iban_requested',
    data: { amountCents, reminder: input.reminder },
  });
  return amountCents;
}

export type IbanRequestOutcome =
  /** No IBAN needed: a card gateway can take the money back, or the staff pay it by hand now. */
  | null
  /** Asked (or already asked): the refund waits for the customer's IBAN. */
  | 'awaiting_iban'
  /** Already given for an earlier refund of the order: the refund waits for the staff's transfer. */
  | 'iban_on_file';

/**
 * Called where a refund becomes `due` (the lifecycle's reservation), in its transaction: when the
 * refund is to go back through the gateway (the default) but no card payment of the order can take
 * it, it will be paid by transfer: the row says so, and the customer is asked for their IBAN (once
 * per order while one is pending or given). A refund the staff make by hand at once (transfer or
 * cheque chosen in the form) asks nothing: they already know how they pay it.
 */
export async function requestIbanForRefund(
  tx: Tx,
  facts: OrderFacts,
  input: {
    refundId: string;
    amountCents: number;
    method: 'gateway' | 'transfer' | 'cheque';
    reason?: string;
    accessToken?: string | null;
    now: Date;
    /** The staff's alert (« À rembourser par virement »), unless the change raises its own. */
    notify: boolean;
  },
): Promise<IbanRequestOutcome> {
  if (input.method !== 'gateway') return null;
  if ((await cardCapacity(tx, facts.id)) >= input.amountCents) return null;
  await tx.update(refunds).set({ method: 'transfer' }).where(eq(refunds.id, input.refundId));
  const [existing] = await tx
    .insert(refundBankDetails)
    .values({ orderId: facts.id, requestedAt: input.now })
    .onConflictDoNothing()
    .returning({ orderId: refundBankDetails.orderId });
  const [row] = await tx
    .select({ receivedAt: refundBankDetails.receivedAt })
    .from(refundBankDetails)
    .where(eq(refundBankDetails.orderId, facts.id));
  const onFile = Boolean(row?.receivedAt);
  if (!existing && !onFile) {
    // Asked already and not given yet: the request starts again for the new total.
    await tx
      .update(refundBankDetails)
      .set({ requestedAt: input.now, reminderSentAt: null })
      .where(eq(refundBankDetails.orderId, facts.id));
  }
  if (!onFile) {
    await queueRequest(tx, facts, {
      key: `refund-iban:${input.refundId}`,
      reminder: false,
      reason: input.reason,
      accessToken: input.accessToken,
      now: input.now,
    });
  }
  if (input.notify)
    await tx.insert(notifications).values({
      kind: 'payment',
      orderId: facts.id,
      status: 'refund_due',
      title: `À rembourser par virement — commande ${facts.number}`,
      body: onFile
        ? `${formatEurosFromCents(input.amountCents)} à virer sur l’IBAN déjà indiqué par le client.`
        : `${formatEurosFromCents(input.amountCents)} : en attente de l’IBAN du client (demandé par e-mail).`,
    });
  return onFile ? 'iban_on_file' : 'awaiting_iban';
}

export interface IbanStatus {
  requestedAt: Date;
  receivedAt: Date | null;
  /** `FR76 •••• •••• 0189` once given. */
  masked: string | null;
  /** What is still owed back on the order. */
  owedCents: number;
}

/** Where the order's IBAN request stands, or null when none was made (or it was deleted). */
export async function ibanStatus(orderId: string, executor: Executor = db()): Promise<IbanStatus | null> {
  const [row] = await executor
    .select({
      requestedAt: refundBankDetails.requestedAt,
      receivedAt: refundBankDetails.receivedAt,
      masked: refundBankDetails.masked,
    })
    .from(refundBankDetails)
    .where(eq(refundBankDetails.orderId, orderId));
  if (!row) return null;
  return { ...row, owedCents: await owedCents(executor, orderId) };
}

export type SaveIbanResult =
  | { ok: true; masked: string; receivedAt: Date }
  | { ok: false; message: string; fieldErrors?: Record<string, string[]> };

/**
 * The customer's page: checks the form (ibanFormSchema: nothing is stored when it fails) and stores
 * the details encrypted, replacing earlier ones (a correction). Refused, changing nothing, when no
 * refund of the order is owed any more.
 */
export async function saveIban(input: {
  orderId: string;
  fields: Record<string, unknown>;
  actor: string;
  now?: Date;
}): Promise<SaveIbanResult> {
  const now = input.now ?? new Date();
  const parsed = ibanFormSchema.safeParse(input.fields);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message];
    }
    return { ok: false, message: parsed.error.issues[0]?.message ?? IBAN_PAGE_MESSAGES.failed, fieldErrors };
  }
  const form: IbanForm = parsed.data;
  return db().transaction(async (tx): Promise<SaveIbanResult> => {
    const [row] = await tx
      .select({ orderId: refundBankDetails.orderId })
      .from(refundBankDetails)
      .where(eq(refundBankDetails.orderId, input.orderId))
      .for('update');
    const owed = await owedCents(tx, input.orderId);
    if (!row || owed <= 0) return { ok: false, message: IBAN_PAGE_MESSAGES.nothingOwed };
    const details: BankDetails = { holder: form.holder, iban: form.iban, bic: form.bic };
    const masked = maskIban(details.iban);
    await tx
      .update(refundBankDetails)
      .set({ details: encryptSecret(JSON.stringify(details), context(input.orderId)), masked, receivedAt: now })
      .where(eq(refundBankDetails.orderId, input.orderId));
    await tx
      .insert(orderEvents)
      .values({ orderId: input.orderId, at: now, actor: input.actor, kind: 'iban_received', data: {} });
    const [order] = await tx
      .execute<{ number: string }>(sql`select number from orders where id = ${input.orderId}`)
      .then((result) => result.rows);
    await tx.insert(notifications).values({
      kind: 'payment',
      orderId: input.orderId,
      status: 'refund_due',
      title: `IBAN reçu — commande ${order?.number ?? ''}`,
      body: `${formatEurosFromCents(owed)} à rembourser par virement : le client a indiqué son IBAN.`,
    });
    return { ok: true, masked, receivedAt: now };
  });
}

/**
 * The full details for who pays the refund (the caller checked the refund right): read, then
 * journaled (who, which order, never the IBAN) in one transaction. Null when none was given.
 */
export async function revealIban(
  orderId: string,
  actor: string,
): Promise<(BankDetails & { formatted: string }) | null> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .select({ details: refundBankDetails.details })
      .from(refundBankDetails)
      .where(eq(refundBankDetails.orderId, orderId));
    if (!row?.details) return null;
    const details = detailsSchema.parse(JSON.parse(decryptSecret(row.details, context(orderId))));
    await recordAudit(tx, { actor, kind: 'order.iban_viewed', subject: orderId });
    return { ...details, formatted: formatIban(details.iban) };
  });
}

/**
 * In the lifecycle's `refund` transition (the refund's row already `succeeded` or `pending`): once
 * nothing is owed back on the order any more, its bank details are deleted in that transaction;
 * the journal records that the staff member used them, with the amount, never the IBAN.
 */
export async function forgetIbanWhenSettled(
  tx: Tx,
  input: { orderId: string; actor: string; amountCents: number; method: string | undefined; now: Date },
): Promise<void> {
  const [row] = await tx
    .select({ receivedAt: refundBankDetails.receivedAt })
    .from(refundBankDetails)
    .where(eq(refundBankDetails.orderId, input.orderId))
    .for('update');
  if (!row) return;
  const given = row.receivedAt !== null;
  if (given && input.method === 'transfer') {
    await recordStaffAudit(tx, {
      actor: input.actor,
      kind: 'order.iban_used',
      subject: input.orderId,
      at: input.now,
      after: { amountCents: input.amountCents },
    });
  }
  if ((await owedCents(tx, input.orderId)) > 0) return;
  await tx.delete(refundBankDetails).where(eq(refundBankDetails.orderId, input.orderId));
  if (given) {
    await tx.insert(orderEvents).values({
      orderId: input.orderId,
      at: input.now,
      actor: 'system',
      kind: 'iban_deleted',
      data: { reason: 'refunded' },
    });
  }
}

const BATCH = 200;

/** Housekeeping: one reminder IBAN_REMINDER_DAYS after the request, when nothing was given and money is owed. */
export async function sendIbanReminders(now: Date = new Date()): Promise<number> {
  return db().transaction(async (tx) => {
    const due = await tx.execute<{ order_id: string }>(sql`
      select b.order_id from refund_bank_details b
      where b.received_at is null and b.reminder_sent_at is null
        and b.requested_at < ${now}::timestamptz - make_interval(days => ${IBAN_REMINDER_DAYS})
        and exists (select 1 from refunds r where r.order_id = b.order_id and r.status = 'due')
      order by b.requested_at limit ${BATCH} for update of b skip locked`);
    let sent = 0;
    for (const { order_id: orderId } of due.rows) {
      await tx.update(refundBankDetails).set({ reminderSentAt: now }).where(eq(refundBankDetails.orderId, orderId));
      const facts = await loadOrderFacts(tx, orderId);
      if (!facts) continue;
      try {
        const key = `refund-iban-reminder:${orderId}:${now.toISOString().slice(0, 10)}`;
        if ((await queueRequest(tx, facts, { key, reminder: true, now })) > 0) sent += 1;
      } catch (error) {
        // An address the outbox refuses: no reminder for this one, the others still go.
        log.warn({ err: error, orderId }, 'the IBAN reminder could not be queued');
      }
    }
    return sent;
  });
}

/**
 * Housekeeping: bank details given more than IBAN_MAX_KEEP_DAYS ago and still unused are deleted
 * (the refund is asked again if still owed: the staff see « En attente de l’IBAN du client »); a
 * request with nothing owed any more (the refund cancelled) is dropped.
 */
export async function deleteUnusedIbans(now: Date = new Date()): Promise<number> {
  return db().transaction(async (tx) => {
    const expired = await tx
      .update(refundBankDetails)
      .set({ details: null, masked: null, receivedAt: null, requestedAt: now, reminderSentAt: null })
      .where(
        and(
          isNotNull(refundBankDetails.receivedAt),
          sql`${refundBankDetails.receivedAt} < ${now}::timestamptz - make_interval(days => ${IBAN_MAX_KEEP_DAYS})`,
        ),
      )
      .returning({ orderId: refundBankDetails.orderId });
    for (const { orderId } of expired) {
      await tx
        .insert(orderEvents)
        .values({ orderId, at: now, actor: 'system', kind: 'iban_deleted', data: { reason: 'expired' } });
    }
    const dropped = await tx.execute<{ order_id: string; given: boolean }>(sql`
      delete from refund_bank_details b
      where not exists (select 1 from refunds r where r.order_id = b.order_id and r.status = 'due')
      returning b.order_id, b.received_at is not null as given`);
    for (const row of dropped.rows.filter((r) => r.given)) {
      await tx.insert(orderEvents).values({
        orderId: row.order_id,
        at: now,
        actor: 'system',
        kind: 'iban_deleted',
        data: { reason: 'expired' },
      });
    }
    return expired.length + dropped.rows.filter((r) => r.given).length;
  });
}
