import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertTestOrder, orderState } from '../../../tests/support/orders';
import { decidePayments, listPendingPayments } from '../admin/payments.server';
import { db } from '../db/client.server';
import { revealEmailData } from '../email/sealed-data.server';
import { renderEmail } from '../email/templates/registry';
import { log } from '../log.server';
import { updateGuestOrder } from '../orders/guest-info.server';
import type { CheckoutError } from './checkout.server';
import { confirmCheckout } from './offline.server';

/*
 * Paying by bank transfer or cheque: the choice at checkout (order pending, instructions e-mailed),
 * the back office's validation (invoice, payment-received e-mail), and the guest's order
 * confirmation, which waits for their e-mail address.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const databaseUrl = () => process.env.DATABASE_URL as string;
const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

async function outbox(orderId: string) {
  const { rows } = await db().execute<{
    template: string;
    to: string;
    data: Record<string, unknown>;
    dedupe_key: string;
  }>(
    sql`select template, "to", data, dedupe_key from email_outbox where order_id = ${orderId} order by created_at, id`,
  );
  // Guest links are stored encrypted (email/sealed-data.server.ts): read as the worker does.
  return rows.map((row) => ({ ...row, data: revealEmailData(row.template, row.data) as Record<string, unknown> }));
}

let adminId: string;
beforeAll(async () => {
  adminId = `user_${randomUUID()}`;
  await db().execute(sql`
    insert into "user" (id, name, email, role) values (${adminId}, 'Admin', ${`${adminId}@example.fr`}, 'admin')`);
});

describe('confirmCheckout', () => {
  it('keeps the order pending by transfer, closes the open card attempt and e-mails the instructions', async () => {
    const order = await insertTestOrder(databaseUrl());
    await db().execute(sql`
      insert into payments (order_id, provider, provider_ref, amount, status, method)
      values (${order.id}, 'sandbox', ${`sbx_${randomUUID()}`}, ${order.totalCents}, 'pending', 'card')`);

    await confirmCheckout({ orderId: order.id, method: 'transfer', actor: 'customer', accessToken: order.accessToken });

    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({
      paymentStatus: 'pending',
      invoices: [],
      payments: [{ status: 'canceled' }],
      notifications: 1,
    });
    expect(state.events).toContain('payment_method_chosen');
    const [row] = (await db().execute(sql`select payment_method from orders where id = ${order.id}`)).rows;
    expect(row).toEqual({ payment_method: 'transfer' });

    const [email] = await outbox(order.id);
    expect(email).toMatchObject({
      template: 'order-confirmation',
      to: 'invite@example.fr',
      dedupe_key: `order-confirmation:${order.id}:transfer`,
      data: { orderNumber: order.number, paymentMethod: 'transfer', totalCents: order.totalCents },
    });
    expect(email?.data.orderUrl).toBe(
      `https://www.soovenirs.test/confirmation?orderId=${order.id}&token=${order.accessToken}`,
    );
    const rendered = await renderEmail('order-confirmation', email?.data as never);
    expect(rendered.subject).toBe(`Confirmation de votre commande ${order.number}\u202F: paiement par virement`);
    for (const part of [plain(rendered.html), plain(rendered.text)]) {
      expect(part).toContain('Paiement par virement bancaire');
      expect(part).toContain('FR76 3000 4008 2800 0123 4567 841');
      expect(part).toContain('BNPAFRPPXXX');
      expect(part).toContain('Soovenirs SAS');
      expect(part).toContain(`en indiquant la référence ${order.number} dans le libellé du virement`);
      expect(part).toContain('94,90 €');
    }

    // Choosing again sends nothing twice.
    await confirmCheckout({ orderId: order.id, method: 'transfer', actor: 'customer', accessToken: order.accessToken });
    expect(await outbox(order.id)).toHaveLength(1);
    expect((await orderState(databaseUrl(), order.id)).notifications).toBe(1);
  });

  it('by cheque: the payee and the address to send it to', async () => {
    const order = await insertTestOrder(databaseUrl());
    await confirmCheckout({ orderId: order.id, method: 'cheque', actor: 'customer', accessToken: null });
    const [email] = await outbox(order.id);
    const rendered = await renderEmail('order-confirmation', email?.data as never);
    const text = plain(rendered.text);
    expect(text).toContain('Paiement par chèque');
    expect(text).toContain('à l’ordre de Soovenirs SAS');
    expect(text).toContain('12 rue des Archives, 75004 Paris');
    expect(text).toContain(order.number);
  });

  it('refuses a paid order and changes nothing', async () => {
    const order = await insertTestOrder(databaseUrl(), { paymentStatus: 'paid' });
    const before = await orderState(databaseUrl(), order.id);
    await expect(
      confirmCheckout({ orderId: order.id, method: 'cheque', actor: 'customer', accessToken: null }),
    ).rejects.toMatchObject({
      status: 409,
      message: 'Cette commande est déjà payée.',
    } satisfies Partial<CheckoutError>);
    expect(await orderState(databaseUrl(), order.id)).toEqual(before);
  });

  it('is validated in the back office: the order is paid, invoiced, and the customer e-mailed', async () => {
    const order = await insertTestOrder(databaseUrl());
    await confirmCheckout({ orderId: order.id, method: 'cheque', actor: 'customer', accessToken: null });
    const pending = await listPendingPayments({ q: order.number, page: 1 });
    expect(pending.rows).toMatchObject([{ id: `o:${order.id}`, method: 'cheque', amountCents: order.totalCents }]);

    const [result] = await decidePayments([`o:${order.id}`], 'validate', { id: adminId });
    expect(result).toMatchObject({ ok: true, invoiceNumber: expect.stringMatching(/^FA-\d{4}-\d{6}$/) });
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ paymentStatus: 'paid', invoices: [result?.ok ? result.invoiceNumber : ''] });
    expect(state.outbox.map((e) => e.template)).toEqual(['order-confirmation', 'payment-received']);
    expect(state.outbox[1]).toMatchObject({ to: 'invite@example.fr', data: { invoiceNumber: state.invoices[0] } });
  });
});

describe('the guest’s order confirmation', () => {
  it('is queued once, when the guest first saves an e-mail address', async () => {
    const order = await insertTestOrder(databaseUrl(), { guestEmail: null });
    const request = () =>
      new Request('https://www.soovenirs.test/checkout', { headers: { cookie: order.cookie as string } });
    const info = { email: 'Irene@Example.fr', firstName: 'Irène', lastName: 'Joliot-Curie' };
    expect(await outbox(order.id)).toEqual([]);

    expect(await updateGuestOrder(request(), { orderId: order.id, guestInfo: info })).toMatchObject({ ok: true });
    expect(await updateGuestOrder(request(), { orderId: order.id, guestInfo: info })).toMatchObject({ ok: true });

    const emails = await outbox(order.id);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      template: 'order-confirmation',
      to: 'irene@example.fr',
      data: {
        orderNumber: order.number,
        customerName: 'Irène',
        totalCents: 9490,
        items: [
          { quantity: 100, totalCents: 3500 },
          { quantity: 2, totalCents: 4400 },
        ],
        extras: [{ label: 'Livraison — Clé USB', totalCents: 1590 }],
        // The link opens the order in any browser: it carries the guest's token, as the cookie does.
        orderUrl: `https://www.soovenirs.test/confirmation?orderId=${order.id}&token=${order.accessToken}`,
      },
    });
    const rendered = await renderEmail('order-confirmation', emails[0]?.data as never);
    expect(plain(rendered.text)).toContain('94,90 €');
    expect(rendered.text).not.toContain('virement');
  });
});
