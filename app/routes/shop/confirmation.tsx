import { ArrowLeftIcon, CreditCardIcon, FileTextIcon } from 'lucide-react';
import { data, Link, redirect } from 'react-router';
import { CreditNotesLinks } from '~/components/account/credit-notes-links';
import { OrderAddresses } from '~/components/account/order-addresses';
import { deliveryLabel, OrderItemsTable, OrderTotals, paymentMethodLabel } from '~/components/account/order-details';
import { OrderJourney } from '~/components/account/order-journey';
import { OrderTimeline } from '~/components/account/order-timeline';
import { OrderTracking } from '~/components/account/order-tracking';
import { RefundIbanNotice } from '~/components/account/refund-iban-notice';
import { OrderStatusBadge, PaymentStatusBadge } from '~/components/account/status-badges';
import { WithdrawalNotice } from '~/components/account/withdrawal-notice';
import { toWithdrawalView } from '~/components/account/withdrawal-view';
import { type ServerToast, ServerToastFallback, useServerToast } from '~/components/auth/toast-messages';
import { ClosedOrderNotice } from '~/components/checkout/checkout-blocks';
import { PaymentInstructionsBlock, PaymentStatusBanner } from '~/components/checkout/confirmation-payment';
import { GiftCardPaymentLine } from '~/components/checkout/gift-card-payment';
import { GiftCardConfirmation } from '~/components/checkout/gift-card-sale';
import { SendingInstructions } from '~/components/checkout/sending-instructions';
import { FilesLink } from '~/components/files/files-link';
import { PrepaidLabel } from '~/components/shipping/prepaid-label';
import { Button } from '~/components/ui/button';
import { useHydrated } from '~/components/use-hydrated';
import { withdrawalState } from '~/domain/account/withdrawal';
import { formatDateTimeFr } from '~/domain/format';
import { wasPaid } from '~/domain/order-status';
import { closedOrderMessage, isClosedUnpaid } from '~/domain/orders/closed-order';
import { EARLY_START_TEXT, workHeldBack, workNotBefore } from '~/domain/orders/early-start';
import { arrivedFromGateway, confirmationPaymentState } from '~/domain/payments/confirmation';
import { paymentInstructions } from '~/domain/payments/offline';
import { pickPriceFields } from '~/domain/pricing/pricing';
import { giftCardSentByEmail } from '~/domain/vouchers/gift-cards';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { consumeFlash } from '~/server/account/cookies.server';
import { listOrderCreditNotes } from '~/server/account/orders.server';
import { loginRedirectPath } from '~/server/auth/session.server';
import { loadFilesSummary } from '~/server/files/gallery.server';
import { accessFromLink, deniedOrderAnswer, getOrderForViewer } from '~/server/orders/access.server';
import { loadOrderJourney } from '~/server/orders/journey.server';
import { loadOrderTracking } from '~/server/orders/order-tracking.server';
import { ibanStatus } from '~/server/orders/refund-iban.server';
import { withdrawalWords } from '~/server/orders/withdrawal.server';
import { openCardAttemptAt } from '~/server/payments/attempts.server';
import { prepaidLabelView } from '~/server/shipping/labels.server';
import { giftCardSaleOf } from '~/server/vouchers/gift-card-views.server';
import { giftCardWithdrawalFacts } from '~/server/vouchers/gift-cards.server';
import { giftCardPartOf } from '~/server/vouchers/order-gift-card.server';
import type { Route } from './+types/confirmation';

/*
 * /confirmation?orderId=: the order's summary, lines, price
 * breakdown, statuses and history. Only for the order's owner, a guest holding the order's access
 * token, or an administrator; anyone else gets the 404 an unknown order gets. The payment's state:
 * paid; being confirmed by the gateway (the page refreshes itself); to pay by transfer or cheque,
 * with the instructions; or unpaid, with the way back to the checkout. A gift card's sale (decision
 * 037) tells its card instead of the originals' journey, the files and the work: issued once paid,
 * when and where it goes, or the card to print.
 */

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: loaded ? `Commande ${loaded.order.number} | Soovenirs` : 'Commande | Soovenirs' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request }: Route.LoaderArgs) {
  const orderId = new URL(request.url).searchParams.get('orderId') ?? '';
  const fromLink = await accessFromLink(request, orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const found = await getOrderForViewer(request, orderId);
  if (!found) {
    // Signed out, from an account's order link: sign in, then back here (decision 015).
    if ((await deniedOrderAnswer(request, orderId)) === 'login') throw redirect(loginRedirectPath(request));
    throw data(null, { status: 404 });
  }
  const { order, viewer } = found;
  const now = new Date();
  const notBefore = workNotBefore(order);
  const { flash, setCookie } = consumeFlash(request, '/confirmation');
  const payment = confirmationPaymentState({
    paymentStatus: order.paymentStatus,
    paymentMethod: order.paymentMethod,
    openAttemptAt:
      order.paymentStatus === 'pending' && arrivedFromGateway(new URL(request.url).searchParams)
        ? await openCardAttemptAt(order.id)
        : null,
    now,
    // Withdrawn but paid and started, the order is still in the workshop's hands until the staff
    // settle it: its payment is told as paid, not « annulée : aucun paiement n'est attendu ».
    closed: order.status === 'canceled' || isClosedUnpaid(order),
  });
  const closedMessage = closedOrderMessage(order);
  // A gift card's sale: no originals, no parcel, no files, no work.
  const giftCard = await giftCardSaleOf(order.id, now);
  // What a gift card paid of it (decision 037): a line of its own, and the rest asked in money.
  const paidByCard = await giftCardPartOf(order.id);
  // Before the journey: a carrier's first scan learnt now ticks « Colis envoyé » on this view.
  const tracking = giftCard ? null : await loadOrderTracking(order.id);
  const journey = giftCard ? null : await loadOrderJourney(order.id);
  return data(
    {
      viewer,
      payment,
      closedMessage,
      giftCard,
      paidByCard:
        paidByCard && paidByCard.cents > 0 ? { maskedCode: paidByCard.maskedCode, cents: paidByCard.cents } : null,
      // The customer kept their withdrawal period: when the work starts (decision 015).
      workStarts:
        // Never on a cancelled or withdrawn order: no work will start.
        !giftCard &&
        !closedMessage &&
        order.status !== 'canceled' &&
        !order.withdrawnAt &&
        notBefore &&
        workHeldBack(notBefore, now)
          ? EARLY_START_TEXT.startsAfterPeriod(notBefore)
          : null,
      journey,
      tracking,
      files: giftCard ? null : await loadFilesSummary(order.id),
      // Paying is still possible: the checkout's own rules (not cancelled, not withdrawn).
      payable: order.status !== 'canceled' && order.withdrawnAt === null,
      instructions:
        payment.kind === 'offline'
          ? paymentInstructions(
              payment.method,
              { number: order.number, amountDueCents: order.totalPriceCents - (paidByCard?.cents ?? 0) },
              { giftCard: giftCard !== null },
            )
          : null,
      order: {
        id: order.id,
        number: order.number,
        createdAt: order.createdAt,
        status: order.status,
        paymentStatus: order.paymentStatus,
        paymentMethod: order.paymentMethod,
        deliveryMethod: order.deliveryMethod,
        returnOriginals: order.returnOriginals,
        items: order.items,
        prices: pickPriceFields(order),
        customer: order.customer,
        addresses: order.addresses,
        events: order.events,
        invoiceNumber: order.invoice?.number ?? null,
      },
      withdrawal: toWithdrawalView(
        withdrawalState({ ...order, ...(await giftCardWithdrawalFacts(order.id)) }),
        order.withdrawnAt ? await withdrawalWords(order.id) : null,
      ),
      creditNotes: await listOrderCreditNotes(order.id),
      prepaidLabel: giftCard ? null : await prepaidLabelView(order),
      // A refund by transfer waiting for (or paid to) the customer's IBAN (decision 025).
      refundIban: viewer === 'admin' ? null : await refundIbanView(order.id),
      flash: flash as ServerToast | null,
    },
    { headers: cookieHeaders(setCookie) },
  );
}

async function refundIbanView(orderId: string) {
  const status = await ibanStatus(orderId);
  if (!status) return null;
  return { owedCents: status.owedCents, receivedAt: status.receivedAt?.toISOString() ?? null, masked: status.masked };
}

export default function Confirmation({ loaderData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const { order, viewer, withdrawal, flash, payment, payable, instructions, prepaidLabel, journey, files, giftCard } =
    loaderData;
  const { closedMessage, workStarts } = loaderData;
  useServerToast(flash);
  const customerName = `${order.customer.firstName} ${order.customer.lastName}`.trim();
  const address = [order.customer.street, [order.customer.postalCode, order.customer.city].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  // Unpaid, or waiting for a transfer or a cheque: the customer may still pay by card instead.
  const canPayByCard = viewer !== 'admin' && (payment.kind === 'unpaid' || payment.kind === 'offline') && payable;

  return (
    <section
      aria-labelledby="order-title"
      data-hydrated={hydrated}
      className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6"
    >
      <ServerToastFallback value={flash} />
      {viewer === 'owner' ? (
        <Link
          to="/profile"
          className="inline-flex w-fit items-center gap-1.5 text-primary text-sm underline-offset-4 hover:underline"
        >
          <ArrowLeftIcon className="size-4" aria-hidden="true" />
          Retour à mon compte
        </Link>
      ) : null}
      <div className="flex flex-col gap-2">
        <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Confirmation de commande</p>
        <h1 id="order-title" className="text-title">
          Commande {order.number}
        </h1>
        <p className="text-muted-foreground">Passée le {formatDateTimeFr(order.createdAt)}</p>
      </div>

      {closedMessage ? <ClosedOrderNotice message={closedMessage} /> : <PaymentStatusBanner state={payment} />}
      {workStarts ? <p id="work-start">{workStarts}</p> : null}
      {giftCard ? <GiftCardConfirmation sale={giftCard} /> : null}
      {loaderData.refundIban ? <RefundIbanNotice orderId={order.id} iban={loaderData.refundIban} /> : null}
      {instructions ? <PaymentInstructionsBlock instructions={instructions} /> : null}
      {canPayByCard ? (
        <Button asChild className="w-fit" variant={payment.kind === 'offline' ? 'outline' : 'default'}>
          <Link to={`/checkout?${new URLSearchParams({ orderId: order.id })}`}>
            <CreditCardIcon aria-hidden="true" />
            {payment.kind === 'offline' ? 'Payer plutôt par carte bancaire' : 'Payer ma commande'}
          </Link>
        </Button>
      ) : null}
      {prepaidLabel ? <PrepaidLabel orderId={order.id} label={prepaidLabel} /> : null}

      {journey?.sending ? <SendingInstructions sending={journey.sending} prepaidLabel={journey.prepaidLabel} /> : null}
      {files ? <FilesLink orderId={order.id} files={files} /> : null}
      {journey ? <OrderJourney journey={journey} /> : null}
      {loaderData.tracking ? <OrderTracking tracking={loaderData.tracking} /> : null}

      <dl className="grid gap-4 rounded-lg border border-border bg-card p-5 sm:grid-cols-2 lg:grid-cols-4">
        <div className="flex flex-col gap-1">
          <dt className="text-muted-foreground text-sm">Statut</dt>
          <dd>
            <OrderStatusBadge status={order.status} />
          </dd>
        </div>
        <div className="flex flex-col gap-1">
          <dt className="text-muted-foreground text-sm">Paiement</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <PaymentStatusBadge status={order.paymentStatus} />
            <span className="text-sm">{paymentMethodLabel(order.paymentMethod)}</span>
          </dd>
        </div>
        {giftCard ? (
          <div className="flex flex-col gap-1">
            <dt className="text-muted-foreground text-sm">Carte cadeau</dt>
            <dd className="text-sm">{giftCardSentByEmail(giftCard) ? 'Par e-mail' : 'À imprimer'}</dd>
          </div>
        ) : (
          <div className="flex flex-col gap-1">
            <dt className="text-muted-foreground text-sm">Livraison</dt>
            <dd className="text-sm">
              {deliveryLabel(order.deliveryMethod)}
              {order.returnOriginals ? ', retour des originaux' : ''}
            </dd>
          </div>
        )}
        <div className="flex flex-col gap-1">
          <dt className="text-muted-foreground text-sm">Client</dt>
          <dd className="text-sm">
            {customerName ? <span className="block">{customerName}</span> : null}
            {order.customer.email ? <span className="block break-all">{order.customer.email}</span> : null}
            {address ? <span className="block">{address}</span> : null}
          </dd>
        </div>
      </dl>

      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <div className="flex flex-col gap-6">
          <section aria-labelledby="order-items-title" className="flex flex-col gap-3">
            <h2 id="order-items-title" className="font-semibold text-lg">
              Articles
            </h2>
            <OrderItemsTable items={order.items} prices={order.prices} />
          </section>
          <section aria-labelledby="order-totals-title" className="flex flex-col gap-3">
            <h2 id="order-totals-title" className="font-semibold text-lg">
              Récapitulatif
            </h2>
            <OrderTotals prices={order.prices} items={order.items} />
            {loaderData.paidByCard ? (
              <GiftCardPaymentLine
                part={loaderData.paidByCard}
                totalCents={order.prices.totalPriceCents}
                paid={wasPaid(order.paymentStatus)}
              />
            ) : null}
          </section>
          <OrderAddresses delivery={order.addresses.delivery} billing={order.addresses.billing} />
          {order.invoiceNumber ? (
            <Button asChild variant="outline" className="w-fit">
              <Link to={`/facture/${order.id}`}>
                <FileTextIcon aria-hidden="true" />
                Voir la facture {order.invoiceNumber}
              </Link>
            </Button>
          ) : null}
          <CreditNotesLinks notes={loaderData.creditNotes} headingId="order-credit-notes-title" />
        </div>
        <div className="flex flex-col gap-6">
          {viewer !== 'admin' ? <WithdrawalNotice orderId={order.id} withdrawal={withdrawal} /> : null}
          <OrderTimeline entries={order.events} />
        </div>
      </div>
    </section>
  );
}
