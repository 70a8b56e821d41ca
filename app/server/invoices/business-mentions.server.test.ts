import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { parseDocumentSnapshot } from '~/domain/invoices/snapshot';
import { insertTestOrder, type TestOrder } from '../../../tests/support/orders';
import { popplerText } from '../../../tests/support/pdf';
import { db } from '../db/client.server';
import { orders } from '../db/schema';
import { log } from '../log.server';
import { applyPaymentNotification } from '../payments/notifications.server';
import { freezeCheckoutInvoicing, loadBusinessProfile } from './business-buyers.server';
import { getOrderDocuments, issueCreditNote } from './invoices.server';
import { saveInvoicingSettings } from './invoicing-settings.server';
import { renderDocumentPdf } from './pdf.server';

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const databaseUrl = () => process.env.DATABASE_URL as string;

const ARCHIVES = {
  companyName: 'Archives municipales de Lyon',
  siren: '732829320',
  vatNumber: 'FR44732829320',
  purchaseOrderReference: 'BC-2027-12',
  publicBody: true,
  chorusServiceCode: 'SERVICE-ARCHIVES',
  engagementNumber: 'EJ-2027-001',
};

const BILLING = {
  firstName: 'Irène',
  lastName: 'Joliot',
  company: null,
  line1: '1 place de la Comédie',
  line2: null,
  postalCode: '69001',
  city: 'Lyon',
  country: 'FR' as const,
  phone: '',
};

/** A digital order (nothing physical: no delivery address), its business and billing frozen as the checkout does. */
async function digitalOrder(business: typeof ARCHIVES | null): Promise<TestOrder> {
  const order = await insertTestOrder(databaseUrl(), { deliveryAddress: false });
  await db().update(orders).set({ deliveryMethod: 'digital' }).where(eq(orders.id, order.id));
  await db().transaction((tx) =>
    freezeCheckoutInvoicing(tx, {
      orderId: order.id,
      invoicing: { billing: BILLING, business },
      actor: 'customer',
      profileOf: null,
    }),
  );
  return order;
}

async function pay(order: TestOrder): Promise<void> {
  const result = await applyPaymentNotification({
    provider: 'monetico',
    eventId: `evt_${order.id}`,
    providerRef: `ref_${order.id}`,
    orderId: order.id,
    outcome: 'paid',
    amountCents: order.totalCents,
    currency: 'EUR',
    method: 'card',
    raw: { test: true },
  });
  expect(result.status).toBe('applied');
}

describe('the mentions frozen on a business order’s documents', () => {
  it('gives the invoice and its credit note the business, the payment terms, VAT on debits and the billing address', async () => {
    const saved = await saveInvoicingSettings({
      vatOnDebits: 'on',
      paymentDueDays: '45',
      latePenaltyRate: 'taux BCE majoré de 10 points',
    });
    expect(saved.ok).toBe(true);
    const order = await digitalOrder(ARCHIVES);
    await pay(order);
    await db().transaction((tx) =>
      issueCreditNote(tx, { orderId: order.id, actor: 'admin', reason: 'Geste commercial' }),
    );

    const { invoice, creditNotes } = await getOrderDocuments(order.id);
    const snapshots = [invoice?.snapshot, creditNotes[0]?.snapshot].map((s) => parseDocumentSnapshot(s));
    for (const snapshot of snapshots) {
      expect(snapshot?.business).toEqual(ARCHIVES);
      expect(snapshot?.vatOnDebits).toBe(true);
      expect(snapshot?.paymentTerms).toMatchObject({
        latePenaltyRate: 'taux BCE majoré de 10 points',
        recoveryIndemnityCents: 4000,
      });
      expect(snapshot?.buyer).toMatchObject({
        name: 'Irène Joliot',
        street: '1 place de la Comédie',
        postalCode: '69001',
        city: 'Lyon',
        country: 'France',
      });
    }
    const invoiceSnapshot = snapshots[0];
    if (!invoiceSnapshot) throw new Error('no invoice');
    const issued = new Date(invoiceSnapshot.issuedAt);
    const due = new Date(`${invoiceSnapshot.paymentTerms?.dueDate}T12:00:00Z`);
    expect(Math.round((due.getTime() - issued.getTime()) / 86_400_000)).toBeGreaterThanOrEqual(44);

    // The PDF prints them.
    const text = popplerText(await renderDocumentPdf(invoiceSnapshot)).replace(/\s+/g, ' ');
    for (const mention of [
      'Archives municipales de Lyon',
      'SIREN 732 829 320',
      'FR44732829320',
      'Code service (Chorus Pro) SERVICE-ARCHIVES',
      'Numéro d’engagement EJ-2027-001',
      'Option pour le paiement de la taxe d’après les débits',
      'taux BCE majoré de 10 points',
      '1 place de la Comédie',
      'Prix unit. HT',
    ]) {
      expect(text).toContain(mention);
    }

    // A setting changed later changes no document already issued.
    await saveInvoicingSettings({ paymentDueDays: '30', latePenaltyRate: 'trois fois le taux d’intérêt légal' });
    const again = await getOrderDocuments(order.id);
    expect(again.invoice?.snapshot).toEqual(invoice?.snapshot);
  });

  it('gives a consumer’s digital order an invoice at the billing address, without payment terms', async () => {
    const order = await digitalOrder(null);
    await pay(order);
    const { invoice } = await getOrderDocuments(order.id);
    const snapshot = parseDocumentSnapshot(invoice?.snapshot);
    expect(snapshot?.buyer).toMatchObject({ street: '1 place de la Comédie', city: 'Lyon' });
    expect(snapshot?.business).toBeUndefined();
    expect(snapshot?.paymentTerms).toBeUndefined();
    expect(snapshot?.vatOnDebits).toBe(false);
    expect(snapshot?.notes.join(' ')).not.toContain('Pénalités');
    const [row] = (await db().execute(sql`select business from orders where id = ${order.id}`)).rows;
    expect(row?.business).toBeNull();
  });

  it('keeps a signed-in business customer’s identity in their profile', async () => {
    const order = await insertTestOrder(databaseUrl());
    const userId = `user-${order.id}`;
    await db().execute(
      sql`insert into "user" (id, name, email) values (${userId}, 'Irène Joliot', ${`${userId}@example.fr`})`,
    );
    await db().transaction((tx) =>
      freezeCheckoutInvoicing(tx, {
        orderId: order.id,
        invoicing: { billing: null, business: ARCHIVES },
        actor: userId,
        profileOf: userId,
      }),
    );
    expect(await loadBusinessProfile(userId)).toEqual(ARCHIVES);
  });
});
