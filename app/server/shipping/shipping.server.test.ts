import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFECYCLE_MESSAGES } from '~/domain/orders/lifecycle';
import { action as labelAction, loader as labelLoader } from '~/routes/shop/shipping-label';
import { type FakeColissimo, startFakeColissimo } from '../../../tests/support/fake-colissimo';
import { insertOrder, registeredAccount, requestWith, TEST_BASE } from '../account/testing/fixtures';
import { saveAndCheckColishipCredentials } from '../admin/coliship.server';
import { decidePayments } from '../admin/payments.server';
import { db } from '../db/client.server';
import { auditLog, emailOutbox, orderAddresses, orderEvents, orders, shipments } from '../db/schema';
import { revealEmailData } from '../email/sealed-data.server';
import { renderEmail } from '../email/templates/registry';
import { confirmCheckout } from '../payments/offline.server';
import { ensureInboundLabel } from './labels.server';
import { CORRECTION_MESSAGES, correctParcelNumber, shipOrder } from './shipping.server';

process.env.BASE_URL = TEST_BASE;

let fake: FakeColissimo;

beforeAll(async () => {
  fake = await startFakeColissimo();
  // The routes use the credentials saved in the back office and COLISSIMO_API_URL, as in production.
  process.env.COLISSIMO_API_URL = fake.url;
  const saved = await saveAndCheckColishipCredentials({
    username: 'atelier',
    password: fake.password,
    contractNumber: fake.contractNumber,
  });
  expect(saved).toMatchObject({ ok: true, check: { ok: true } });
});
afterAll(async () => {
  delete process.env.COLISSIMO_API_URL;
  await fake.close();
});

async function addDeliveryAddress(orderId: string) {
  await db().insert(orderAddresses).values({
    orderId,
    kind: 'delivery',
    firstName: 'Jeanne',
    lastName: 'Martin',
    line1: '5 rue de Bourgogne',
    postalCode: '45000',
    city: 'Orléans',
    country: 'FR',
    phone: '0612345678',
  });
}

async function completedOrder({ address = true, insured = 0 } = {}) {
  const order = await insertOrder({ guestEmail: 'invite@example.fr', status: 'completed' });
  await db()
    .update(orders)
    .set({
      paymentStatus: 'paid',
      paidAt: new Date(),
      deliveryMethod: 'usb',
      returnOriginals: true,
      insuredValueCents: insured,
    })
    .where(eq(orders.id, order.id));
  if (address) await addDeliveryAddress(order.id);
  return order;
}

async function shippedEmails(orderId: string) {
  const rows = await db()
    .select({ template: emailOutbox.template, data: emailOutbox.data })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.template, 'order-shipped')))
    .orderBy(emailOutbox.createdAt, emailOutbox.id);
  return rows.map((row) => revealEmailData(row.template, row.data));
}

async function historyOf(orderId: string) {
  return db().select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(orderEvents.id);
}

describe('shipOrder', () => {
  it('ships with a Colissimo return label to the delivery address, insured for the declared value', async () => {
    const order = await completedOrder({ insured: 80_000 });
    const result = await shipOrder(order.id, { mode: 'colissimo' }, 'staff');
    expect(result).toMatchObject({ ok: true, carrier: 'colissimo' });
    if (!result.ok) return;
    expect(result.parcelNumber).toMatch(/^6A\d{11}$/);
    expect(result.trackingUrl).toBe(`https://www.laposte.fr/outils/suivre-vos-envois?code=${result.parcelNumber}`);
    const sent = fake.requests.at(-1)?.body as { letter: Record<string, Record<string, unknown>> };
    expect(sent.letter.service).toMatchObject({ productCode: 'DOS', orderNumber: order.number });
    expect(sent.letter.parcel).toMatchObject({ insuranceValue: 80_000 });
    expect(sent.letter.addressee).toMatchObject({ address: { lastName: 'Martin', city: 'Orléans' } });
    expect(sent.letter.sender).toMatchObject({ address: { zipCode: '75004', city: 'Paris' } });

    const [row] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(row?.status).toBe('shipped');
    expect(row?.shippedAt).not.toBeNull();
    const [parcel] = await db().select().from(shipments).where(eq(shipments.orderId, order.id));
    expect(parcel).toMatchObject({ direction: 'outbound', carrier: 'colissimo', parcelNumber: result.parcelNumber });
    expect(parcel?.insuredValueCents).toBe(80_000);
    expect(parcel?.labelPdf?.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const kinds = (await historyOf(order.id)).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['shipped', 'label_created']));
  });

  it('ships with a typed tracking number (carrier « Autre »)', async () => {
    const order = await completedOrder();
    const result = await shipOrder(order.id, { mode: 'other', parcelNumber: 'XY123456789FR' }, 'staff');
    expect(result).toMatchObject({ ok: true, carrier: 'other', parcelNumber: 'XY123456789FR' });
    const [parcel] = await db().select().from(shipments).where(eq(shipments.orderId, order.id));
    expect(parcel).toMatchObject({ carrier: 'other', parcelNumber: 'XY123456789FR', labelPdf: null });
  });

  it('records a typed La Poste number as Colissimo with its link; another carrier’s gets no La Poste link', async () => {
    const laPoste = await shipOrder(
      (await completedOrder()).id,
      { mode: 'laposte', parcelNumber: '6A12345678901' },
      'staff',
    );
    expect(laPoste).toMatchObject({
      ok: true,
      carrier: 'colissimo',
      trackingUrl: 'https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901',
    });
    const order = await completedOrder();
    const other = await shipOrder(order.id, { mode: 'other', parcelNumber: '1Z999AA10123456784' }, 'staff');
    expect(other).toMatchObject({ ok: true, carrier: 'other', trackingUrl: null });
    const shipped = await shippedEmails(order.id);
    const rendered = await renderEmail('order-shipped', shipped[0] as never);
    expect(rendered.text).toContain('1Z999AA10123456784');
    expect(rendered.text).not.toContain('laposte.fr');
  });

  it('corrects a mistyped number: parcel, history, Journal, and the customer gets the right link', async () => {
    const staff = await registeredAccount('admin', { firstName: 'Camille', lastName: 'Atelier' });
    const order = await completedOrder();
    expect(await shipOrder(order.id, { mode: 'other', parcelNumber: 'ABC12345' }, staff.id)).toMatchObject({
      ok: true,
    });
    const corrected = await correctParcelNumber(order.id, { mode: 'laposte', parcelNumber: '6A12345678901' }, staff.id);
    expect(corrected).toEqual({ ok: true, orderNumber: order.number, parcelNumber: '6A12345678901' });

    const [parcel] = await db().select().from(shipments).where(eq(shipments.orderId, order.id));
    expect(parcel).toMatchObject({ parcelNumber: '6A12345678901', carrier: 'colissimo' });
    const event = (await historyOf(order.id)).find((e) => e.kind === 'tracking_corrected');
    expect(event).toMatchObject({ actor: staff.id, data: { from: 'ABC12345', to: '6A12345678901' } });
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subject, order.id), eq(auditLog.kind, 'order.shipping')))
      .orderBy(desc(auditLog.at))
      .limit(1);
    expect(audit).toMatchObject({
      actorName: 'Camille Atelier',
      before: { parcelNumber: 'ABC12345' },
      after: { parcelNumber: '6A12345678901' },
    });

    const emails = await shippedEmails(order.id);
    expect(emails).toHaveLength(2);
    const correction = await renderEmail('order-shipped', emails[1] as never);
    expect(correction.subject).toBe(`Numéro de suivi corrigé pour votre commande ${order.number}`);
    expect(correction.html).toContain('https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901');

    expect(await correctParcelNumber(order.id, { mode: 'laposte', parcelNumber: '6A12345678901' }, staff.id)).toEqual({
      ok: false,
      message: CORRECTION_MESSAGES.same,
    });
    const labelled = await completedOrder();
    await shipOrder(labelled.id, { mode: 'colissimo' }, staff.id);
    expect(
      await correctParcelNumber(labelled.id, { mode: 'laposte', parcelNumber: '6A12345678901' }, staff.id),
    ).toEqual({
      ok: false,
      message: CORRECTION_MESSAGES.fromLabel,
    });
    const notShipped = await completedOrder();
    expect(await correctParcelNumber(notShipped.id, { mode: 'other', parcelNumber: 'ABC12345' }, staff.id)).toEqual({
      ok: false,
      message: CORRECTION_MESSAGES.noParcel,
    });
  });

  it('refuses in French, before asking Colissimo, what the rule book refuses; nothing is recorded', async () => {
    const requests = fake.requests.length;
    const pending = await insertOrder({ guestEmail: 'invite@example.fr', status: 'processing' });
    const early = await shipOrder(pending.id, { mode: 'colissimo' }, 'staff');
    expect(early).toEqual({ ok: false, message: LIFECYCLE_MESSAGES.notShippable('processing') });
    const noAddress = await completedOrder({ address: false });
    const refused = await shipOrder(noAddress.id, { mode: 'colissimo' }, 'staff');
    expect(refused).toEqual({ ok: false, message: LIFECYCLE_MESSAGES.noAddress });
    expect(fake.requests.length).toBe(requests);
    for (const id of [pending.id, noAddress.id]) {
      expect(await db().select().from(shipments).where(eq(shipments.orderId, id))).toHaveLength(0);
      const [row] = await db().select({ status: orders.status }).from(orders).where(eq(orders.id, id));
      expect(row?.status).not.toBe('shipped');
    }
  });

  it('keeps Colissimo’s refusal in the history and leaves the order as it was', async () => {
    const order = await completedOrder({ address: false });
    // An address frozen without postal code would be refused by Colissimo with its own words.
    await db().insert(orderAddresses).values({
      orderId: order.id,
      kind: 'delivery',
      firstName: 'Jeanne',
      lastName: 'Martin',
      line1: '5 rue de Bourgogne',
      postalCode: '',
      city: 'Orléans',
      country: 'FR',
    });
    const result = await shipOrder(order.id, { mode: 'colissimo' }, 'staff');
    expect(result).toEqual({
      ok: false,
      message: "Colissimo a refusé l’étiquette\u202F: Le code postal du destinataire n'est pas renseigné",
    });
    const kinds = (await historyOf(order.id)).map((e) => e.kind);
    expect(kinds).toContain('label_failed');
    expect(kinds).not.toContain('shipped');
  });
});

describe('the prepaid label download', () => {
  async function labelOrder(userId: string | null) {
    const token = randomBytes(16).toString('hex');
    const order = await insertOrder({
      userId,
      guestEmail: userId ? null : 'invite@example.fr',
      accessTokenHash: userId ? null : createHash('sha256').update(token).digest('hex'),
      status: 'processing',
    });
    await db()
      .update(orders)
      .set({ sendMethod: 'label', paymentStatus: 'paid', paidAt: new Date() })
      .where(eq(orders.id, order.id));
    await addDeliveryAddress(order.id);
    return { order, cookie: `sv_order_${order.id}=${token}` };
  }
  const path = (id: string) => `/commande/${id}/etiquette.pdf`;
  const load = (request: Request, orderId: string) =>
    labelLoader({ request, params: { orderId }, context: {} } as Parameters<typeof labelLoader>[0]);
  async function status(promise: Promise<unknown>): Promise<number> {
    try {
      const value = await promise;
      return value instanceof Response ? value.status : 200;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown.status;
      return (thrown as { init?: { status?: number } }).init?.status ?? 500;
    }
  }

  it('serves the label to its owner, to the guest holding the token, never to a stranger', async () => {
    const owner = await registeredAccount('customer');
    const stranger = await registeredAccount('customer');
    const mine = await labelOrder(owner.id);
    const guest = await labelOrder(null);
    for (const { order } of [mine, guest]) expect(await ensureInboundLabel(order.id)).toMatchObject({ ok: true });

    const response = (await load(requestWith(path(mine.order.id), [owner.cookie]), mine.order.id)) as Response;
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const [parcel] = await db().select().from(shipments).where(eq(shipments.orderId, mine.order.id));
    expect(pdf.toString('latin1')).toContain(`Colis ${parcel?.parcelNumber}`);

    expect(await status(load(requestWith(path(guest.order.id), [guest.cookie]), guest.order.id))).toBe(200);
    expect(await status(load(requestWith(path(mine.order.id), [stranger.cookie]), mine.order.id))).toBe(404);
    expect(await status(load(requestWith(path(guest.order.id)), guest.order.id))).toBe(404);
    expect(await status(load(requestWith(path(guest.order.id), [mine.cookie]), guest.order.id))).toBe(404);
  });

  it('answers in words, never JSON: a stranger reads « Étiquette introuvable. »', async () => {
    const guest = await labelOrder(null);
    const refused = (await load(requestWith(path(guest.order.id)), guest.order.id).catch(
      (e: unknown) => e,
    )) as Response;
    expect(refused).toBeInstanceOf(Response);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await refused.text()).toBe('Étiquette introuvable.');
  });

  it('never makes a label on a GET (a link followed too early leads to the order’s page); the POST makes it', async () => {
    const guest = await labelOrder(null);
    const early = (await load(requestWith(path(guest.order.id), [guest.cookie]), guest.order.id).catch(
      (e: unknown) => e,
    )) as Response;
    expect(early.status).toBe(302);
    expect(early.headers.get('location')).toBe(`/confirmation?orderId=${guest.order.id}`);
    expect(await db().select().from(shipments).where(eq(shipments.orderId, guest.order.id))).toHaveLength(0);

    const post = (cookies: string[]) =>
      labelAction({
        request: new Request(`${TEST_BASE}${path(guest.order.id)}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(cookies.length ? { cookie: cookies.join('; ') } : {}),
          },
          body: new URLSearchParams({ back: `/confirmation?orderId=${guest.order.id}` }),
        }),
        params: { orderId: guest.order.id },
        context: {},
      } as Parameters<typeof labelAction>[0]);
    expect(await status(post([]))).toBe(404);
    expect(await db().select().from(shipments).where(eq(shipments.orderId, guest.order.id))).toHaveLength(0);

    const redirected = await post([guest.cookie]).catch((thrown: unknown) => thrown);
    expect(redirected).toBeInstanceOf(Response);
    expect((redirected as Response).status).toBe(303);
    expect((redirected as Response).headers.get('location')).toBe(path(guest.order.id));
    expect(await status(load(requestWith(path(guest.order.id), [guest.cookie]), guest.order.id))).toBe(200);
  });
});

describe('the prepaid label in the e-mails of a transfer order', () => {
  async function outbox(orderId: string) {
    const rows = await db()
      .select({ template: emailOutbox.template, data: emailOutbox.data })
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, orderId))
      .orderBy(emailOutbox.createdAt, emailOutbox.id);
    return rows.map((row) => ({ template: row.template, data: revealEmailData(row.template, row.data) as never }));
  }

  it('is promised by the confirmation, then its link arrives once it exists', async () => {
    const staff = await registeredAccount('admin');
    const order = await insertOrder({ guestEmail: 'invite@example.fr', status: 'pending' });
    await db().update(orders).set({ sendMethod: 'label' }).where(eq(orders.id, order.id));
    await addDeliveryAddress(order.id);
    await confirmCheckout({ orderId: order.id, method: 'transfer', actor: 'customer', accessToken: null });

    const [confirmation] = await outbox(order.id);
    expect(confirmation?.template).toBe('order-confirmation');
    const promised = await renderEmail('order-confirmation', confirmation?.data as never);
    expect(promised.text).not.toContain('Télécharger l’étiquette prépayée');
    expect(promised.text).not.toContain('etiquette.pdf');
    expect(promised.text).toContain('Votre étiquette Colissimo prépayée sera créée dès réception de votre paiement');

    const [validated] = await decidePayments([`o:${order.id}`], 'validate', { id: staff.id });
    expect(validated).toMatchObject({ ok: true });
    const emails = await outbox(order.id);
    expect(emails.map((email) => email.template)).toEqual(['order-confirmation', 'payment-received', 'label-ready']);
    const [parcel] = await db().select().from(shipments).where(eq(shipments.orderId, order.id));
    const ready = await renderEmail('label-ready', emails[2]?.data as never);
    expect(ready.subject).toBe(`Votre étiquette d’envoi prépayée est prête (commande ${order.number})`);
    expect(ready.text).toContain('Télécharger l’étiquette prépayée');
    expect(ready.text).toMatch(new RegExp(`${TEST_BASE}/commande/${order.id}/etiquette\\.pdf\\?token=\\w+`));
    expect(ready.text).toContain(parcel?.parcelNumber as string);
  });
});
