import { type FieldMetadata, type FormMetadata, getFormProps } from '@conform-to/react';
import { CircleAlertIcon, LockIcon, TruckIcon, UserIcon } from 'lucide-react';
import * as React from 'react';
import { Form, Link } from 'react-router';
import { deliveryLabel, OrderItemsTable, OrderTotals } from '~/components/account/order-details';
import { CheckboxField, RadioGroupField } from '~/components/forms/field';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '~/components/ui/card';
import { Spinner } from '~/components/ui/spinner';
import type { OrderPrices } from '~/domain/account/order-details';
import { ACCOUNT_TAB_LABELS, ACCOUNT_TABS, type AccountTab } from '~/domain/orders/checkout-account';
import type { CheckoutPayFields } from '~/domain/orders/checkout-details';
import { EARLY_START_TEXT } from '~/domain/orders/early-start';
import type { OrderLine } from '~/domain/orders/order-line';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import {
  CHECKOUT_PAYMENT_METHOD_TEXT,
  CHECKOUT_PAYMENT_METHODS,
  type CheckoutPaymentMethod,
  isCheckoutPaymentMethod,
} from '~/domain/payments/offline';
import { SANDBOX_POLICY_MESSAGES } from '~/domain/payments/sandbox-policy';
import { PHYSICAL_DELIVERY_DELAY, RETURN_ORIGINALS_LABEL, SEND_METHOD_LABELS } from '~/domain/pricing/labels';

/*
 * The blocks of /checkout: the order recap, the delivery, the
 * account (guest / sign-in / registration) with the guest's information, and the payment with the
 * customer's express request to start before the end of the withdrawal period. Forms posted to
 * the page's action: everything works without JavaScript.
 */

export const CHECKOUT_TEXT = {
  asGuest:
    'Sans compte\u00a0: indiquez vos coordonnées ci-dessous puis payez, nous vous écrivons pour le suivi de votre commande.',
  processing: 'Redirection vers le paiement…',
  recording: 'Enregistrement de votre commande…',
} as const;

/** The submit button's words: `Payer {total}` by card, the commitment to pay otherwise. */
export function payButtonLabel(method: CheckoutPaymentMethod, total: string): string {
  switch (method) {
    case 'card':
      return `Payer ${total}`;
    case 'transfer':
      return `Commander et payer ${total} par virement`;
    case 'cheque':
      return `Commander et payer ${total} par chèque`;
  }
}

function SectionTitle({ id, icon, children }: { id: string; icon?: React.ReactNode; children: React.ReactNode }) {
  return (
    <h2 id={id} className="flex items-center gap-2 font-heading font-semibold text-xl leading-tight">
      {icon}
      {children}
    </h2>
  );
}

/** The amber banner of a cancelled payment (canceled=true). */
export function CanceledBanner() {
  return (
    <Alert variant="warning" role="status" title={PAYMENT_MESSAGES.canceledTitle}>
      <p>{PAYMENT_MESSAGES.canceledBanner}</p>
    </Alert>
  );
}

/** An error of the page (payment, server), read out when it appears. */
export function CheckoutAlert({ title, message, id }: { title: string; message: string; id?: string }) {
  return (
    <Alert id={id} variant="danger" title={title}>
      <p>{message}</p>
    </Alert>
  );
}

/** The order's lines at their real prices and the price breakdown. */
export function OrderRecap({ items, prices }: { items: OrderLine[]; prices: OrderPrices }) {
  return (
    <section aria-labelledby="recap-title" className="flex flex-col gap-3">
      <SectionTitle id="recap-title">Récapitulatif de la commande</SectionTitle>
      <OrderItemsTable items={items} prices={prices} />
      <OrderTotals prices={prices} items={items} />
    </section>
  );
}

export function DeliveryBlock({
  deliveryMethod,
  sendMethod,
  returnOriginals,
}: {
  deliveryMethod: string;
  sendMethod: string;
  returnOriginals: boolean;
}) {
  const physical = deliveryMethod === 'usb' || deliveryMethod === 'disc';
  // Extra copies and retention extensions (decision 029): no originals travel, nothing is digitised.
  const noOriginals = sendMethod === 'none';
  return (
    <section aria-labelledby="delivery-title" className="flex flex-col gap-3">
      <SectionTitle id="delivery-title" icon={<TruckIcon className="size-5 text-primary" aria-hidden="true" />}>
        Livraison
      </SectionTitle>
      <dl className="grid gap-3 rounded-lg border border-border bg-card p-4 text-sm sm:grid-cols-2">
        <div className="flex flex-col gap-0.5">
          <dt className="text-muted-foreground">Mode de livraison</dt>
          <dd className="font-medium">{deliveryLabel(deliveryMethod)}</dd>
          <dd className="text-muted-foreground">
            {physical
              ? `Livraison sous ${PHYSICAL_DELIVERY_DELAY} après ${noOriginals ? 'le paiement' : 'la numérisation'}.`
              : noOriginals
                ? 'Rien n’est expédié.'
                : 'Vos fichiers vous sont envoyés par lien de téléchargement.'}
          </dd>
        </div>
        <div className={noOriginals ? 'hidden' : 'flex flex-col gap-0.5'}>
          <dt className="text-muted-foreground">Envoi de vos originaux</dt>
          <dd className="font-medium">
            {SEND_METHOD_LABELS[sendMethod as keyof typeof SEND_METHOD_LABELS] ?? sendMethod}
          </dd>
          {returnOriginals ? <dd className="text-muted-foreground">{RETURN_ORIGINALS_LABEL} inclus</dd> : null}
        </div>
      </dl>
    </section>
  );
}

/**
 * The account block of a visitor who is not signed in: « Commander en invité », « Connexion » and
 * « Inscription » as tabs of this page (links to ?compte=, so that each works without JavaScript
 * and the order stays on screen). The chosen tab's form is `children`.
 */
export function AccountBlock({
  current,
  tabHref,
  children,
}: {
  current: AccountTab;
  tabHref: (tab: AccountTab) => string;
  children: React.ReactNode;
}) {
  const tab =
    'inline-flex h-9 items-center justify-center rounded-md px-3 font-medium text-sm transition-colors focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2';
  return (
    <section aria-labelledby="account-title" className="flex flex-col gap-4">
      <SectionTitle id="account-title" icon={<UserIcon className="size-5 text-primary" aria-hidden="true" />}>
        Votre compte
      </SectionTitle>
      <nav aria-label="Mode de commande">
        <ul className="inline-flex w-fit max-w-full items-center gap-1 overflow-x-auto rounded-lg bg-muted p-1 text-muted-foreground">
          {ACCOUNT_TABS.map((value) => (
            <li key={value}>
              <Link
                to={tabHref(value)}
                preventScrollReset
                aria-current={value === current ? 'page' : undefined}
                className={
                  value === current ? `${tab} bg-card text-foreground shadow-sm` : `${tab} hover:text-foreground`
                }
              >
                {ACCOUNT_TAB_LABELS[value]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Card>
        <CardContent className="pt-6">{children}</CardContent>
      </Card>
    </section>
  );
}

/**
 * A cancelled or withdrawn order that was never paid (decision 015): nothing to pay, what
 * happened, and the way to a new order.
 */
export function ClosedOrderNotice({ message }: { message: string }) {
  return (
    <section
      aria-labelledby="closed-order-title"
      className="flex flex-col items-start gap-3 rounded-lg border border-border bg-card p-5"
    >
      <h2 id="closed-order-title" className="flex items-center gap-2 font-heading font-semibold text-xl">
        <CircleAlertIcon className="size-5 text-primary" aria-hidden="true" />
        Commande annulée
      </h2>
      <p>{message}</p>
      <Button asChild>
        <Link to="/configurateur">Commencer une nouvelle commande</Link>
      </Button>
    </section>
  );
}

/**
 * The payment: the method (card, bank transfer, cheque: terms of sale, section 6), the request to
 * start early (a choice: without it the work starts when the withdrawal period ends, on
 * `workStartsAfterPeriod`), then `Payer {total}`. The page's Conform form (PAY_FORM_ID, whose
 * address fields may sit in the address block): radio buttons and a checkbox that post without
 * JavaScript; with it, the button says what it will do.
 */
export function PaymentBlock({
  form,
  fields,
  total,
  workStartsAfterPeriod,
  processing,
  cardAvailable = true,
  earlyStart = true,
  methodText = CHECKOUT_PAYMENT_METHOD_TEXT,
  giftCard = null,
  paidByGiftCard = false,
  promotion = null,
}: {
  form: FormMetadata<CheckoutPayFields, string[]>;
  fields: Record<'paymentMethod' | 'earlyStartConsent', FieldMetadata<string, CheckoutPayFields, string[]>>;
  total: string;
  /** When the work starts without the request: the end of the withdrawal period. */
  workStartsAfterPeriod: Date;
  processing: boolean;
  /** False while the shop has no gateway that may take cards (a production shop not set up yet). */
  cardAvailable?: boolean;
  /** False for an order with no work to start (a gift card's sale): no request to start early. */
  earlyStart?: boolean;
  /** Each method's words (a gift card's sale has its own: no work waits for the money). */
  methodText?: typeof CHECKOUT_PAYMENT_METHOD_TEXT;
  /** The gift card's field or part (decision 037), inside the form, before the button. */
  giftCard?: React.ReactNode;
  /** The card typed pays the whole order: the button says so. */
  paidByGiftCard?: boolean;
  /** The promotion codes' field (decision 038), inside the form, before the gift card. */
  promotion?: React.ReactNode;
}) {
  const methods = CHECKOUT_PAYMENT_METHODS.filter((value) => cardAvailable || value !== 'card');
  // What was posted, else the loader's default (the card when it can be taken): the button's words.
  const initial = fields.paymentMethod.initialValue;
  const [method, setMethod] = React.useState<CheckoutPaymentMethod>(
    isCheckoutPaymentMethod(initial) ? initial : (methods[0] ?? 'transfer'),
  );
  const disabled = processing;
  return (
    <Card aria-labelledby="payment-title" role="region">
      <CardHeader>
        <SectionTitle id="payment-title" icon={<LockIcon className="size-5 text-primary" aria-hidden="true" />}>
          Paiement
        </SectionTitle>
        {cardAvailable ? (
          <CardDescription>
            Par carte bancaire, vous saisirez votre carte sur la page sécurisée de notre prestataire de paiement. Par
            virement ou par chèque, nous vous indiquons comment payer sur la page suivante et par e-mail.
          </CardDescription>
        ) : (
          <CardDescription>
            {SANDBOX_POLICY_MESSAGES.cardUnavailable} Nous vous indiquons comment payer sur la page suivante et par
            e-mail.
          </CardDescription>
        )}
      </CardHeader>
      <CardContent>
        <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="pay" />
          <RadioGroupField
            meta={fields.paymentMethod}
            legend="Moyen de paiement"
            variant="choices"
            options={methods.map((value) => ({ value, ...methodText[value] }))}
            onValueChange={(value) => {
              if (isCheckoutPaymentMethod(value)) setMethod(value);
            }}
          />
          {earlyStart ? (
            <>
              <CheckboxField
                meta={fields.earlyStartConsent}
                label={EARLY_START_TEXT.consentLabel}
                aria-describedby="early-start-consent-choice"
              />
              <p id="early-start-consent-choice" className="text-muted-foreground text-sm">
                {EARLY_START_TEXT.optional(workStartsAfterPeriod)}
              </p>
            </>
          ) : null}
          {promotion}
          {giftCard}
          <Button type="submit" size="lg" className="h-auto min-h-12 w-full whitespace-normal" disabled={disabled}>
            {processing ? (
              <Spinner
                label={method === 'card' ? CHECKOUT_TEXT.processing : CHECKOUT_TEXT.recording}
                showLabel
                className="text-primary-foreground [&_svg]:text-primary-foreground"
              />
            ) : paidByGiftCard ? (
              `Payer ${total} avec ma carte cadeau`
            ) : (
              payButtonLabel(method, total)
            )}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
