import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { MailXIcon } from 'lucide-react';
import { Form, Link, redirect, useNavigation } from 'react-router';
import type { z } from 'zod';
import '~/domain/zod-config';
import { AuthPage } from '~/components/auth/auth-page';
import { FormAlert } from '~/components/auth/form-alert';
import { StaffPasswordFields } from '~/components/auth/staff-password-fields';
import { SubmitButton } from '~/components/auth/submit-button';
import { Field } from '~/components/forms/field';
import { NBSP } from '~/domain/format';
import { STAFF_ROLE_LABELS } from '~/domain/staff/permissions';
import { acceptInvitationSchema } from '~/domain/staff/team-forms';
import { callAuth, cookieHeaders } from '~/server/account/auth-calls.server';
import { acceptInvitation, findOpenInvitation } from '~/server/admin/staff.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/invitation';

/*
 * /invitation/:token (« Équipe », docs/decisions/016): the invited person chooses their name and
 * password; the account is created with the invited address and role, then they are signed in and
 * land on the dashboard. A used, cancelled or expired link says so (same page for all three: the
 * link reveals nothing more).
 */

const PASSWORD_FIELDS = ['password', 'confirmPassword'];
const INVALID_LINK = `Ce lien d’invitation n’est plus valable${NBSP}: il a déjà servi, a été annulé ou a expiré.`;

export const meta: Route.MetaFunction = () => [
  { title: 'Rejoindre l’équipe | Soovenirs' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });

export async function loader({ params }: Route.LoaderArgs) {
  const invitation = await findOpenInvitation(params.token);
  return invitation
    ? { valid: true as const, email: invitation.email, roleLabel: STAFF_ROLE_LABELS[invitation.role] }
    : { valid: false as const };
}

export async function action({ request, params }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: acceptInvitationSchema });
  if (submission.status !== 'success') return { submission: submission.reply({ hideFields: PASSWORD_FIELDS }) };
  const result = await acceptInvitation({ token: params.token, ...submission.value });
  if (!result.ok) {
    const message = result.reason === 'invalid' ? INVALID_LINK : result.message;
    return { submission: submission.reply({ formErrors: [message], hideFields: PASSWORD_FIELDS }) };
  }
  // Signed in at once, through Better Auth's own sign-in (its limits and cookies).
  const signedIn = await callAuth(request, '/sign-in/email', {
    email: result.email,
    password: submission.value.password,
    rememberMe: true,
  });
  throw redirect(signedIn.ok ? '/admin' : '/login?redirectTo=%2Fadmin', {
    headers: cookieHeaders(signedIn.setCookies),
  });
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm<z.input<typeof acceptInvitationSchema>>({
    id: 'accept-invitation',
    lastResult: actionData?.submission,
    shouldRevalidate: 'onInput',
  });
  if (!loaderData.valid) {
    return (
      <AuthPage title="Invitation">
        <div className="flex flex-col items-center gap-4 text-center">
          <MailXIcon className="size-8 text-sepia" aria-hidden="true" />
          <p role="status">{INVALID_LINK}</p>
          <p className="text-muted-foreground text-sm">Demandez une nouvelle invitation à un administrateur.</p>
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Aller à la connexion
          </Link>
        </div>
      </AuthPage>
    );
  }
  return (
    <AuthPage
      title="Rejoindre l’équipe"
      subtitle={
        <p>
          Compte {loaderData.email}, rôle « {loaderData.roleLabel} ». Choisissez votre nom et votre mot de passe.
        </p>
      }
    >
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.firstName} label="Prénom" autoComplete="given-name" />
          <Field meta={fields.lastName} label="Nom" autoComplete="family-name" />
        </div>
        <StaffPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
        <SubmitButton pending={navigation.state === 'submitting'} pendingLabel="Création du compte…">
          Créer mon compte
        </SubmitButton>
      </Form>
    </AuthPage>
  );
}
