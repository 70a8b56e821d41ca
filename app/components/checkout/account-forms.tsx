import * as React from 'react';
import { Form } from 'react-router';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Spinner } from '~/components/ui/spinner';
import { useHydrated } from '~/components/use-hydrated';
import type { CheckoutAccountValues } from '~/domain/orders/checkout-account';
import { termsVersionNotice } from '~/domain/terms';

/*
 * The « Connexion » and « Inscription » tabs of /checkout (specification 000, sections 2 and 5):
 * plain forms posted to the checkout's own action, which signs in or registers, attaches the order
 * and comes back to this page. Without JavaScript they post all the same; the registration button
 * waits for the terms box only once the page runs (before that the server checks the box).
 */

export interface AccountFormError {
  title: string;
  message: string;
}

const EMPTY: CheckoutAccountValues = { email: '', firstName: '', lastName: '', acceptTerms: false };

function FormError({ id, error }: { id: string; error: AccountFormError | null }) {
  if (!error) return null;
  return (
    <Alert id={id} variant="danger" title={error.title}>
      <p>{error.message}</p>
    </Alert>
  );
}

function TextField({
  id,
  name,
  label,
  type = 'text',
  required = false,
  autoComplete,
  defaultValue,
  describedBy,
}: {
  id: string;
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  required?: boolean;
  autoComplete: string;
  defaultValue?: string;
  describedBy?: string;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>
        {label}
        {required ? (
          <span aria-hidden="true" className="text-destructive">
            {' '}
            *
          </span>
        ) : null}
      </Label>
      <Input
        id={id}
        name={name}
        type={type}
        required={required}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        aria-describedby={describedBy}
      />
    </div>
  );
}

export function CheckoutSignInForm({
  values,
  error,
  pending,
}: {
  values: CheckoutAccountValues | null;
  error: AccountFormError | null;
  pending: boolean;
}) {
  const errorId = 'checkout-sign-in-error';
  return (
    <Form method="post" noValidate className="flex flex-col gap-4" aria-labelledby="checkout-sign-in-title">
      <input type="hidden" name="intent" value="sign-in" />
      <h3 id="checkout-sign-in-title" className="font-semibold">
        Se connecter
      </h3>
      <p className="text-muted-foreground text-sm">
        Votre commande rejoint votre compte : vous la retrouverez dans « Mes commandes ».
      </p>
      <FormError id={errorId} error={error} />
      <TextField
        id="checkout-sign-in-email"
        name="email"
        type="email"
        label="Email"
        required
        autoComplete="email"
        defaultValue={values?.email}
        describedBy={error ? errorId : undefined}
      />
      <TextField
        id="checkout-sign-in-password"
        name="password"
        type="password"
        label="Mot de passe"
        required
        autoComplete="current-password"
        describedBy={error ? errorId : undefined}
      />
      <Button type="submit" className="w-fit" disabled={pending}>
        {pending ? <Spinner label="Connexion…" showLabel className="text-primary-foreground" /> : 'Se connecter'}
      </Button>
    </Form>
  );
}

export function CheckoutRegisterForm({
  values,
  error,
  pending,
}: {
  values: CheckoutAccountValues | null;
  error: AccountFormError | null;
  pending: boolean;
}) {
  const hydrated = useHydrated();
  const initial = values ?? EMPTY;
  const [accepted, setAccepted] = React.useState(initial.acceptTerms);
  const errorId = 'checkout-register-error';
  return (
    <Form method="post" noValidate className="flex flex-col gap-4" aria-labelledby="checkout-register-title">
      <input type="hidden" name="intent" value="register" />
      <h3 id="checkout-register-title" className="font-semibold">
        Créer un compte
      </h3>
      <p className="text-muted-foreground text-sm">
        Les champs marqués d’un astérisque (*) sont obligatoires. Votre commande rejoint votre nouveau compte.
      </p>
      <FormError id={errorId} error={error} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="checkout-register-first-name"
          name="firstName"
          label="Prénom"
          autoComplete="given-name"
          defaultValue={initial.firstName}
        />
        <TextField
          id="checkout-register-last-name"
          name="lastName"
          label="Nom"
          autoComplete="family-name"
          defaultValue={initial.lastName}
        />
      </div>
      <TextField
        id="checkout-register-email"
        name="email"
        type="email"
        label="Email"
        required
        autoComplete="email"
        defaultValue={initial.email}
        describedBy={error ? errorId : undefined}
      />
      <TextField
        id="checkout-register-password"
        name="password"
        type="password"
        label="Mot de passe"
        required
        autoComplete="new-password"
        describedBy={error ? errorId : 'checkout-register-password-hint'}
      />
      <p id="checkout-register-password-hint" className="-mt-3 text-muted-foreground text-sm">
        Au moins 6 caractères, sans mot de passe courant.
      </p>
      <div className="flex items-start gap-3">
        <input
          id="checkout-register-terms"
          name="acceptTerms"
          type="checkbox"
          value="on"
          checked={accepted}
          onChange={(event) => setAccepted(event.target.checked)}
          className="mt-0.5 size-5 shrink-0 cursor-pointer accent-primary"
        />
        <label htmlFor="checkout-register-terms" className="text-sm leading-snug">
          J’accepte les{' '}
          <a
            href="/cgv"
            target="_blank"
            rel="noopener"
            className="font-medium text-primary underline underline-offset-4"
          >
            conditions générales de vente (nouvel onglet)
          </a>
          <span className="block text-muted-foreground text-xs">{termsVersionNotice()}</span>
        </label>
      </div>
      <Button type="submit" className="w-fit" disabled={pending || (hydrated && !accepted)}>
        {pending ? (
          <Spinner label="Création du compte…" showLabel className="text-primary-foreground" />
        ) : (
          'Créer mon compte'
        )}
      </Button>
    </Form>
  );
}
