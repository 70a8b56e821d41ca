import { sql } from 'drizzle-orm';
import { deleteExpiredAuditEntries } from '../audit/audit.server';
import { db } from '../db/client.server';
import { deleteExpiredFiles, sendRetentionReminders } from '../files/retention.server';
import { removeAbandonedUploads } from '../files/uploads.server';
import { log } from '../log.server';
import { loadPaymentConfig } from '../payments/config.server';
import { expireStripeSession } from '../payments/stripe.server';
import { expireGiftCards, remindExpiringGiftCards } from '../vouchers/gift-card-housekeeping.server';
import { closeLapsedReviews, sendReviewReminders } from './preview-keep.server';
import { deleteUnusedIbans, sendIbanReminders } from './refund-iban.server';

/*
 * Background housekeeping of orders (docs/product.md, « The lifecycle »), safe on any number of instances
 * (rows are claimed with FOR UPDATE SKIP LOCKED):
 *  - a card attempt not settled by its gateway within 24 hours is closed (Stripe: expired there
 *    too), so that nothing can pay an old session the customer forgot about;
 *  - a draft never confirmed at checkout is deleted after 30 days, with its lines and history
 *    (never one with a payment or an invoice: those are kept whatever happens).
 *  - the delivered files' retention (decision 011): the reminder 7 days before, then the deletion of
 *    the files from the storage (files/retention.server.ts).
 *  - the IBAN of a refund by transfer (decision 025): one reminder when not given, the deletion of
 *    one given and left unused (refund-iban.server.ts).
 *  - the carrier events of the parcels still travelling (shipping/tracking.server.ts).
 *  - the gift cards (decision 037): the `expired` entry of a card past its end with money left, and
 *    the reminder a month before it (vouchers/gift-card-housekeeping.server.ts).
 *  - e-reporting (decision 051): each finished period's transmission prepared, sent or exported
 *    (e-reporting/transmissions.server.ts).
 * None changes an order's states: an expired attempt leaves the order as it was.
 */

export const CARD_ATTEMPT_TTL_HOURS = 24;
export const DRAFT_TTL_DAYS = 30;
const BATCH = 500;

export async function expireStaleCardAttempts(now: Date = new Date()): Promise<number> {
  const expired = await db().transaction(async (tx) => {
    const result = await tx.execute<{ id: string; order_id: string; provider: string; provider_ref: string }>(sql`
      update payments p set status = 'canceled', updated_at = ${now}
      where p.id in (
        select id from payments
        where status = 'pending' and method = 'card'
          and created_at < ${now}::timestamptz - make_interval(hours => ${CARD_ATTEMPT_TTL_HOURS})
        order by created_at limit ${BATCH} for update skip locked)
      returning p.id, p.order_id, p.provider, p.provider_ref`);
    for (const row of result.rows) {
      await tx.execute(sql`
        insert into order_events (order_id, at, actor, kind, data)
        values (${row.order_id}, ${now}, 'system', 'payment_expired',
          ${JSON.stringify({ paymentId: row.id, provider: row.provider, sessionId: row.provider_ref })}::jsonb)`);
    }
    return result.rows;
  });
  const stripe = expired.filter((row) => row.provider === 'stripe');
  if (stripe.length > 0) {
    const config = await loadPaymentConfig();
    for (const row of stripe) await expireStripeSession(config, row.provider_ref);
  }
  return expired.length;
}

export async function deleteStaleDrafts(now: Date = new Date()): Promise<number> {
  const deleted = await db().execute(sql`
    delete from orders o
    where o.id in (
      select id from orders
      where placed_at is null
        and created_at < ${now}::timestamptz - make_interval(days => ${DRAFT_TTL_DAYS})
        and not exists (select 1 from payments p where p.order_id = orders.id)
        and not exists (select 1 from invoices i where i.order_id = orders.id)
        and not exists (select 1 from refunds r where r.order_id = orders.id)
      order by created_at limit ${BATCH} for update skip locked)
    returning o.id`);
  return deleted.rows.length;
}

let timer: NodeJS.Timeout | undefined;

async function runOnce(): Promise<void> {
  try {
    const [expired, drafts] = [await expireStaleCardAttempts(), await deleteStaleDrafts()];
    const auditEntries = await deleteExpiredAuditEntries();
    const [ibanReminders, ibansDeleted] = [await sendIbanReminders(), await deleteUnusedIbans()];
    if (expired > 0 || drafts > 0 || auditEntries > 0 || ibanReminders > 0 || ibansDeleted > 0)
      log.info({ expired, drafts, auditEntries, ibanReminders, ibansDeleted }, 'order housekeeping');
  } catch (error) {
    log.warn({ err: error }, 'order housekeeping failed; it runs again later');
  }
  // Apart: a storage outage must not stop the payments' housekeeping, nor the other way round.
  try {
    const now = new Date();
    const reminders = await sendRetentionReminders(now);
    const deleted = await deleteExpiredFiles(now);
    // « Preview and keep »: the reminder before the end, then a lapsed review keeps everything.
    const reviewReminders = await sendReviewReminders(now);
    const reviewsClosed = await closeLapsedReviews(now);
    if (reviewReminders > 0 || reviewsClosed > 0) log.info({ reviewReminders, reviewsClosed }, 'files reviews');
    // Uploads the staff started and never finished, no byte for a day (FILES_DIR/uploads).
    const abandonedUploads = await removeAbandonedUploads();
    if (reminders > 0 || deleted.orders > 0 || deleted.failed > 0 || abandonedUploads > 0) {
      log.info({ reminders, ...deleted, abandonedUploads }, 'delivered files retention');
    }
  } catch (error) {
    log.warn({ err: error }, 'delivered files retention failed; it runs again later');
  }
  // Apart too: the gift cards' expiry is money no longer owed, their reminder an e-mail.
  try {
    const now = new Date();
    const giftCardsExpired = await expireGiftCards(now);
    const giftCardReminders = await remindExpiringGiftCards(now);
    if (giftCardsExpired > 0 || giftCardReminders > 0) log.info({ giftCardsExpired, giftCardReminders }, 'gift cards');
  } catch (error) {
    log.warn({ err: error }, 'gift cards housekeeping failed; it runs again later');
  }
  // E-reporting (docs/e-reporting.md): each finished period prepared once, then sent through the
  // plateforme agréée (retried while it fails) or exported. Apart: a platform outage stops nothing else.
  try {
    const { runEReporting } = await import('../e-reporting/transmissions.server');
    const eReporting = await runEReporting();
    if (eReporting.prepared > 0 || eReporting.sent > 0 || eReporting.failed > 0 || eReporting.exported > 0)
      log.info(eReporting, 'e-reporting');
  } catch (error) {
    log.warn({ err: error }, 'e-reporting failed; it runs again later');
  }
  // Apart too: the payment journal's closures, each past day (Paris time) and the ones missed while stopped.
  try {
    const { makeDueClosures } = await import('../payment-journal/closures.server');
    const closures = await makeDueClosures();
    if (closures > 0) log.info({ closures }, 'payment journal closed');
  } catch (error) {
    log.warn({ err: error }, 'payment journal closures failed; they run again later');
  }
  // The parcels still travelling: their carrier events, at most every N minutes each.
  try {
    const { refreshParcelsInTransit } = await import('../shipping/tracking.server');
    const parcels = await refreshParcelsInTransit();
    if (parcels > 0) log.info({ parcels }, 'parcel tracking refreshed');
  } catch (error) {
    log.warn({ err: error }, 'parcel tracking failed; it runs again later');
  }
}

/** Runs the housekeeping now and then every `intervalMs` (15 minutes), in this process. */
export function startOrderHousekeeping(intervalMs = 15 * 60_000): void {
  if (timer) return;
  run();
  timer = setInterval(run, intervalMs);
  timer.unref();
}

/** The pass under way, if any: a stopping server lets it finish before it closes the database. */
let running: Promise<void> | undefined;

function run(): void {
  if (running) return;
  running = runOnce().finally(() => {
    running = undefined;
  });
}

/** No further pass; resolves once the one under way (if any) is over. */
export async function stopOrderHousekeeping(): Promise<void> {
  if (timer) clearInterval(timer);
  timer = undefined;
  await running;
}
