import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, redirect, redirectDocument, useNavigation } from 'react-router';
import { AuthPage } from '~/components/auth/auth-page';
import { FormAlert } from '~/components/auth/form-alert';
import { SubmitButton } from '~/components/auth/submit-button';
import { Field } from '~/components/forms/field';
import { destinationAfterSignIn, isDocumentPath, originPath, withRedirectTo } from '~/domain/account/redirects';
import { NBSP } from '~/domain/format';
import { TWO_FACTOR_MESSAGES, twoFactorCodeSchema } from '~/domain/staff/two-factor-forms';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { toRole } from '~/server/auth/session.server';
import { verifyBackupCode, verifyTotp } from '~/server/auth/two-factor.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/two-factor';

/*
 * /connexion/verification: the second step of a sign-in with two-factor on (docs/decisions/016).
 * The password was right; Better Auth's short-lived two-factor cookie names the account, and the
 * app's code opens the session, or one of the backup codes shown when it was turned on (a lost
 * phone). Rate-limited by Better Auth (5 a minute, then its own lock).
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Code de vérification | Soovenirs' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export function loader({ request }: Route.LoaderArgs) {
  return { redirectTo: originPath(new URL(request.url).searchParams.get('redirectTo')) };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: twoFactorCodeSchema });
  if (submission.status !== 'success') return { submission: submission.reply() };
  const redirectTo = originPath(submission.value.redirectTo);
  const { kind, code } = submission.value.code;
  const verified = kind === 'totp' ? await verifyTotp(request, code) : await verifyBackupCode(request, code);
  if (verified.ok) {
    const role = toRole((verified.data as { user?: { role?: string } } | null)?.user?.role);
    const destination = destinationAfterSignIn(role, redirectTo);
    // Back to a document (a PDF, the ZIP): loaded as a document, not as a page of the app.
    throw (isDocumentPath(destination) ? redirectDocument : redirect)(destination, {
      headers: cookieHeaders(verified.setCookies),
    });
  }
  // The two-factor cookie expired (10 minutes) or is missing: back to the password.
  if (verified.code === 'INVALID_TWO_FACTOR_COOKIE') {
    throw redirect(withRedirectTo('/login', redirectTo));
  }
  const message =
    verified.status === 429 ? (verified.message ?? TWO_FACTOR_MESSAGES.codeInvalid) : TWO_FACTOR_MESSAGES.codeInvalid;
  return { submission: submission.reply({ formErrors: [message] }) };
}

export default function TwoFactorStep({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm<{ code: string; redirectTo?: string }>({
    id: 'two-factor',
    lastResult: actionData?.submission,
  });
  return (
    <AuthPage
      title="Code de vérification"
      subtitle={
        <p>
          Saisissez le code à 6 chiffres affiché par votre application d’authentification. Téléphone perdu{NBSP}?
          Saisissez l’un de vos codes de secours.
        </p>
      }
      footer={
        <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
          Revenir à la connexion
        </Link>
      }
    >
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        {loaderData.redirectTo ? <input type="hidden" name="redirectTo" value={loaderData.redirectTo} /> : null}
        <Field meta={fields.code} label="Code de vérification" autoComplete="one-time-code" autoFocus />
        <SubmitButton pending={navigation.state === 'submitting'} pendingLabel="Vérification…">
          Vérifier
        </SubmitButton>
      </Form>
    </AuthPage>
  );
}
