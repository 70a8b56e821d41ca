import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { CreditCardIcon, FlaskConicalIcon, LockIcon } from 'lucide-react';
import { data, Form, redirectDocument, useNavigation } from 'react-router';
import { Field } from '~/components/forms/field';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '~/components/ui/card';
import { company } from '~/domain/company';
import { formatDateTimeFr, formatEurosFromCents } from '~/domain/format';
import { cardFormSchema, formatCardNumber, formatExpiryInput } from '~/domain/payments/card';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import { SANDBOX_TEST_CARDS } from '~/domain/payments/sandbox-cards';
import { SANDBOX_POLICY_MESSAGES } from '~/domain/payments/sandbox-policy';
import { readFormData } from '~/server/form-data.server';
import {
  cancelSandboxSession,
  getSandboxSession,
  paySandboxSession,
  sandboxIsActive,
} from '~/server/payments/sandbox.server';
import type { Route } from './+types/sandbox-payment';

/*
 * /paiement/sandbox/{sessionId}: the payment page of the sandbox gateway (server/payments/
 * sandbox.server.ts), standing where Stripe's or Monetico's hosted page would. The shop's
 * card form (cardholder, number, expiry MM/AA, CVV, all required; Luhn and expiry checked) with
 * Stripe's test cards. Paying makes the sandbox notify the shop server to server (signed), then
 * sends the browser back to the shop; cancelling returns to the checkout with canceled=true.
 * The card number is never stored nor logged: only its last four digits reach the notification.
 */

export function meta() {
  return [{ title: 'Paiement sécurisé (bac à sable) | Soovenirs' }, { name: 'robots', content: 'noindex' }];
}

export async function loader({ params }: Route.LoaderArgs) {
  const session = await getSandboxSession(params.sessionId);
  if (!session) throw data(PAYMENT_MESSAGES.sessionNotFound, { status: 404 });
  // A sandbox that may not take payments here shows no card form and no test card.
  const active = await sandboxIsActive();
  return {
    orderNumber: session.orderNumber,
    amountCents: session.amountCents,
    state: active || session.state !== 'open' ? session.state : ('disabled' as const),
    expiresAt: session.expiresAt.toISOString(),
    returnUrl: session.returnUrl,
    cancelUrl: session.cancelUrl,
  };
}

type ActionResult = { submission: SubmissionResult<string[]>; paymentError: string | null };

export async function action({ request, params }: Route.ActionArgs) {
  const formData = await readFormData(request);
  // Leaving the gateway for the shop loads a new document, as from a real gateway's page.
  if (formData.get('intent') === 'cancel') {
    const cancelled = await cancelSandboxSession(params.sessionId);
    if (!cancelled) throw data(PAYMENT_MESSAGES.sessionNotFound, { status: 404 });
    return redirectDocument(cancelled.redirectTo);
  }
  const submission = parseWithZod(formData, { schema: cardFormSchema });
  // The card fields are never sent back to the browser, even in an error.
  const hideFields = ['cardNumber', 'cvv'];
  if (submission.status !== 'success') {
    return { submission: submission.reply({ hideFields }), paymentError: null } satisfies ActionResult;
  }
  const result = await paySandboxSession(params.sessionId, submission.value);
  if (result.status === 'paid') return redirectDocument(result.redirectTo);
  if (result.status === 'unavailable' && result.redirectTo) return redirectDocument(result.redirectTo);
  // A refused card is an answer, not a server error: status 200, the message in the page.
  return {
    submission: submission.reply({ formErrors: [result.message], hideFields }),
    paymentError: result.message,
  } satisfies ActionResult;
}

export default function SandboxPayment({ loaderData, actionData }: Route.ComponentProps) {
  const { orderNumber, amountCents, state } = loaderData;
  const amount = formatEurosFromCents(amountCents);
  return (
    <section className="mx-auto flex w-full max-w-xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6">
      <div
        className="flex items-start gap-3 rounded-lg border border-warning-tint-border bg-warning-tint p-4 text-warning-tint-foreground text-sm"
        role="note"
      >
        <FlaskConicalIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <p>
          <strong>Mode test (bac à sable).</strong> Aucun paiement réel n’est effectué et aucune carte n’est débitée.
          Utilisez une carte de test ci-dessous.
        </p>
      </div>
      <Card>
        <CardHeader>
          <p className="flex items-center gap-2 font-semibold text-muted-foreground text-sm">
            <LockIcon className="size-4" aria-hidden="true" /> Paiement sécurisé · {company.brand}
          </p>
          <h1 className="font-heading font-semibold text-2xl leading-tight">Payer {amount}</h1>
          <CardDescription>Commande {orderNumber}</CardDescription>
        </CardHeader>
        <CardContent>
          {state === 'open' ? (
            <>
              <CardPaymentForm
                amount={amount}
                lastResult={actionData?.submission}
                paymentError={actionData?.paymentError ?? null}
              />
              <CancelForm />
            </>
          ) : (
            <ClosedSession state={state} returnUrl={loaderData.returnUrl} cancelUrl={loaderData.cancelUrl} />
          )}
        </CardContent>
      </Card>
      {state === 'open' ? <TestCards expiresAt={loaderData.expiresAt} /> : null}
    </section>
  );
}

function ClosedSession({ state, returnUrl, cancelUrl }: { state: string; returnUrl: string; cancelUrl: string }) {
  if (state === 'disabled') {
    return (
      <div className="flex flex-col items-start gap-4">
        <p role="alert">{SANDBOX_POLICY_MESSAGES.sandboxRefused}</p>
        <p>{SANDBOX_POLICY_MESSAGES.cardUnavailable}</p>
        <Button asChild variant="outline">
          <a href={cancelUrl}>Retour à ma commande</a>
        </Button>
      </div>
    );
  }
  if (state === 'paid') {
    return (
      <div className="flex flex-col items-start gap-4">
        <p>Ce paiement a déjà été effectué.</p>
        <Button asChild>
          <a href={returnUrl}>Retour à la boutique</a>
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-4">
      <p>{state === 'expired' ? PAYMENT_MESSAGES.sessionExpired : PAYMENT_MESSAGES.sessionClosed}</p>
      <Button asChild variant="outline">
        <a href={cancelUrl}>Retour à ma commande</a>
      </Button>
    </div>
  );
}

function CardPaymentForm({
  amount,
  lastResult,
  paymentError,
}: {
  amount: string;
  lastResult: SubmissionResult<string[]> | undefined;
  paymentError: string | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const paying = busy && navigation.formData?.get('intent') === 'pay';
  const [form, fields] = useForm<{ cardHolder: string; cardNumber: string; expiryDate: string; cvv: string }>({
    id: 'sandbox-card',
    lastResult,
    // Checked by the server (parseWithZod in the action): a payment page ships no zod.
    shouldValidate: 'onSubmit',
  });
  return (
    <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
      {paymentError ? (
        <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
          <p className="font-semibold text-destructive">{PAYMENT_MESSAGES.errorTitle}</p>
          <p>{paymentError}</p>
        </div>
      ) : null}
      <Field meta={fields.cardHolder} label="Titulaire de la carte" autoComplete="cc-name" />
      <Field
        meta={fields.cardNumber}
        label="Numéro de carte"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        maxLength={23}
        onInput={(event) => reformatAtEnd(event.currentTarget, formatCardNumber)}
        onBlur={(event) => {
          event.currentTarget.value = formatCardNumber(event.currentTarget.value);
        }}
      />
      <div className="grid grid-cols-2 items-start gap-4">
        {/* The numeric keypad has no slash: « 1229 » is accepted, and shown « 12/29 » as typed. */}
        <Field
          meta={fields.expiryDate}
          label="Date d’expiration"
          hint="MM/AA, par exemple 12/29"
          hintBelow
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/AA"
          maxLength={7}
          onInput={(event) => reformatAtEnd(event.currentTarget, formatExpiryInput)}
        />
        <Field
          meta={fields.cvv}
          label="CVV"
          hint="3 ou 4 chiffres au dos de la carte"
          hintBelow
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={7}
        />
      </div>
      <Button type="submit" name="intent" value="pay" size="lg" disabled={busy}>
        <CreditCardIcon aria-hidden="true" />
        {paying ? 'Paiement en cours…' : `Payer ${amount}`}
      </Button>
    </Form>
  );
}

/**
 * Shows the typed value in its printed form while the caret is at the end (typing on): an edit in
 * the middle is left alone, so the caret does not jump.
 */
function reformatAtEnd(input: HTMLInputElement, format: (value: string) => string) {
  if (input.selectionStart !== input.value.length) return;
  const formatted = format(input.value);
  if (formatted !== input.value) input.value = formatted;
}

/** A form of its own: cancelling does not go through the card form's checks. */
function CancelForm() {
  const navigation = useNavigation();
  return (
    <Form method="post" className="mt-2 flex flex-col">
      <Button type="submit" name="intent" value="cancel" variant="ghost" disabled={navigation.state !== 'idle'}>
        Annuler et revenir à la boutique
      </Button>
    </Form>
  );
}

function TestCards({ expiresAt }: { expiresAt: string }) {
  return (
    <aside aria-labelledby="cartes-de-test" className="rounded-lg border border-border bg-muted/40 p-4 text-sm">
      <h2 id="cartes-de-test" className="mb-2 font-semibold">
        Cartes de test
      </h2>
      <ul className="flex flex-col gap-1">
        {SANDBOX_TEST_CARDS.map((card) => (
          <li key={card.number} className="flex flex-wrap justify-between gap-2">
            <span className="font-mono">{formatCardNumber(card.number)}</span>
            <span className="text-muted-foreground">{card.label}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-muted-foreground">
        Date d’expiration future et CVV quelconques. Session valable jusqu’au {formatDateTimeFr(expiresAt)}.
      </p>
    </aside>
  );
}
