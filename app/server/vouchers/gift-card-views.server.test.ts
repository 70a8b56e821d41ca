import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatGiftCardCode } from '~/domain/vouchers/gift-cards';
import { loader as checkoutLoader } from '~/routes/shop/checkout';
import { loader as confirmationLoader } from '~/routes/shop/confirmation';
import { loader as giftCardPdfLoader } from '~/routes/shop/gift-card-pdf';
import { payByCard } from '../../../tests/support/card-payment';
import { isPdf, pdfText } from '../../../tests/support/pdf';
import { insertOrder, registeredAccount, requestWith, type TestAccount } from '../account/testing/fixtures';
import { log } from '../log.server';
import { orderAccessCookieName } from '../orders/access.server';
import { withdrawFromOrder } from '../orders/withdrawal.server';
import { confirmCheckout } from '../payments/offline.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { accountGiftCards, giftCardPdfPath, giftCardSaleOf, printableGiftCard } from './gift-card-views.server';
import { parisMorning, revealGiftCardCode, startGiftCardOrder } from './gift-cards.server';

/*
 * What the customer's pages read of gift cards (decision 037): the card a sale order is about, the
 * cards an account bought, and the printable card behind /carte-cadeau/:orderId/carte.pdf, for the
 * order's people only, once issued, for a card its buyer prints.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

let buyer: TestAccount;

beforeAll(async () => {
  await ensureDefaultPriceList();
  buyer = await registeredAccount('customer', { firstName: 'Claire', lastName: 'Martin' });
});

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function draftCard(delivery: 'email' | 'print', account: TestAccount | null = buyer, amountCents = 5000) {
  const started = await startGiftCardOrder({
    purchase: {
      amountCents,
      recipientName: 'Jeanne Martin',
      recipientEmail: `jeanne-${randomUUID()}@example.fr`,
      message: 'Joyeux Noël !',
      delivery,
      sendDate: delivery === 'email' ? tomorrow() : null,
    },
    buyer: {
      user: account ? { id: account.id, email: account.email, firstName: 'Claire', lastName: 'Martin' } : null,
      name: 'Claire',
    },
  });
  if (!started.ok) throw new Error(started.message);
  return started;
}

async function paidCard(delivery: 'email' | 'print', account: TestAccount | null = buyer, amountCents = 5000) {
  const started = await draftCard(delivery, account, amountCents);
  await confirmCheckout({
    orderId: started.orderId,
    method: 'card',
    actor: account?.id ?? 'customer',
    accessToken: started.accessToken,
    contact: account ? null : { email: `paul-${randomUUID()}@example.fr`, firstName: 'Paul', lastName: 'Durand' },
  });
  await payByCard(started.orderId, amountCents);
  return started;
}

type PdfArgs = Parameters<typeof giftCardPdfLoader>[0];

/** The route's answer, a thrown `data(…, { status })` or Response included. */
async function download(orderId: string, cookies: string[] = []): Promise<Response> {
  const request = requestWith(giftCardPdfPath(orderId), cookies);
  try {
    return await giftCardPdfLoader({ request, params: { orderId }, context: {} } as unknown as PdfArgs);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    const init = (thrown as { init?: { status?: number } }).init;
    if (init?.status) return new Response(null, { status: init.status });
    throw thrown;
  }
}

describe('giftCardSaleOf', () => {
  it('is null for an order that sells no card', async () => {
    const order = await insertOrder({ userId: buyer.id });
    expect(await giftCardSaleOf(order.id)).toBeNull();
  });

  it('tells the draft: what was chosen, its validity, no card yet', async () => {
    const started = await draftCard('email');
    expect(await giftCardSaleOf(started.orderId)).toMatchObject({
      amountCents: 5000,
      recipientName: 'Jeanne Martin',
      delivery: 'email',
      sendOn: tomorrow(),
      validityMonths: 12,
      card: null,
    });
  });

  it('tells a paid card e-mailed tomorrow: its morning, still to leave, nothing to download', async () => {
    const started = await paidCard('email');
    const view = await giftCardSaleOf(started.orderId);
    expect(view?.card).toMatchObject({
      state: 'active',
      sendsAt: parisMorning(tomorrow()),
      sendsLater: true,
      pdfHref: null,
    });
  });

  it('tells a paid card to print: its PDF, and no e-mail to the recipient', async () => {
    const started = await paidCard('print');
    const view = await giftCardSaleOf(started.orderId);
    expect(view?.card).toMatchObject({
      state: 'active',
      sendsAt: null,
      sendsLater: false,
      pdfHref: `/carte-cadeau/${started.orderId}/carte.pdf`,
    });
    expect(view?.card?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 364 * 86_400_000);
  });

  it('tells a card withdrawn unused as cancelled, with nothing to download', async () => {
    const started = await paidCard('print');
    expect(await withdrawFromOrder({ orderId: started.orderId, actor: buyer.id })).toMatchObject({ ok: true });
    expect((await giftCardSaleOf(started.orderId))?.card).toMatchObject({ state: 'canceled', pdfHref: null });
  });
});

describe('accountGiftCards', () => {
  it('lists the issued cards of the account, newest first, and nobody else’s nor a draft', async () => {
    const own = await registeredAccount();
    const other = await registeredAccount();
    const first = await paidCard('print', own, 3000);
    const second = await paidCard('email', own, 7000);
    await draftCard('print', own);
    await paidCard('print', other);
    const cards = await accountGiftCards(own.id);
    expect(cards.map((card) => [card.saleOrderId, card.initialCents, card.balanceCents, card.state])).toEqual([
      [second.orderId, 7000, 7000, 'active'],
      [first.orderId, 3000, 3000, 'active'],
    ]);
    expect(cards[0]).toMatchObject({ sendsAt: parisMorning(tomorrow()), pdfHref: null, delivery: 'email' });
    expect(cards[1]).toMatchObject({ sendsAt: null, pdfHref: giftCardPdfPath(first.orderId), delivery: 'print' });
    expect(cards[1]?.maskedCode).toMatch(/^(•{4}-){3}[0-9A-Z]{4}$/);
    expect(await accountGiftCards((await registeredAccount()).id)).toEqual([]);
  });
});

describe('printableGiftCard', () => {
  it('gives the card of a paid sale to print, its code in clear and formatted', async () => {
    const started = await paidCard('print');
    const code = (await revealGiftCardCode(started.orderId)) as string;
    expect(await printableGiftCard(started.orderId)).toMatchObject({
      code: formatGiftCardCode(code),
      amountCents: 5000,
      recipientName: 'Jeanne Martin',
      buyerName: 'Claire',
      message: 'Joyeux Noël !',
      redeemUrl: `https://www.soovenirs.test/carte-cadeau/utiliser#code=${formatGiftCardCode(code)}`,
    });
  });

  it('gives nothing before the payment, for a card e-mailed to its recipient, nor for a cancelled card', async () => {
    expect(await printableGiftCard((await draftCard('print')).orderId)).toBeNull();
    expect(await printableGiftCard((await paidCard('email')).orderId)).toBeNull();
    const withdrawn = await paidCard('print');
    await withdrawFromOrder({ orderId: withdrawn.orderId, actor: buyer.id });
    expect(await printableGiftCard(withdrawn.orderId)).toBeNull();
  });
});

describe('/carte-cadeau/:orderId/carte.pdf', () => {
  it('gives the owner the card as a PDF with its code and amount', async () => {
    const started = await paidCard('print');
    const response = await download(started.orderId, [buyer.cookie]);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    expect(response.headers.get('Content-Disposition')).toBe(`inline; filename="carte-cadeau-${started.number}.pdf"`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(isPdf(bytes)).toBe(true);
    // The PDF cuts its text into runs where the font kerns (« 5 VC7-… »): compare without the spaces.
    const text = pdfText(bytes).replace(/\s+/g, '');
    expect(text).toContain(formatGiftCardCode((await revealGiftCardCode(started.orderId)) as string));
    expect(text).toContain('PourJeanneMartin');
  });

  it('opens for the guest holding the token and the staff, and is a 404 for anyone else', async () => {
    const started = await paidCard('print', null);
    const admin = await registeredAccount('admin');
    const stranger = await registeredAccount();
    const guestCookie = `${orderAccessCookieName(started.orderId)}=${started.accessToken}`;
    expect((await download(started.orderId, [guestCookie])).status).toBe(200);
    expect((await download(started.orderId, [admin.cookie])).status).toBe(200);
    expect((await download(started.orderId, [stranger.cookie])).status).toBe(404);
    expect((await download(started.orderId)).status).toBe(404);
    expect((await download(randomUUID(), [admin.cookie])).status).toBe(404);
    // Another account's card, even to one who bought cards too.
    expect((await download((await paidCard('print')).orderId, [stranger.cookie])).status).toBe(404);
  });

  it('is a 404 to the owner while unpaid and for a card e-mailed to its recipient', async () => {
    expect((await download((await draftCard('print')).orderId, [buyer.cookie])).status).toBe(404);
    expect((await download((await paidCard('email')).orderId, [buyer.cookie])).status).toBe(404);
  });
});

describe('the checkout and the confirmation of a sale', () => {
  type CheckoutArgs = Parameters<typeof checkoutLoader>[0];
  type ConfirmationArgs = Parameters<typeof confirmationLoader>[0];
  // Each route types its own arguments: what the loaders read is the buyer's request.
  const args = <T>(path: string) =>
    ({ request: requestWith(path, [buyer.cookie]), params: {}, context: {} }) as unknown as T;

  it('tell the card at checkout, without the files’ retention', async () => {
    const started = await draftCard('print');
    const page = await checkoutLoader(args<CheckoutArgs>(`/checkout?orderId=${started.orderId}`));
    expect(page).toMatchObject({
      state: 'shown',
      retentionDays: null,
      giftCard: { amountCents: 5000, recipientName: 'Jeanne Martin', delivery: 'print', card: null },
    });
    const other = await checkoutLoader(
      args<CheckoutArgs>(`/checkout?orderId=${(await insertOrder({ userId: buyer.id })).id}`),
    );
    expect(other).toMatchObject({ giftCard: null, retentionDays: expect.any(Number) });
  });

  it('tell the card waiting for a transfer on its confirmation: no journey, no work, the card issued when paid', async () => {
    const started = await draftCard('email');
    await confirmCheckout({ orderId: started.orderId, method: 'transfer', actor: buyer.id, accessToken: null });
    const answer = (await confirmationLoader(
      args<ConfirmationArgs>(`/confirmation?orderId=${started.orderId}`),
    )) as unknown as {
      data: Record<string, unknown> & { instructions: { outro: string } };
    };
    expect(answer.data).toMatchObject({
      giftCard: { delivery: 'email', card: null },
      journey: null,
      tracking: null,
      files: null,
      prepaidLabel: null,
      workStarts: null,
    });
    expect(answer.data.instructions.outro).toMatch(/^Votre carte cadeau est émise dès réception de votre virement/);
  });
});
