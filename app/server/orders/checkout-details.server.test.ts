import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_MESSAGES } from '~/domain/orders/address';
import {
  CHECKOUT_DETAILS_MESSAGES,
  type CheckoutDetailsForm,
  parseCheckoutDetails,
} from '~/domain/orders/checkout-details';
import { LIFECYCLE_MESSAGES } from '~/domain/orders/lifecycle';
import { parseSelectionSearchParams } from '~/domain/pricing/selection';
import { isPdf, pdfText } from '../../../tests/support/pdf';
import { db, pool } from '../db/client.server';
import { user } from '../db/schema';
import { getOrderDocuments } from '../invoices/invoices.server';
import { renderDocumentPdf } from '../invoices/pdf.server';
import { log } from '../log.server';
import { CheckoutError } from '../payments/checkout.server';
import { applyPaymentNotification } from '../payments/notifications.server';
import { confirmCheckout } from '../payments/offline.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { loadOrderDetails } from './access.server';
import { checkoutDetailsRules, saveAddressToProfile } from './checkout-details.server';
import { createOrder } from './create-order.server';

process.env.BASE_URL = 'http://localhost:3000';
log.level = 'silent';

const customer = {
  id: randomUUID(),
  email: `irene-${randomUUID()}@example.fr`,
  firstName: 'Irène',
  lastName: 'Joliot',
};

beforeAll(async () => {
  await ensureDefaultPriceList();
  await db()
    .insert(user)
    .values({ ...customer, name: 'Irène Joliot', street: '1 rue Curie', postalCode: '75005' });
});

/** The payment form's addresses checked against the order's own price list, as the checkout does. */
async function checkCheckoutDetails(order: Parameters<typeof checkoutDetailsRules>[0], posted: CheckoutDetailsForm) {
  const rules = await checkoutDetailsRules(order);
  if (!rules) throw new Error('nothing physical travels');
  return parseCheckoutDetails(posted, rules);
}

/** A draft with a USB key and the return of the originals (something physical travels). */
async function physicalDraft() {
  const { value } = parseSelectionSearchParams(
    new URLSearchParams('support=photos&photos.quantity=100&delivery=usb&returnOriginals=on'),
    { requireSupport: true },
  );
  if (!value) throw new Error('selection refused');
  return createOrder({ selection: value, user: customer });
}

const address = {
  firstName: 'Irène',
  lastName: 'Joliot',
  company: '',
  line1: '12 rue des Lilas',
  line2: '',
  postalCode: '75011',
  city: 'Paris',
  country: 'FR',
  phone: '06 12 34 56 78',
};
const form = (overrides: Partial<CheckoutDetailsForm> = {}): CheckoutDetailsForm => ({
  delivery: address,
  billingDifferent: false,
  billing: { ...address, line1: '', city: '' },
  insure: false,
  insuredValue: '',
  saveToProfile: false,
  ...overrides,
});

async function placedAt(orderId: string): Promise<Date | null> {
  const { rows } = await pool().query<{ placed_at: Date | null }>('select placed_at from orders where id = $1', [
    orderId,
  ]);
  return rows[0]?.placed_at ?? null;
}

function orderOf(details: Awaited<ReturnType<typeof loadOrderDetails>>) {
  if (!details) throw new Error('order not found');
  return details;
}

describe('placing an order that ships something physical', () => {
  it('is refused without a delivery address, in French, and nothing is placed', async () => {
    const draft = await physicalDraft();
    const refused = confirmCheckout({ orderId: draft.id, method: 'transfer', actor: customer.id, accessToken: null });
    await expect(refused).rejects.toBeInstanceOf(CheckoutError);
    await expect(refused).rejects.toThrow(LIFECYCLE_MESSAGES.noAddress);
    expect(await placedAt(draft.id)).toBeNull();
  });

  it('says what is wrong with the address, field by field, in French', async () => {
    const draft = orderOf(await loadOrderDetails((await physicalDraft()).id));
    const checked = await checkCheckoutDetails(
      draft,
      form({ delivery: { ...address, postalCode: '7501', phone: '' }, insure: true, insuredValue: '99999' }),
    );
    expect(checked).toEqual({
      ok: false,
      errors: {
        delivery: {
          postalCode: 'Code postal invalide pour ce pays (exemple\u00a0: 75011)',
          phone: ADDRESS_MESSAGES.phone,
        },
        // The ceiling of the order's own price list (5 000 € by default).
        insuredValue: CHECKOUT_DETAILS_MESSAGES.insuredValueTooHigh(500_000),
      },
    });
    expect(await placedAt(draft.id)).toBeNull();
  });

  it('freezes the addresses and prices the insurance with the placing; the invoice shows both addresses', async () => {
    const created = await physicalDraft();
    const draft = orderOf(await loadOrderDetails(created.id));
    const checked = await checkCheckoutDetails(
      draft,
      form({
        billingDifferent: true,
        billing: {
          ...address,
          company: 'Atelier Joliot',
          line1: '3 place du Marché',
          postalCode: '1000',
          city: 'Bruxelles',
          country: 'BE',
          phone: '0470 12 34 56',
        },
        insure: true,
        insuredValue: '250',
        saveToProfile: true,
      }),
    );
    if (!checked.ok || !checked.details) throw new Error('valid details refused');
    await confirmCheckout({
      orderId: created.id,
      method: 'transfer',
      actor: customer.id,
      accessToken: null,
      details: checked.details,
    });
    await saveAddressToProfile(customer.id, checked.details);
    expect(await placedAt(created.id)).toBeInstanceOf(Date);

    const placed = orderOf(await loadOrderDetails(created.id));
    // 250 € declared: three started tranches of 100 € at 1,20 €, added to the total by the server.
    expect(placed.insuredValueCents).toBe(25_000);
    expect(placed.insurancePriceCents).toBe(360);
    expect(placed.totalPriceCents).toBe(draft.totalPriceCents + 360);
    expect(placed.addresses.delivery).toMatchObject({ line1: '12 rue des Lilas', phone: '+33612345678' });
    expect(placed.addresses.billing).toMatchObject({ city: 'Bruxelles', country: 'BE', phone: '+32470123456' });
    const { rows: events } = await pool().query<{ kind: string; data: unknown }>(
      `select kind, data from order_events where order_id = $1 and kind = 'address_recorded'`,
      [created.id],
    );
    expect(events).toEqual([{ kind: 'address_recorded', data: { kinds: ['delivery', 'billing'] } }]);
    const [profile] = await db().select().from(user).where(eq(user.id, customer.id));
    expect(profile).toMatchObject({ street: '12 rue des Lilas', postalCode: '75011', city: 'Paris', country: 'FR' });

    // A later change of the profile does not move the frozen address.
    await db().update(user).set({ street: '99 avenue Ailleurs', city: 'Lyon' }).where(eq(user.id, customer.id));
    expect(orderOf(await loadOrderDetails(created.id)).addresses.delivery).toMatchObject({
      line1: '12 rue des Lilas',
      city: 'Paris',
    });

    await applyPaymentNotification({
      provider: 'monetico',
      eventId: `evt_${created.id}`,
      providerRef: `ref_${created.id}`,
      orderId: created.id,
      outcome: 'paid',
      amountCents: placed.totalPriceCents,
      currency: 'EUR',
      method: 'card',
      raw: { test: true },
    });
    const { invoice } = await getOrderDocuments(created.id);
    if (!invoice) throw new Error('no invoice');
    expect(invoice.snapshot.buyer).toMatchObject({
      name: 'Irène Joliot (Atelier Joliot)',
      street: '3 place du Marché',
      postalCode: '1000',
      city: 'Bruxelles',
      country: 'Belgique',
    });
    const pdf = await renderDocumentPdf(invoice.snapshot);
    expect(isPdf(pdf)).toBe(true);
    // Runs of text may be cut at spaces: read it as one line.
    const text = pdfText(pdf).replace(/\s+/g, ' ');
    expect(text).toContain('Bruxelles');
    expect(text).toContain('Belgique');
    // Printed as the other party labels, in capitals.
    expect(text).toMatch(/Adresse de livraison/i);
    expect(text).toContain('12 rue des Lilas');
    expect(text).toContain('75011 Paris');
    expect(text).toContain('Assurance du retour');
  });
});
