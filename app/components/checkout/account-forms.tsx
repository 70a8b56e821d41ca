import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import * as React from 'react';
import { Form } from 'react-router';
import { CheckboxField, Field, RequiredMark } from '~/components/forms/field';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Spinner } from '~/components/ui/spinner';
import { useHydrated } from '~/components/use-hydrated';
import { CHECKOUT_ACCOUNT_MESSAGES } from '~/domain/orders/checkout-account';
import { termsVersionNotice } from '~/domain/terms';

/*
 * The « Connexion » and « Inscription » tabs of /checkout:
 * forms posted to the checkout's own action, which checks them with the schemas of
 * domain/orders/checkout-account.ts, signs in or registers, attaches the order and comes back to
 * this page. A refusal comes back as Conform's lastResult: the message above the fields, what was
 * typed kept (never the password). Without JavaScript they post all the same; the registration
 * button waits for the terms box only once the page runs (before that the server checks the box).
 */

interface RegisterFields {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  acceptTerms: string;
}

interface AccountFormProps {
  lastResult: SubmissionResult<string[]> | undefined;
  pending: boolean;
}

function FormError({ id, title, errors }: { id: string; title: string; errors: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <Alert id={id} variant="danger" title={title}>
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </Alert>
  );
}

function required(label: string) {
  return (
    <>
      {label}
      <RequiredMark />
    </>
  );
}

export function CheckoutSignInForm({ lastResult, pending }: AccountFormProps) {
  const [form, fields] = useForm<{ email: string; password: string }>({
    id: 'checkout-sign-in',
    lastResult,
    shouldValidate: 'onSubmit',
  });
  return (
    <Form
      method="post"
      className="flex flex-col gap-4"
      {...getFormProps(form)}
      aria-labelledby="checkout-sign-in-title"
    >
      <input type="hidden" name="intent" value="sign-in" />
      <h3 id="checkout-sign-in-title" className="font-semibold">
        Se connecter
      </h3>
      <p className="text-muted-foreground text-sm">
        Votre commande rejoint votre compte : vous la retrouverez dans « Mes commandes ».
      </p>
      <FormError id={form.errorId} title={CHECKOUT_ACCOUNT_MESSAGES.signInTitle} errors={form.errors} />
      <Field meta={fields.email} type="email" label={required('Email')} autoComplete="email" aria-required />
      <Field
        meta={fields.password}
        type="password"
        label={required('Mot de passe')}
        autoComplete="current-password"
        aria-required
      />
      <Button type="submit" className="w-fit" disabled={pending}>
        {pending ? <Spinner label="Connexion…" showLabel className="text-primary-foreground" /> : 'Se connecter'}
      </Button>
    </Form>
  );
}

export function CheckoutRegisterForm({ lastResult, pending }: AccountFormProps) {
  const hydrated = useHydrated();
  const [form, fields] = useForm<RegisterFields>({ id: 'checkout-register', lastResult, shouldValidate: 'onSubmit' });
  const [accepted, setAccepted] = React.useState(fields.acceptTerms.initialValue === 'on');
  return (
    <Form
      method="post"
      className="flex flex-col gap-4"
      {...getFormProps(form)}
      aria-labelledby="checkout-register-title"
    >
      <input type="hidden" name="intent" value="register" />
      <h3 id="checkout-register-title" className="font-semibold">
        Créer un compte
      </h3>
      <p className="text-muted-foreground text-sm">
        Les champs marqués d’un astérisque (*) sont obligatoires. Votre commande rejoint votre nouveau compte.
      </p>
      <FormError id={form.errorId} title={CHECKOUT_ACCOUNT_MESSAGES.registerTitle} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field meta={fields.firstName} label="Prénom" autoComplete="given-name" />
        <Field meta={fields.lastName} label="Nom" autoComplete="family-name" />
      </div>
      <Field meta={fields.email} type="email" label={required('Email')} autoComplete="email" aria-required />
      <Field
        meta={fields.password}
        type="password"
        label={required('Mot de passe')}
        hint="Au moins 6 caractères, sans mot de passe courant."
        autoComplete="new-password"
        aria-required
      />
      <CheckboxField
        meta={fields.acceptTerms}
        onChange={(event) => setAccepted(event.currentTarget.checked)}
        label={
          <span>
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
          </span>
        }
      />
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
