import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayKey, parisDay } from '~/domain/calendar';
import { formatDateFr, NBSP } from '~/domain/format';
import { GIFT_CARD_OFFICE_MESSAGES as M } from '~/domain/vouchers/gift-card-office';
import { formatGiftCardCode, GIFT_CARD_MESSAGES } from '~/domain/vouchers/gift-cards';
import { insertTestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { revealEmailData } from '../email/sealed-data.server';
import { log } from '../log.server';
import { withdrawFromOrder } from '../orders/withdrawal.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { parisMorning, recordGiftCardEntry } from '../vouchers/gift-cards.server';
import { insertBuyer, type PaidGiftCard, paidGiftCard, type TestBuyer, tomorrow } from '../vouchers/testing/gift-cards';
import {
  cancelAndRefundGiftCard,
  extendGiftCard,
  findGiftCardByCode,
  listGiftCards,
  outstandingGiftCardCents,
  resendGiftCard,
} from './gift-cards.server';

/*
 * « Cartes cadeaux » in the back office (decision 037), on cards sold and paid through the shop's
 * own paths: the search (a whole code in any form, its last four symbols, names and e-mails, SQL
 * pages), « Prolonger » and its rules, « Renvoyer la carte » through the outbox, « Annuler et
 * rembourser » through the lifecycle, each in the Journal with its before and after; and the
 * accountant's figure, what the active cards are still worth.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const DAY = 86_400_000;
let buyer: TestBuyer;
let accountant: TestBuyer;

beforeAll(async () => {
  await ensureDefaultPriceList();
  buyer = await insertBuyer('Claire', `Acheteuse${randomUUID().slice(0, 8)}`);
  accountant = await insertBuyer('Agathe', 'Comptable', 'comptabilite');
});

/** The card pays part of a digitisation order (a card never pays another card's sale). */
async function spend(card: PaidGiftCard, amountCents: number): Promise<{ number: string }> {
  const on = await insertTestOrder(process.env.DATABASE_URL as string);
  const refusal = await db().transaction((tx) =>
    recordGiftCardEntry(tx, card.cardId, {
      kind: 'spent',
      amountCents,
      orderId: on.id,
      at: new Date(),
      actor: 'customer',
    }),
  );
  expect(refusal).toBeNull();
  return on;
}

async function expiresAt(card: PaidGiftCard): Promise<Date> {
  const { rows } = await db().execute<{ ms: string }>(
    sql`select extract(epoch from expires_at) * 1000 as ms from gift_cards where id = ${card.cardId}`,
  );
  return new Date(Number(rows[0]?.ms));
}

async function audit(card: PaidGiftCard) {
  const { rows } = await db().execute<{
    kind: string;
    actor_id: string | null;
    subject_label: string | null;
    before: unknown;
    after: unknown;
  }>(
    sql`select kind, actor_id, subject_label, before, after from audit_log where subject = ${card.orderId} order by id`,
  );
  return rows;
}

const masked = (card: PaidGiftCard) => `••••-••••-••••-${card.code.slice(-4)}`;

describe('what the active cards are still worth', () => {
  it('sums the ledgers of the cards neither closed nor past their end', async () => {
    const now = new Date();
    const before = await outstandingGiftCardCents(now);
    const kept = await paidGiftCard(buyer, { amountCents: 5000 });
    const withdrawn = await paidGiftCard(buyer, { amountCents: 3000 });
    await spend(kept, 1000);
    expect((await outstandingGiftCardCents(now)) - before).toBe(7000);
    expect(await withdrawFromOrder({ orderId: withdrawn.orderId, actor: buyer.id })).toMatchObject({ ok: true });
    expect((await outstandingGiftCardCents(now)) - before).toBe(4000);
    // Once past its end the card is owed no more, before the housekeeping has written its expiry.
    expect(await outstandingGiftCardCents(new Date((await expiresAt(kept)).getTime() + 60_000))).toBe(0);
  });
});

describe('searching the cards', () => {
  it('finds a card by its whole code, typed in any form, and by its last four symbols', async () => {
    const card = await paidGiftCard(buyer);
    await paidGiftCard(buyer);
    for (const typed of [
      card.code,
      formatGiftCardCode(card.code).toLowerCase(),
      ` ${formatGiftCardCode(card.code)} `,
    ]) {
      const { page, problem } = await listGiftCards({ q: typed, cardId: null, page: 1 });
      expect(problem).toBeNull();
      expect(page.rows.map((row) => row.id)).toEqual([card.cardId]);
    }
    expect(await findGiftCardByCode(card.code)).toBe(card.cardId);
    const byTail = await listGiftCards({ q: card.code.slice(-4).toLowerCase(), cardId: null, page: 1 });
    expect(byTail.page.rows.map((row) => row.id)).toContain(card.cardId);
    expect(byTail.page.rows.every((row) => row.maskedCode.endsWith(card.code.slice(-4)))).toBe(true);
    const byId = await listGiftCards({ q: '', cardId: card.cardId, page: 1 });
    expect(byId.page.rows.map((row) => row.id)).toEqual([card.cardId]);
  });

  it('says a code with a typo is one, and finds nothing with it', async () => {
    const card = await paidGiftCard(buyer);
    const typo = `${card.code.slice(0, 15)}${card.code.endsWith('0') ? '1' : '0'}`;
    const { page, problem } = await listGiftCards({ q: typo, cardId: null, page: 1 });
    expect(problem).toBe(M.badCode);
    expect(page.rows).toEqual([]);
    expect(await findGiftCardByCode(typo)).toBeNull();
  });

  it('finds cards by the recipient’s or the buyer’s name or e-mail', async () => {
    const tag = randomUUID().slice(0, 8);
    const other = await insertBuyer('Paul', `Donateur${tag}`);
    const card = await paidGiftCard(other, {
      recipientName: `Louise Destinataire${tag}`,
      recipientEmail: `louise-${tag}@example.fr`,
    });
    for (const q of [`destinataire${tag}`, `louise-${tag}@example`, `Donateur${tag}`, other.email.toUpperCase()]) {
      const { page } = await listGiftCards({ q, cardId: null, page: 1 });
      expect(
        page.rows.map((row) => row.id),
        q,
      ).toEqual([card.cardId]);
    }
    expect((await listGiftCards({ q: `personne${tag}`, cardId: null, page: 1 })).page.total).toBe(0);
  });

  it('pages in SQL, newest first, each card with its ledger, balance and state', async () => {
    const tag = randomUUID().slice(0, 8);
    const cards: PaidGiftCard[] = [];
    for (let i = 0; i < 22; i += 1) cards.push(await paidGiftCard(buyer, { recipientName: `Série${tag} ${i}` }));
    const [first, second] = await Promise.all([
      listGiftCards({ q: `série${tag}`, cardId: null, page: 1 }),
      listGiftCards({ q: `série${tag}`, cardId: null, page: 2 }),
    ]);
    expect([first.page.total, first.page.pageCount, first.page.rows.length, second.page.rows.length]).toEqual([
      22, 2, 20, 2,
    ]);
    const shown = [...first.page.rows, ...second.page.rows].map((row) => row.id);
    expect(new Set(shown).size).toBe(22);
    expect(shown[0]).toBe(cards[21]?.cardId);
    expect(shown[21]).toBe(cards[0]?.cardId);

    const used = cards[21] as PaidGiftCard;
    const paid = await spend(used, 1250);
    const [row] = (await listGiftCards({ q: '', cardId: used.cardId, page: 1 })).page.rows;
    expect(row).toMatchObject({
      saleOrderId: used.orderId,
      saleOrderNumber: used.number,
      maskedCode: masked(used),
      initialCents: 5000,
      balanceCents: 3750,
      state: 'active',
      buyerEmail: buyer.email,
      delivery: 'print',
      canResend: true,
      canExtend: true,
      canCancel: false,
    });
    expect(row?.entries.map((entry) => [entry.kind, entry.amountCents, entry.orderNumber])).toEqual([
      ['issued', 5000, null],
      ['spent', 1250, paid.number],
    ]);
  });
});

describe('« Prolonger »', () => {
  it('moves the end of validity, keeps its hour, and journals it before → after', async () => {
    const card = await paidGiftCard(buyer);
    const end = await expiresAt(card);
    const day = dayKey(parisDay(new Date(end.getTime() + 100 * DAY)));
    const result = await extendGiftCard({ cardId: card.cardId, day, actor: accountant.id });
    expect(result.ok).toBe(true);
    const after = await expiresAt(card);
    expect(dayKey(parisDay(after))).toBe(day);
    // Whole days later, at the same Paris hour (one hour of summer time at most).
    expect(Math.abs((after.getTime() - end.getTime()) % DAY)).toBeLessThanOrEqual(3_600_000);
    expect(result.message).toBe(`Carte ${masked(card)} prolongée jusqu’au ${formatDateFr(after)}.`);
    expect(await audit(card)).toEqual([
      {
        kind: 'gift_card.extend',
        actor_id: accountant.id,
        subject_label: card.number,
        before: { validUntil: end.toISOString() },
        after: { card: masked(card), validUntil: after.toISOString() },
      },
    ]);
  });

  it('refuses a day not after the current end, beyond 24 months after the issue, or a closed card', async () => {
    const card = await paidGiftCard(buyer);
    const end = await expiresAt(card);
    const earlier = new Date(end.getTime() - 2 * DAY).toISOString().slice(0, 10);
    expect(await extendGiftCard({ cardId: card.cardId, day: earlier, actor: accountant.id })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^La nouvelle date doit être après/),
    });
    const tooLate = new Date(end.getTime() + 400 * DAY).toISOString().slice(0, 10);
    expect(await extendGiftCard({ cardId: card.cardId, day: tooLate, actor: accountant.id })).toMatchObject({
      ok: false,
      message: expect.stringContaining(`au plus 24 mois après son émission${NBSP}:`),
    });
    expect(await withdrawFromOrder({ orderId: card.orderId, actor: buyer.id })).toMatchObject({ ok: true });
    const fine = new Date(end.getTime() + 10 * DAY).toISOString().slice(0, 10);
    expect(await extendGiftCard({ cardId: card.cardId, day: fine, actor: accountant.id })).toEqual({
      ok: false,
      message: M.closedExtend,
    });
    expect(await expiresAt(card)).toEqual(end);
    expect((await audit(card)).filter((entry) => entry.kind.startsWith('gift_card.'))).toEqual([]);
    expect(await extendGiftCard({ cardId: randomUUID(), day: fine, actor: accountant.id })).toEqual({
      ok: false,
      message: M.notFound,
    });
  });
});

describe('« Renvoyer la carte »', () => {
  async function cardEmails(card: PaidGiftCard) {
    const { rows } = await db().execute<{ to: string; dedupe_key: string; data: unknown }>(
      sql`select "to", dedupe_key, data from email_outbox where order_id = ${card.orderId} and template = 'gift-card'
        order by created_at, id`,
    );
    return rows;
  }

  it('queues the card’s e-mail again to its holder, under a new key each time, and journals it', async () => {
    const card = await paidGiftCard(buyer, { delivery: 'print' });
    expect(await resendGiftCard({ cardId: card.cardId, actor: accountant.id })).toEqual({
      ok: true,
      message: `Carte ${masked(card)} renvoyée à ${buyer.email}.`,
    });
    await resendGiftCard({ cardId: card.cardId, actor: accountant.id });
    const mails = await cardEmails(card);
    expect(mails.map((mail) => mail.to)).toEqual([buyer.email, buyer.email, buyer.email]);
    const keys = mails.slice(1).map((mail) => mail.dedupe_key);
    expect(new Set(keys).size).toBe(2);
    for (const key of keys) expect(key).toMatch(new RegExp(`^gift-card-resend:${card.cardId}:`));
    // The code sealed in the outbox, whole again for the worker.
    expect(JSON.stringify(mails[1]?.data)).not.toContain(card.code.slice(0, 8));
    expect(revealEmailData('gift-card', mails[1]?.data)).toMatchObject({
      code: formatGiftCardCode(card.code),
      amountCents: 5000,
      printedByBuyer: true,
    });
    expect((await audit(card)).map((entry) => [entry.kind, entry.after])).toEqual([
      ['gift_card.resend', { card: masked(card), template: 'gift-card', recipient: buyer.email }],
      ['gift_card.resend', { card: masked(card), template: 'gift-card', recipient: buyer.email }],
    ]);
  });

  it('sends to the recipient, never before the morning the buyer chose, nor a closed card', async () => {
    const card = await paidGiftCard(buyer, { delivery: 'email' });
    expect(await resendGiftCard({ cardId: card.cardId, actor: accountant.id })).toEqual({
      ok: false,
      message: M.notSentYet(parisMorning(tomorrow()), card.recipientEmail),
    });
    const later = new Date(parisMorning(tomorrow()).getTime() + 3_600_000);
    expect(await resendGiftCard({ cardId: card.cardId, actor: accountant.id, now: later })).toMatchObject({ ok: true });
    expect((await cardEmails(card)).map((mail) => mail.to)).toEqual([card.recipientEmail, card.recipientEmail]);

    expect(await withdrawFromOrder({ orderId: card.orderId, actor: buyer.id })).toMatchObject({ ok: true });
    expect(await resendGiftCard({ cardId: card.cardId, actor: accountant.id, now: later })).toEqual({
      ok: false,
      message: M.closedResend,
    });
    expect(await cardEmails(card)).toHaveLength(2);
  });
});

describe('« Annuler et rembourser »', () => {
  async function orderOf(card: PaidGiftCard) {
    const { rows } = await db().execute<{
      status: string;
      payment_status: string;
      refunded: number;
      notes: number;
    }>(sql`
      select o.status, o.payment_status,
        (select coalesce(sum(amount), 0)::int from refunds r where r.order_id = o.id) as refunded,
        (select count(*)::int from credit_notes n where n.order_id = o.id) as notes
      from orders o where o.id = ${card.orderId}`);
    return rows[0];
  }

  it('cancels the sale order through the lifecycle with its refund, and closes the card in the same step', async () => {
    const card = await paidGiftCard(buyer, { amountCents: 4500 });
    const result = await cancelAndRefundGiftCard({ cardId: card.cardId, actor: accountant.id, refundRight: true });
    expect(result).toEqual({
      ok: true,
      message: `Carte ${masked(card)} annulée, commande ${card.number} annulée${NBSP}: 45,00\u00A0€ remboursés.`,
    });
    expect(await orderOf(card)).toEqual({ status: 'canceled', payment_status: 'refunded', refunded: 4500, notes: 1 });
    const [row] = (await listGiftCards({ q: '', cardId: card.cardId, page: 1 })).page.rows;
    expect(row).toMatchObject({
      state: 'canceled',
      balanceCents: 0,
      canResend: false,
      canExtend: false,
      canCancel: false,
    });
    expect(row?.entries.map((entry) => entry.kind)).toEqual(['issued', 'refunded']);
    const journal = await audit(card);
    // The cancellation and the card's refund in one transaction, then the refund made after the commit.
    expect(journal.map((entry) => entry.kind)).toEqual(['order.cancel', 'gift_card.refund', 'order.refund']);
    expect(journal[1]).toEqual({
      kind: 'gift_card.refund',
      actor_id: accountant.id,
      subject_label: card.number,
      before: { cardState: 'active', balanceCents: 4500 },
      after: { card: masked(card), cardState: 'canceled', balanceCents: 0, refundCents: 4500 },
    });
    // Again: the card is closed, nothing more happens.
    expect(await cancelAndRefundGiftCard({ cardId: card.cardId, actor: accountant.id, refundRight: true })).toEqual({
      ok: false,
      message: GIFT_CARD_MESSAGES.canceled,
    });
    expect((await orderOf(card))?.refunded).toBe(4500);
  });

  it('refuses a card that has paid something, and leaves its order as it was', async () => {
    const card = await paidGiftCard(buyer);
    await spend(card, 500);
    expect(await cancelAndRefundGiftCard({ cardId: card.cardId, actor: accountant.id, refundRight: true })).toEqual({
      ok: false,
      message: GIFT_CARD_MESSAGES.notUnused,
    });
    expect(await orderOf(card)).toEqual({ status: 'completed', payment_status: 'paid', refunded: 0, notes: 0 });
    expect(await audit(card)).toEqual([]);
  });

  it('does nothing without the refund right', async () => {
    const card = await paidGiftCard(buyer);
    expect(await cancelAndRefundGiftCard({ cardId: card.cardId, actor: accountant.id, refundRight: false })).toEqual({
      ok: false,
      message: M.notCancelable,
    });
    expect(await orderOf(card)).toMatchObject({ status: 'completed', refunded: 0 });
  });
});
