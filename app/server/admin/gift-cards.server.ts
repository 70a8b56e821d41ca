import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PAGE_SIZE } from '~/domain/admin/list-params';
import { countCap, type ListPage, pageOf } from '~/domain/admin/paging';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import {
  GIFT_CARD_OFFICE_MESSAGES,
  type GiftCardOfficeEntry,
  type GiftCardOfficeRow,
  giftCardExtension,
  giftCardLatestExpiry,
  parseGiftCardSearch,
} from '~/domain/vouchers/gift-card-office';
import {
  GIFT_CARD_MESSAGES,
  type GiftCardEntryKind,
  type GiftCardLedger,
  giftCardBalanceCents,
  giftCardEntryProblem,
  giftCardState,
  maskGiftCardCode,
} from '~/domain/vouchers/gift-cards';
import { recordStaffAudit } from '../audit/audit.server';
import { type Database, db, type Tx } from '../db/client.server';
import { enqueueEmail } from '../email/outbox.server';
import { withLifecycle } from '../orders/lifecycle.server';
import { signedLedgerAmount } from '../vouchers/gift-card-sql.server';
import {
  GiftCardInUseError,
  giftCardCodeHash,
  giftCardEmailData,
  giftCardLedgerOf,
  parisMorning,
  revealGiftCardCode,
} from '../vouchers/gift-cards.server';
import { isoTimestamp, isoTimestampOrNull } from './search-sql.server';

/*
 * « Cartes cadeaux » in the back office (decision 037): the cards found by code, by the last four
 * symbols of their code or by the recipient's or the buyer's name or e-mail, a page at a time in
 * SQL, each with its ledger; sending a card again, extending it, cancelling and refunding an unused
 * one; and the accountant's figure, what the active cards are still worth. The rules are the
 * domain's (domain/vouchers/gift-cards.ts, gift-card-office.ts); every ledger entry goes through
 * recordGiftCardEntry, every change of the sale order through the lifecycle, and every action is in
 * the Journal with its before and after, in the transaction that does it.
 */

const M = GIFT_CARD_OFFICE_MESSAGES;

export interface GiftCardListParams {
  /** The search term (never a whole code: the page posts those, and shows `cardId`). */
  q: string;
  /** One card, as the search by code answers. */
  cardId: string | null;
  page: number;
}

export interface GiftCardList {
  page: ListPage<GiftCardOfficeRow>;
  /** Why the term found nothing by itself (a code with a typo). */
  problem: string | null;
}

/** What the search means in SQL, on `c` (gift_cards), `s` (gift_card_sales), `o` (orders), `u` (user). */
function matching(params: GiftCardListParams): { where: SQL; problem: string | null; cap: number } {
  if (params.cardId) return { where: sql`c.id = ${params.cardId}`, problem: null, cap: countCap('') };
  const search = parseGiftCardSearch(params.q);
  const cap = countCap(params.q);
  switch (search.kind) {
    case 'all':
      return { where: sql`true`, problem: null, cap };
    case 'code':
      return { where: sql`c.code_hash = ${giftCardCodeHash(search.code)}`, problem: null, cap };
    case 'bad-code':
      return { where: sql`false`, problem: M.badCode, cap };
    case 'terms': {
      const branches: SQL[] = [];
      if (search.tail) branches.push(sql`c.code_last4 = ${search.tail}`);
      // The buyer by the order's search text (their name and e-mail, trigram index), the recipient
      // and the name on the card by the sale's own fields (one row per card: no index needed).
      if (search.pattern) {
        branches.push(sql`o.search_text like ${search.pattern}`);
        branches.push(
          sql`lower(concat_ws(' ', s.recipient_name, s.recipient_email, s.buyer_name, u.email)) like ${search.pattern}`,
        );
      }
      return { where: branches.length > 0 ? sql.join(branches, sql` or `) : sql`false`, problem: null, cap };
    }
  }
}

const FROM = sql`gift_cards c
  join gift_card_sales s on s.order_id = c.sale_order_id
  join orders o on o.id = c.sale_order_id
  left join "user" u on u.id = o.user_id`;

interface CardRow extends Record<string, unknown> {
  id: string;
  sale_order_id: string;
  number: string;
  code_last4: string;
  initial_amount: number;
  issued_at: unknown;
  expires_at: unknown;
  reminder_sent_at: unknown;
  recipient_name: string;
  recipient_email: string;
  buyer_name: string;
  buyer_email: string | null;
  delivery: 'email' | 'print';
  send_on: string | null;
}

/** One page of cards, newest first, each with its ledger (one query for the page's ledgers). */
export async function listGiftCards(
  params: GiftCardListParams,
  now: Date = new Date(),
  database: Database = db(),
): Promise<GiftCardList> {
  const { where, problem, cap } = matching(params);
  const offset = (params.page - 1) * PAGE_SIZE;
  const [rows, counted] = await Promise.all([
    database.execute<CardRow>(sql`
      select c.id, c.sale_order_id, o.number, c.code_last4, c.initial_amount, c.issued_at, c.expires_at,
        c.reminder_sent_at, s.recipient_name, s.recipient_email, s.buyer_name,
        coalesce(u.email, o.guest_email) as buyer_email, s.delivery, s.send_on::text as send_on
      from ${FROM} where ${where}
      order by c.issued_at desc, c.id desc limit ${PAGE_SIZE} offset ${offset}`),
    database.execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from ${FROM} where ${where} limit ${cap + 1}) t`),
  ]);
  const ids = rows.rows.map((row) => row.id);
  const entries =
    ids.length === 0
      ? []
      : (
          await database.execute<{
            card_id: string;
            at: unknown;
            kind: GiftCardEntryKind;
            amount: number;
            order_id: string | null;
            order_number: string | null;
          }>(sql`
            select l.card_id, l.at, l.kind, l.amount, l.order_id, eo.number as order_number
            from gift_card_ledger l left join orders eo on eo.id = l.order_id
            where l.card_id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})
            order by l.at, l.id`)
        ).rows;
  const cards = rows.rows.map((row) => {
    const own = entries.filter((entry) => entry.card_id === row.id);
    const ledger: GiftCardLedger = {
      entries: own.map((entry) => ({
        kind: entry.kind,
        amountCents: Number(entry.amount),
        orderId: entry.order_id,
        at: new Date(isoTimestamp(entry.at)),
      })),
      expiresAt: new Date(isoTimestamp(row.expires_at)),
    };
    return officeRow(row, ledger, own, now);
  });
  return { page: pageOf(cards, params.page, Number(counted.rows[0]?.n ?? 0), PAGE_SIZE, cap), problem };
}

function officeRow(
  row: CardRow,
  ledger: GiftCardLedger,
  own: Array<{
    at: unknown;
    kind: GiftCardEntryKind;
    amount: number;
    order_id: string | null;
    order_number: string | null;
  }>,
  now: Date,
): GiftCardOfficeRow {
  const state = giftCardState(ledger, now);
  const balanceCents = giftCardBalanceCents(ledger.entries);
  const issuedAt = new Date(isoTimestamp(row.issued_at));
  const closed = state === 'expired' || state === 'canceled';
  const entries: GiftCardOfficeEntry[] = own.map((entry) => ({
    at: isoTimestamp(entry.at),
    kind: entry.kind,
    amountCents: Number(entry.amount),
    orderId: entry.order_id,
    orderNumber: entry.order_number,
  }));
  return {
    id: row.id,
    saleOrderId: row.sale_order_id,
    saleOrderNumber: row.number,
    maskedCode: maskGiftCardCode(row.code_last4),
    initialCents: Number(row.initial_amount),
    balanceCents,
    state,
    issuedAt: issuedAt.toISOString(),
    expiresAt: ledger.expiresAt.toISOString(),
    latestExpiresAt: giftCardLatestExpiry(issuedAt).toISOString(),
    reminderSentAt: isoTimestampOrNull(row.reminder_sent_at),
    recipientName: row.recipient_name,
    recipientEmail: row.recipient_email,
    buyerName: row.buyer_name,
    buyerEmail: row.buyer_email,
    delivery: row.delivery,
    sendOn: row.send_on,
    entries,
    canResend:
      !closed &&
      (row.delivery === 'print' || !row.send_on
        ? row.buyer_email !== null
        : parisMorning(row.send_on).getTime() <= now.getTime()),
    canExtend: !closed && ledger.expiresAt.getTime() < giftCardLatestExpiry(issuedAt).getTime(),
    canCancel: cancelRefusal(ledger, now) === null,
  };
}

/**
 * Why the card cannot be cancelled and refunded now, or null: only an active card (money left, not
 * past its end, not closed) whose whole balance the domain lets go back (never used: giftCardEntryProblem).
 */
function cancelRefusal(ledger: GiftCardLedger, now: Date): string | null {
  const state = giftCardState(ledger, now);
  if (state === 'expired') return GIFT_CARD_MESSAGES.expired(ledger.expiresAt);
  if (state === 'canceled') return GIFT_CARD_MESSAGES.canceled;
  if (state !== 'active') return M.notCancelable;
  return giftCardEntryProblem(ledger, {
    kind: 'refunded',
    amountCents: giftCardBalanceCents(ledger.entries),
    orderId: null,
    at: now,
  });
}

/** The card a whole code (normalised) designates, by its hash; null when none. */
export async function findGiftCardByCode(code: string, database: Database = db()): Promise<string | null> {
  const { rows } = await database.execute<{ id: string }>(
    sql`select id from gift_cards where code_hash = ${giftCardCodeHash(code)}`,
  );
  return rows[0]?.id ?? null;
}

export type GiftCardActionResult = { ok: true; message: string } | { ok: false; message: string };

interface LockedCard {
  id: string;
  saleOrderId: string;
  saleOrderNumber: string;
  maskedCode: string;
  initialCents: number;
  issuedAt: Date;
  ledger: GiftCardLedger;
}

/** The card's row locked (FOR UPDATE) with its ledger: what an action decides on. */
async function lockCard(tx: Tx, cardId: string): Promise<LockedCard | null> {
  const { rows } = await tx.execute<{
    id: string;
    sale_order_id: string;
    number: string;
    code_last4: string;
    initial_amount: number;
    issued_at: unknown;
    expires_at: unknown;
  }>(sql`
    select c.id, c.sale_order_id, o.number, c.code_last4, c.initial_amount, c.issued_at, c.expires_at
    from gift_cards c join orders o on o.id = c.sale_order_id
    where c.id = ${cardId} for update of c`);
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    saleOrderId: row.sale_order_id,
    saleOrderNumber: row.number,
    maskedCode: maskGiftCardCode(row.code_last4),
    initialCents: Number(row.initial_amount),
    issuedAt: new Date(isoTimestamp(row.issued_at)),
    ledger: await giftCardLedgerOf(tx, row.id, new Date(isoTimestamp(row.expires_at))),
  };
}

/**
 * « Prolonger »: a new end of validity, after the current one and at most 24 months after the issue
 * (giftCardExtension); never for a closed card. The reminder is not sent again: a card is reminded
 * once (giftCardReminderDue), 30 days before the end it has then.
 */
export async function extendGiftCard(input: {
  cardId: string;
  day: string;
  actor: string;
  now?: Date;
}): Promise<GiftCardActionResult> {
  const now = input.now ?? new Date();
  return db().transaction(async (tx) => {
    const card = await lockCard(tx, input.cardId);
    if (!card) return { ok: false, message: M.notFound };
    const { expiresAt } = card.ledger;
    const decided = giftCardExtension(
      { issuedAt: card.issuedAt, expiresAt, state: giftCardState(card.ledger, now) },
      input.day,
    );
    if (!decided.ok) return decided;
    await tx.execute(sql`update gift_cards set expires_at = ${decided.expiresAt} where id = ${card.id}`);
    await recordStaffAudit(tx, {
      actor: input.actor,
      kind: 'gift_card.extend',
      subject: card.saleOrderId,
      subjectLabel: card.saleOrderNumber,
      before: { validUntil: expiresAt.toISOString() },
      after: { card: card.maskedCode, validUntil: decided.expiresAt.toISOString() },
      at: now,
    });
    return { ok: true, message: `Carte ${card.maskedCode} prolongée jusqu’au ${formatDateFr(decided.expiresAt)}.` };
  });
}

/**
 * « Renvoyer la carte »: its own e-mail (the code, the link, the PDF) queued again for whoever
 * holds it (the recipient, or the buyer who printed it), under a new dedupe key. Not for a closed
 * card, nor before the morning the buyer chose for it to leave (that would spoil the surprise).
 */
export async function resendGiftCard(input: {
  cardId: string;
  actor: string;
  now?: Date;
}): Promise<GiftCardActionResult> {
  const now = input.now ?? new Date();
  return db().transaction(async (tx) => {
    const card = await lockCard(tx, input.cardId);
    if (!card) return { ok: false, message: M.notFound };
    const state = giftCardState(card.ledger, now);
    if (state === 'expired' || state === 'canceled') return { ok: false, message: M.closedResend };
    const { rows } = await tx.execute<{
      amount: number;
      recipient_name: string;
      recipient_email: string;
      buyer_name: string;
      buyer_email: string | null;
      message: string | null;
      delivery: 'email' | 'print';
      send_on: string | null;
    }>(sql`
      select s.amount, s.recipient_name, s.recipient_email, s.buyer_name, s.message, s.delivery,
        s.send_on::text as send_on, coalesce(u.email, o.guest_email) as buyer_email
      from gift_card_sales s join orders o on o.id = s.order_id left join "user" u on u.id = o.user_id
      where s.order_id = ${card.saleOrderId}`);
    const sale = rows[0];
    const code = await revealGiftCardCode(card.saleOrderId, tx);
    if (!sale || !code) return { ok: false, message: M.notFound };
    const data = giftCardEmailData({
      code,
      expiresAt: card.ledger.expiresAt,
      sale: {
        amountCents: Number(sale.amount),
        recipientName: sale.recipient_name,
        buyerName: sale.buyer_name,
        message: sale.message,
        delivery: sale.delivery,
        sendOn: sale.send_on,
      },
    });
    const to = data.printedByBuyer ? sale.buyer_email : sale.recipient_email;
    if (!to) return { ok: false, message: M.noHolderEmail };
    if (!data.printedByBuyer && sale.send_on && parisMorning(sale.send_on) > now) {
      return { ok: false, message: M.notSentYet(parisMorning(sale.send_on), to) };
    }
    await enqueueEmail(tx, {
      to,
      template: 'gift-card',
      data,
      dedupeKey: `gift-card-resend:${card.id}:${randomUUID()}`,
      orderId: card.saleOrderId,
    });
    await recordStaffAudit(tx, {
      actor: input.actor,
      kind: 'gift_card.resend',
      subject: card.saleOrderId,
      subjectLabel: card.saleOrderNumber,
      after: { card: card.maskedCode, template: 'gift-card', recipient: to },
      at: now,
    });
    return { ok: true, message: `Carte ${card.maskedCode} renvoyée à ${to}.` };
  });
}

/**
 * « Annuler et rembourser » an unused card: its sale order is cancelled by the lifecycle with the
 * refund of the card's value (the rule book's `cancel`: the refund reserved, made through the gateway
 * after the commit, its credit note, the buyer's e-mail, and the `cancel_gift_card` effect that
 * closes the card with its `refunded` entry, in the same transaction). The rule book refuses a card
 * that has paid something; should one be spent meanwhile, the card's lock and rules refuse inside
 * the effect and nothing is kept.
 */
export async function cancelAndRefundGiftCard(input: {
  cardId: string;
  actor: string;
  /** Who asks holds the refund right (the intent's capability): without it, nothing is done. */
  refundRight: boolean;
  now?: Date;
}): Promise<GiftCardActionResult> {
  const now = input.now ?? new Date();
  if (!input.refundRight) return { ok: false, message: M.notCancelable };
  try {
    const outcome = await withLifecycle(async ({ tx, apply }) => {
      const [seen] = (
        await tx.execute<{ sale_order_id: string; expires_at: unknown }>(
          sql`select sale_order_id, expires_at from gift_cards where id = ${input.cardId}`,
        )
      ).rows;
      if (!seen) return { ok: false as const, message: M.notFound };
      const seenLedger = await giftCardLedgerOf(tx, input.cardId, new Date(isoTimestamp(seen.expires_at)));
      const refusedNow = cancelRefusal(seenLedger, now);
      if (refusedNow) return { ok: false as const, message: refusedNow };
      const refundCents = giftCardBalanceCents(seenLedger.entries);
      const applied = await apply(seen.sale_order_id, { type: 'cancel', refundCents, refundRight: true }, input.actor, {
        refundMethod: 'gateway',
        reason: 'Carte cadeau annulée et remboursée',
        now,
      });
      if (!applied.ok) return { ok: false as const, message: applied.message };
      const card = await lockCard(tx, input.cardId);
      if (!card) return { ok: false as const, message: M.notFound };
      await recordStaffAudit(tx, {
        actor: input.actor,
        kind: 'gift_card.refund',
        subject: card.saleOrderId,
        subjectLabel: card.saleOrderNumber,
        before: { cardState: 'active', balanceCents: refundCents },
        after: { card: card.maskedCode, cardState: 'canceled', balanceCents: 0, refundCents },
        at: now,
      });
      return { ok: true as const, card, refundCents, applied };
    });
    if (!outcome.ok) return outcome;
    const made = outcome.applied.refundResults[0];
    const amount = formatEurosFromCents(outcome.refundCents);
    const done = `Carte ${outcome.card.maskedCode} annulée, commande ${outcome.card.saleOrderNumber} annulée`;
    if (!made || made.ok) return { ok: true, message: `${done}\u00A0: ${amount} remboursés.` };
    return { ok: true, message: `${done}\u00A0: ${amount} à rembourser, ${made.message}` };
  } catch (error) {
    if (error instanceof GiftCardInUseError) return { ok: false, message: error.message };
    throw error;
  }
}

/**
 * The accountant's figure: what the shop owes on its gift cards at `now`, the balances of the active
 * cards (not closed by an `expired` or `refunded` entry, not past their end), in one query summing
 * the ledger with each kind's sign.
 */
export async function outstandingGiftCardCents(now: Date = new Date(), database: Database = db()): Promise<number> {
  const { rows } = await database.execute<{ cents: string | number }>(sql`
    select coalesce(sum(${signedLedgerAmount('l')}), 0)::bigint as cents
    from gift_card_ledger l join gift_cards c on c.id = l.card_id
    where c.expires_at > ${now}
      and not exists (select 1 from gift_card_ledger x where x.card_id = c.id and x.kind in ('expired', 'refunded'))`);
  return Number(rows[0]?.cents ?? 0);
}
