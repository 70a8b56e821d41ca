import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayKey, parisDay } from '~/domain/calendar';
import { LIFECYCLE_MESSAGES } from '~/domain/orders/lifecycle';
import { normaliseGiftCardCode } from '~/domain/vouchers/gift-cards';
import { exportStream } from '../admin/exports.server';
import { db } from '../db/client.server';
import { revealEmailData } from '../email/sealed-data.server';
import { log } from '../log.server';
import { applyTransition } from '../orders/lifecycle.server';
import { withdrawFromOrder } from '../orders/withdrawal.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import {
  giftCardCodeHash,
  giftCardSummaries,
  giftCardWithdrawalFacts,
  parisMorning,
  recordGiftCardEntry,
  revealGiftCardCode,
  startGiftCardOrder,
} from './gift-cards.server';
import { insertBuyer, paidGiftCard, type TestBuyer, tomorrow } from './testing/gift-cards';

/*
 * Gift cards (decision 037) through the shop's own paths: the draft of a card, placed at checkout
 * and paid by card (the gateway's notification), invoiced with its VAT, issued with its code and
 * its `issued` entry, its e-mails waiting in the outbox for the chosen morning; a card withdrawn
 * unused, refunded and closed; a ledger nobody can rewrite.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
let buyer: TestBuyer;

beforeAll(async () => {
  await ensureDefaultPriceList();
  buyer = await insertBuyer();
});

/** A card bought by the buyer and paid through a real gateway (so that its invoice is in the real series). */
const paidCard = (delivery: 'email' | 'print', amountCents = 5000) =>
  paidGiftCard(buyer, { delivery, amountCents, provider: 'stripe' });

async function outbox(orderId: string) {
  const { rows } = await db().execute<{ to: string; template: string; next_at: string; data: unknown }>(
    sql`select "to", template, next_at, data from email_outbox where order_id = ${orderId} order by template`,
  );
  return rows;
}

describe('selling a card', () => {
  it('prices the draft from the price list, within its bounds', async () => {
    const tooSmall = await startGiftCardOrder({
      purchase: {
        amountCents: 500,
        recipientName: 'Jeanne',
        recipientEmail: 'jeanne@example.fr',
        message: null,
        delivery: 'print',
        sendDate: null,
      },
      buyer: { user: buyer, name: 'Claire' },
    });
    expect(tooSmall).toEqual({ ok: false, message: 'Ce montant n’est plus proposé\u00A0: choisissez-en un autre.' });

    const started = await paidCard('email', 4990);
    const { rows } = await db().execute<{
      total_price: number;
      base_price: number;
      type: string;
      amount: number;
      vat: number;
    }>(sql`
      select o.total_price, o.base_price, i.type, f.amount, f.vat
      from orders o join order_items i on i.order_id = o.id join invoices f on f.order_id = o.id
      where o.id = ${started.orderId}`);
    // Invoiced at the sale, its VAT (20 %) included: 49,90 € = 41,58 € + 8,32 €.
    expect(rows).toEqual([{ total_price: 4990, base_price: 4990, type: 'gift-card', amount: 4990, vat: 832 }]);
  });

  it('issues the card when paid: « Traitée », a code found by its hash, an `issued` entry, its balance', async () => {
    const started = await paidCard('email');
    const { rows } = await db().execute<{ status: string; payment_status: string }>(
      sql`select status, payment_status from orders where id = ${started.orderId}`,
    );
    expect(rows[0]).toEqual({ status: 'completed', payment_status: 'paid' });
    const code = await revealGiftCardCode(started.orderId);
    expect(code && normaliseGiftCardCode(code)).toBe(code);
    const { rows: cards } = await db().execute<{ code_hash: string; code_last4: string }>(
      sql`select code_hash, code_last4 from gift_cards where sale_order_id = ${started.orderId}`,
    );
    expect(cards).toEqual([{ code_hash: giftCardCodeHash(code as string), code_last4: (code as string).slice(-4) }]);
    const [summary] = await giftCardSummaries([started.orderId]);
    expect(summary).toMatchObject({
      initialCents: 5000,
      balanceCents: 5000,
      state: 'active',
      maskedCode: `••••-••••-••••-${(code as string).slice(-4)}`,
    });
    // Valid twelve months from today.
    const months = (summary?.expiresAt.getTime() ?? 0) - (summary?.issuedAt.getTime() ?? 0);
    expect(Math.round(months / 86_400_000)).toBeGreaterThanOrEqual(365);
  });

  it('e-mails the card to the recipient at 08:00 (Paris) on the chosen day, and a copy to the buyer then', async () => {
    const started = await paidCard('email');
    const mails = (await outbox(started.orderId)).filter((m) => m.template.startsWith('gift-card'));
    expect(mails.map((m) => [m.template, m.to.startsWith('jeanne-') ? 'recipient' : m.to])).toEqual([
      ['gift-card', 'recipient'],
      ['gift-card-copy', buyer.email],
    ]);
    for (const mail of mails) expect(new Date(mail.next_at).getTime()).toBe(parisMorning(tomorrow()).getTime());
    // The code is stored sealed in the outbox, and comes back whole for the worker.
    const card = mails.find((m) => m.template === 'gift-card');
    expect(JSON.stringify(card?.data)).not.toContain(await revealGiftCardCode(started.orderId));
    expect(revealEmailData('gift-card', card?.data)).toMatchObject({ amountCents: 5000, printedByBuyer: false });
  });

  it('sends the card to the buyer at once when they print it', async () => {
    const before = Date.now();
    const started = await paidCard('print');
    const mails = (await outbox(started.orderId)).filter((m) => m.template.startsWith('gift-card'));
    expect(mails.map((m) => [m.template, m.to])).toEqual([['gift-card', buyer.email]]);
    // Its order confirmation asks for no originals: nothing travels.
    const confirmation = (await outbox(started.orderId)).find((m) => m.template === 'order-confirmation');
    expect(confirmation?.data).toBeTruthy();
    expect(confirmation?.data).not.toHaveProperty('sending');
    expect(new Date(mails[0]?.next_at ?? 0).getTime()).toBeLessThanOrEqual(Date.now());
    expect(new Date(mails[0]?.next_at ?? 0).getTime()).toBeGreaterThanOrEqual(before - 5_000);
  });
});

describe('the sales journal', () => {
  it('lists the card’s sale apart from the services, with its VAT', async () => {
    const started = await paidCard('print', 5000);
    const day = (offset: number) => dayKey(parisDay(new Date(Date.now() + offset * 86_400_000)));
    const csv = await new Response(
      exportStream({ dataset: 'factures', format: 'csv', from: day(-1), to: day(1) }).body,
    ).text();
    const line = csv.split('\r\n').find((row) => row.includes(started.number));
    expect(line).toMatch(/;Facture;Carte cadeau;.*;41,67;8,33;50,00;/);
  });
});

describe('withdrawing from a card', () => {
  it('refunds an unused card in full and closes it', async () => {
    const started = await paidCard('print');
    expect(await giftCardWithdrawalFacts(started.orderId)).toEqual({ kind: 'gift_card', giftCardUsed: false });
    const result = await withdrawFromOrder({ orderId: started.orderId, actor: buyer.id });
    expect(result).toMatchObject({ ok: true });
    const { rows } = await db().execute<{ status: string; refunds: number }>(sql`
      select o.status, (select coalesce(sum(amount), 0)::int from refunds r where r.order_id = o.id) as refunds
      from orders o where o.id = ${started.orderId}`);
    expect(rows[0]).toEqual({ status: 'canceled', refunds: 5000 });
    const [summary] = await giftCardSummaries([started.orderId]);
    expect(summary).toMatchObject({ balanceCents: 0, state: 'canceled' });
  });

  it('refuses once the card has paid something', async () => {
    const started = await paidCard('print');
    const [summary] = await giftCardSummaries([started.orderId]);
    const other = await paidCard('print');
    const spent = await db().transaction((tx) =>
      recordGiftCardEntry(tx, summary?.id as string, {
        kind: 'spent',
        amountCents: 1500,
        orderId: other.orderId,
        at: new Date(),
        actor: 'customer',
      }),
    );
    expect(spent).toBeNull();
    const result = await withdrawFromOrder({ orderId: started.orderId, actor: buyer.id });
    expect(result).toMatchObject({ ok: false });
    const [after] = await giftCardSummaries([started.orderId]);
    expect(after).toMatchObject({ balanceCents: 3500, state: 'active' });
  });
});

describe('cancelling a card’s sale, from any screen', () => {
  it('closes the card with its refund, and refuses once the card has paid something', async () => {
    const unused = await paidCard('print');
    const cancel = { type: 'cancel', refundCents: 5000, refundRight: true } as const;
    expect(await applyTransition(unused.orderId, cancel, 'staff-test')).toMatchObject({ ok: true });
    const [closed] = await giftCardSummaries([unused.orderId]);
    expect(closed).toMatchObject({ balanceCents: 0, state: 'canceled' });

    const used = await paidCard('print');
    const other = await paidCard('print');
    const [card] = await giftCardSummaries([used.orderId]);
    await db().transaction((tx) =>
      recordGiftCardEntry(tx, card?.id as string, {
        kind: 'spent',
        amountCents: 100,
        orderId: other.orderId,
        at: new Date(),
        actor: 'customer',
      }),
    );
    expect(await applyTransition(used.orderId, cancel, 'staff-test')).toMatchObject({
      ok: false,
      message: LIFECYCLE_MESSAGES.giftCardUsed,
    });
    expect(await applyTransition(used.orderId, { type: 'refund', amountCents: 1000 }, 'staff-test')).toMatchObject({
      ok: false,
    });
    const [still] = await giftCardSummaries([used.orderId]);
    expect(still).toMatchObject({ balanceCents: 4900, state: 'active' });
  });
});

describe('the ledger', () => {
  it('never takes more than the balance, even from two spends at once', async () => {
    const started = await paidCard('print');
    const other = await paidCard('print');
    const [card] = await giftCardSummaries([started.orderId]);
    const spend = () =>
      db().transaction((tx) =>
        recordGiftCardEntry(tx, card?.id as string, {
          kind: 'spent',
          amountCents: 3000,
          orderId: other.orderId,
          at: new Date(),
          actor: 'customer',
        }),
      );
    const answers = await Promise.all([spend(), spend()]);
    expect(answers.filter((answer) => answer === null)).toHaveLength(1);
    expect(answers.find((answer) => answer !== null)).toMatch(/solde/i);
    const [after] = await giftCardSummaries([started.orderId]);
    expect(after?.balanceCents).toBe(2000);
  });

  it('cannot be changed nor deleted, whoever asks', async () => {
    const started = await paidCard('print');
    const [card] = await giftCardSummaries([started.orderId]);
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => 'accepted',
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    expect(
      await refusal(db().execute(sql`update gift_card_ledger set amount = 1000000 where card_id = ${card?.id}`)),
    ).toMatch(/append-only/);
    expect(await refusal(db().execute(sql`delete from gift_card_ledger where card_id = ${card?.id}`))).toMatch(
      /append-only/,
    );
    const [after] = await giftCardSummaries([started.orderId]);
    expect(after?.balanceCents).toBe(5000);
  });
});
