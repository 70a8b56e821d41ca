import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { payByCard } from '../../../../tests/support/card-payment';
import { db } from '../../db/client.server';
import { confirmCheckout } from '../../payments/offline.server';
import { revealGiftCardCode, startGiftCardOrder } from '../gift-cards.server';

/*
 * Gift cards for the integration tests, made through the shop's own paths (decision 037): the draft
 * of a card, placed at checkout and paid by card (the gateway's notification), which issues it.
 */

export interface TestBuyer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** An account, written as the sign-up would leave it (a customer's), or as « Équipe » makes a member. */
export async function insertBuyer(
  firstName = 'Claire',
  lastName = 'Martin',
  role: 'customer' | 'admin' | 'atelier' | 'comptabilite' = 'customer',
): Promise<TestBuyer> {
  const id = `user_${randomUUID()}`;
  const buyer = { id, email: `${id}@example.fr`, firstName, lastName };
  await db().execute(sql`
    insert into "user" (id, name, email, role, first_name, last_name)
    values (${id}, ${`${firstName} ${lastName}`}, ${buyer.email}, ${role}, ${firstName}, ${lastName})`);
  return buyer;
}

/** The next day (UTC): a day the purchase form accepts for the card to leave. */
export const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

export interface PaidGiftCard {
  orderId: string;
  number: string;
  cardId: string;
  code: string;
  recipientEmail: string;
}

/** A card bought by `buyer` and paid by card: issued, valid the price list's months from now. */
export async function paidGiftCard(
  buyer: TestBuyer,
  options: {
    delivery?: 'email' | 'print';
    amountCents?: number;
    recipientName?: string;
    recipientEmail?: string;
    /** A real gateway's payment is invoiced in the real series (the sandbox's in the demonstration one). */
    provider?: 'sandbox' | 'stripe';
  } = {},
): Promise<PaidGiftCard> {
  const { delivery = 'print', amountCents = 5000, recipientName = 'Jeanne Martin' } = options;
  const recipientEmail = options.recipientEmail ?? `jeanne-${randomUUID()}@example.fr`;
  const started = await startGiftCardOrder({
    purchase: {
      amountCents,
      recipientName,
      recipientEmail,
      message: 'Joyeux Noël !',
      delivery,
      sendDate: delivery === 'email' ? tomorrow() : null,
    },
    buyer: { user: buyer, name: buyer.firstName },
  });
  if (!started.ok) throw new Error(started.message);
  await confirmCheckout({ orderId: started.orderId, method: 'card', actor: buyer.id, accessToken: null });
  await payByCard(started.orderId, amountCents, null, options.provider);
  const { rows } = await db().execute<{ id: string }>(
    sql`select id from gift_cards where sale_order_id = ${started.orderId}`,
  );
  const code = await revealGiftCardCode(started.orderId);
  if (!rows[0] || !code) throw new Error('the card was not issued');
  return { orderId: started.orderId, number: started.number, cardId: rows[0].id, code, recipientEmail };
}
