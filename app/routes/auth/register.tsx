import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { useState } from 'react';
import { data, Form, Link, redirect, type ShouldRevalidateFunctionArgs, useNavigation } from 'react-router';
import { AuthPage } from '~/components/auth/auth-page';
import { FormAlert } from '~/components/auth/form-alert';
import { Honeypot, isHoneypotFilled } from '~/components/auth/honeypot';
import { SignedIn } from '~/components/auth/signed-in';
import { SubmitButton } from '~/components/auth/submit-button';
import { TermsDialog } from '~/components/auth/terms-dialog';
import { type ServerToast, useServerToast } from '~/components/auth/toast-messages';
import { Field } from '~/components/forms/field';
import {
  destinationAfterSignIn,
  originPath,
  registerDestinationWhenSignedIn,
  withRedirectTo,
} from '~/domain/account/redirects';
import { registerSchema } from '~/domain/account/schemas';
import { authErrorTitle } from '~/domain/auth-errors';
import { termsVersionNotice } from '~/domain/terms';
import { callAuth, cookieHeaders } from '~/server/account/auth-calls.server';
import { getUser } from '~/server/auth/session.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/register';

/*
 * /register: names, e-mail, password twice and the general
 * terms of sale, whose link opens them in a dialog ("J'ai lu et j'accepte" ticks the box). Better
 * Auth creates the account and signs it in (the welcome e-mail is queued by its user hook); the page
 * says "Inscription réussie" and leads to /profile, or back to the checkout it came from.
 */

/** The page's message when the sign-up fails for a reason the customer cannot act on. */
export const REGISTER_FAILED = "Erreur lors de l'inscription. Veuillez réessayer.";
const PASSWORD_FIELDS = ['password', 'confirmPassword'];

export const meta: Route.MetaFunction = () => [
  { title: 'Créer un compte | Soovenirs' },
  {
    name: 'description',
    content: 'Créez votre compte Soovenirs pour suivre vos commandes de numérisation et retrouver vos factures.',
  },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = originPath(url.searchParams.get('redirectTo'));
  const user = await getUser(request);
  if (user) throw redirect(registerDestinationWhenSignedIn(redirectTo));
  return { redirectTo };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const redirectTo = originPath(formData.get('redirectTo'));
  const submission = parseWithZod(formData, { schema: registerSchema });
  if (submission.status !== 'success') {
    return { state: 'invalid' as const, submission: submission.reply({ hideFields: PASSWORD_FIELDS }), toast: null };
  }
  // A refusal is the form's normal outcome: status 200 (a 4xx would be a console error in the browser).
  const fail = (message: string, pageMessage: string) => ({
    state: 'failed' as const,
    submission: submission.reply({ formErrors: [pageMessage], hideFields: PASSWORD_FIELDS }),
    toast: {
      kind: 'error',
      title: authErrorTitle('sign-up'),
      description: message,
      id: crypto.randomUUID(),
    } satisfies ServerToast as ServerToast,
  });
  if (isHoneypotFilled(formData)) return fail(REGISTER_FAILED, REGISTER_FAILED);

  const { email, password, firstName = '', lastName = '' } = submission.value;
  // The form's box was ticked (registerSchema): Better Auth records the version and the date.
  const result = await callAuth(request, '/sign-up/email', { email, password, firstName, lastName, acceptTerms: true });
  if (!result.ok) {
    const message = result.message ?? REGISTER_FAILED;
    // A reason the customer can act on (password, address, limit) is shown as it is.
    const actionable = result.code !== undefined && result.status < 500 && !/^FAILED_TO_CREATE/.test(result.code);
    return fail(message, actionable ? message : REGISTER_FAILED);
  }
  return data(
    {
      state: 'signed-in' as const,
      destination: destinationAfterSignIn('customer', redirectTo),
      toast: { key: 'registered', id: crypto.randomUUID() } satisfies ServerToast as ServerToast,
      delayMs: 500,
    },
    { headers: cookieHeaders(result.setCookies) },
  );
}

export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (actionResult && typeof actionResult === 'object' && actionResult.state === 'signed-in') return false;
  return defaultShouldRevalidate;
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData?.state === 'signed-in') {
    return <SignedIn destination={actionData.destination} toast={actionData.toast} delayMs={actionData.delayMs} />;
  }
  return <RegisterForm redirectTo={loaderData.redirectTo} result={actionData ?? null} />;
}

type Result = Exclude<Route.ComponentProps['actionData'], undefined | { state: 'signed-in' }>;

function RegisterForm({ redirectTo, result }: { redirectTo: string | null; result: Result | null }) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const [termsOpen, setTermsOpen] = useState(false);
  const [accepted, setAccepted] = useState(() => result?.submission?.initialValue?.acceptTerms === 'on');
  useServerToast(result?.toast);
  const [form, fields] = useForm({
    id: 'register',
    lastResult: result?.submission,
    constraint: getZodConstraint(registerSchema),
    // On submit, then as the customer types: a message appearing on blur would move the button
    // under the pointer between press and release.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: registerSchema }),
  });
  const terms = fields.acceptTerms;
  const termsInvalid = Boolean(terms.errors?.length);

  return (
    <AuthPage
      title="Créer un compte"
      subtitle={<p>Suivez vos commandes et retrouvez vos factures dans votre espace client</p>}
      footer={
        <p>
          Déjà un compte ?{' '}
          <Link
            to={withRedirectTo('/login', redirectTo)}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            Se connecter
          </Link>
        </p>
      }
    >
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Honeypot />
        <FormAlert id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.firstName} label="Prénom" autoComplete="given-name" />
          <Field meta={fields.lastName} label="Nom" autoComplete="family-name" />
        </div>
        <Field meta={fields.email} type="email" label="Email" autoComplete="email" />
        <Field
          meta={fields.password}
          type="password"
          label="Mot de passe"
          hint="Au moins 6 caractères, sans mot de passe courant."
          autoComplete="new-password"
        />
        <Field
          meta={fields.confirmPassword}
          type="password"
          label="Confirmer le mot de passe"
          autoComplete="new-password"
        />
        <div className="flex flex-col gap-1.5">
          <div className="flex items-start gap-3">
            <input
              id={terms.id}
              name={terms.name}
              type="checkbox"
              value="on"
              checked={accepted}
              onChange={(event) => setAccepted(event.target.checked)}
              aria-invalid={termsInvalid || undefined}
              aria-describedby={termsInvalid ? terms.errorId : undefined}
              className="mt-0.5 size-5 shrink-0 cursor-pointer rounded-sm border border-input accent-primary"
            />
            <label htmlFor={terms.id} className="text-sm leading-snug">
              J’accepte les{' '}
              <a
                href="/cgv"
                onClick={(event) => {
                  event.preventDefault();
                  setTermsOpen(true);
                }}
                className="font-medium text-primary underline underline-offset-4"
              >
                conditions générales de vente
              </a>
            </label>
          </div>
          <p className="pl-8 text-muted-foreground text-xs">{termsVersionNotice()}</p>
          {termsInvalid ? (
            <p id={terms.errorId} className="text-destructive text-sm">
              {terms.errors?.[0]}
            </p>
          ) : null}
        </div>
        <SubmitButton pending={pending}>Créer mon compte</SubmitButton>
      </Form>
      <TermsDialog
        open={termsOpen}
        onOpenChange={setTermsOpen}
        onAccept={() => {
          setAccepted(true);
          setTermsOpen(false);
          // The box is now ticked: let Conform drop its "terms required" error.
          window.requestAnimationFrame(() => {
            const box = document.getElementById(terms.id);
            box?.dispatchEvent(new Event('input', { bubbles: true }));
            box?.focus();
          });
        }}
      />
    </AuthPage>
  );
}
