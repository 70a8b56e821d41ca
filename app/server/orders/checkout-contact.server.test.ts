import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_MESSAGES } from '~/domain/orders/address';
import { LIFECYCLE_MESSAGES } from '~/domain/orders/lifecycle';
import { insertTestOrder, orderState, TEST_CHECKOUT_DETAILS } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { confirmCheckout } from '../payments/offline.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { updateGuestOrder } from './guest-info.server';

/*
 * A guest's contact and address (decision 024): what the API `update-guest-order`
 * accepts is the delivery address the checkout's placing counts, and a refused « Payer » writes
 * nothing of what its form carried (contact, addresses, early-start request).
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const databaseUrl = () => process.env.DATABASE_URL as string;

beforeAll(async () => {
  await ensureDefaultPriceList();
});

/** What the form's one press may write on an order, beyond what orderState compares. */
async function written(orderId: string) {
  const { rows } = await db().execute<{
    guest_email: string | null;
    guest_first_name: string | null;
    guest_address: string | null;
    early_start_consent_at: Date | null;
    placed_at: Date | null;
    addresses: { kind: string; line1: string; postal_code: string; phone: string }[] | null;
  }>(sql`select o.guest_email, o.guest_first_name, o.guest_address, o.early_start_consent_at, o.placed_at,
      (select json_agg(json_build_object('kind', a.kind, 'line1', a.line1, 'postal_code', a.postal_code,
        'phone', a.phone)) from order_addresses a where a.order_id = o.id) as addresses
    from orders o where o.id = ${orderId}`);
  return rows[0];
}

/** A guest's draft (not placed) with a USB key, without an address yet. */
async function guestDraft(options: { status?: 'canceled' } = {}) {
  const order = await insertTestOrder(databaseUrl(), { guestEmail: null, deliveryAddress: false, ...options });
  await db().execute(sql`update orders set placed_at = null where id = ${order.id}`);
  return order;
}

function guestRequest(cookie: string | null): Request {
  return new Request('https://www.soovenirs.test/api/update-guest-order', { headers: { cookie: cookie ?? '' } });
}

const guestInfo = {
  email: 'Nouvelle@Example.fr',
  firstName: 'Lucie',
  lastName: 'Aubrac',
  phone: '06 11 22 33 44',
  address: '3 rue Jeanne d’Arc',
  city: 'Orléans',
  postalCode: '45000',
};

describe('update-guest-order and the checkout: one address', () => {
  it('the address the API accepts is the delivery address the placing counts', async () => {
    const order = await guestDraft();
    // No address yet: the card's create-checkout (and any method) is refused, as before.
    await expect(
      confirmCheckout({ orderId: order.id, method: 'transfer', actor: 'customer', accessToken: order.accessToken }),
    ).rejects.toMatchObject({ status: 422, message: LIFECYCLE_MESSAGES.noAddress });

    const saved = await updateGuestOrder(guestRequest(order.cookie), { orderId: order.id, guestInfo });
    expect(saved).toMatchObject({ ok: true, guestInfo: { email: 'nouvelle@example.fr', city: 'Orléans' } });
    expect(await written(order.id)).toMatchObject({
      guest_email: 'nouvelle@example.fr',
      guest_first_name: 'Lucie',
      addresses: [{ kind: 'delivery', line1: '3 rue Jeanne d’Arc', postal_code: '45000', phone: '+33611223344' }],
    });

    await confirmCheckout({ orderId: order.id, method: 'transfer', actor: 'customer', accessToken: order.accessToken });
    expect((await written(order.id))?.placed_at).not.toBeNull();
    const { outbox } = await orderState(databaseUrl(), order.id);
    expect(outbox.map((mail) => [mail.template, mail.to])).toEqual([['order-confirmation', 'nouvelle@example.fr']]);
  });

  it('refuses an incomplete address with the checkout’s French messages and writes nothing', async () => {
    const order = await guestDraft();
    const before = await written(order.id);
    const refused = await updateGuestOrder(guestRequest(order.cookie), {
      orderId: order.id,
      guestInfo: { email: 'x@example.fr', address: '3 rue Jeanne d’Arc', postalCode: '4500', city: 'Orléans' },
    });
    expect(refused).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: {
        firstName: ADDRESS_MESSAGES.firstName,
        postalCode: ADDRESS_MESSAGES.postalCodeInvalid('FR'),
        phone: ADDRESS_MESSAGES.phone,
      },
    });
    expect(await written(order.id)).toEqual(before);
  });
});

describe('« Payer » writes everything in one transaction', () => {
  it('a refusal of the placing rolls back the contact, the addresses and the early-start request', async () => {
    const order = await guestDraft({ status: 'canceled' });
    const before = { row: await written(order.id), state: await orderState(databaseUrl(), order.id) };
    await expect(
      confirmCheckout({
        orderId: order.id,
        method: 'transfer',
        actor: 'customer',
        accessToken: order.accessToken,
        contact: { email: 'lucie@example.fr', firstName: 'Lucie' },
        details: TEST_CHECKOUT_DETAILS,
        earlyStart: true,
      }),
    ).rejects.toMatchObject({ status: 409 });
    expect({ row: await written(order.id), state: await orderState(databaseUrl(), order.id) }).toEqual(before);
  });

  it('an accepted one writes them all with the placing, the confirmation going to the address typed', async () => {
    const order = await guestDraft();
    await confirmCheckout({
      orderId: order.id,
      method: 'cheque',
      actor: 'customer',
      accessToken: order.accessToken,
      contact: { email: 'lucie@example.fr', firstName: 'Lucie' },
      details: TEST_CHECKOUT_DETAILS,
      earlyStart: true,
    });
    const row = await written(order.id);
    expect(row).toMatchObject({
      guest_email: 'lucie@example.fr',
      guest_first_name: 'Lucie',
      addresses: [{ kind: 'delivery', line1: TEST_CHECKOUT_DETAILS.delivery.line1 }],
    });
    expect(row?.early_start_consent_at).not.toBeNull();
    expect(row?.placed_at).not.toBeNull();
    const { outbox } = await orderState(databaseUrl(), order.id);
    expect(outbox.map((mail) => mail.to)).toEqual(['lucie@example.fr']);
  });
});
