import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { LockIcon } from 'lucide-react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { AuthPage } from '~/components/auth/auth-page';
import { FormAlert } from '~/components/auth/form-alert';
import { Honeypot, isHoneypotFilled } from '~/components/auth/honeypot';
import { StaffPasswordFields } from '~/components/auth/staff-password-fields';
import { SubmitButton } from '~/components/auth/submit-button';
import { type ServerToast, useServerToast } from '~/components/auth/toast-messages';
import { Field } from '~/components/forms/field';
import { SETUP_MESSAGES, setupAdminSchema } from '~/domain/account/schemas';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { flashCookie } from '~/server/account/cookies.server';
import { isSetupOpen, setupFirstAdmin } from '~/server/account/setup.server';
import { CLIENT_IP_HEADER } from '~/server/auth/auth.server';
import { readFormData } from '~/server/form-data.server';
import { log } from '~/server/log.server';
import type { Route } from './+types/setup-super-admin';

/*
 * /setup-super-admin: the first administrator of a fresh shop. Open only while
 * no administrator exists; afterwards it says that the setup is closed (npm run admin:create and the
 * back office take over). It never deletes accounts or sessions. It asks for the one-time setup code
 * the server printed at start, so that reaching the port first is not enough to claim the shop.
 */

const PASSWORD_FIELDS = ['password', 'confirmPassword'];

export const meta: Route.MetaFunction = () => [
  { title: 'Premier administrateur | Soovenirs' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export async function loader() {
  return { open: await isSetupOpen() };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: setupAdminSchema });
  if (submission.status !== 'success') {
    return { open: true, submission: submission.reply({ hideFields: PASSWORD_FIELDS }), toast: null };
  }
  // Refusals are answered with 200 (a 4xx would be a console error after a client-side submission),
  // except "closed", which is the page's final answer to anyone.
  const refuse = (errors: string[], open = true) =>
    data(
      {
        open,
        submission: submission.reply({ formErrors: errors, hideFields: PASSWORD_FIELDS }),
        toast: {
          kind: 'error',
          title: 'Création impossible',
          description: errors[0] ?? SETUP_MESSAGES.serverError,
          id: crypto.randomUUID(),
        } satisfies ServerToast as ServerToast,
      },
      { status: open ? 200 : 403 },
    );
  if (isHoneypotFilled(formData)) return refuse([SETUP_MESSAGES.serverError]);
  try {
    const client = request.headers.get(CLIENT_IP_HEADER) || 'inconnu';
    const result = await setupFirstAdmin({ ...submission.value, client });
    if (result.ok) {
      log.info({ email: result.email, action: result.action }, 'first administrator set up from /setup-super-admin');
      throw redirect('/login?redirectTo=%2Fadmin', { headers: cookieHeaders(flashCookie('admin-created', '/login')) });
    }
    if (result.reason === 'closed') return refuse(result.errors, false);
    if (result.reason === 'wrong-code') log.warn({ client }, 'wrong setup code at /setup-super-admin');
    return refuse(result.errors);
  } catch (error) {
    if (error instanceof Response) throw error;
    log.error({ err: error }, 'the first administrator could not be created');
    return refuse([SETUP_MESSAGES.serverError]);
  }
}

export default function SetupSuperAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const open = actionData ? actionData.open && loaderData.open : loaderData.open;
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  useServerToast(actionData?.toast);
  const [form, fields] = useForm({
    id: 'setup-admin',
    lastResult: actionData?.submission,
    constraint: getZodConstraint(setupAdminSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: setupAdminSchema }),
  });

  if (!open) {
    return (
      <AuthPage title="Premier administrateur">
        <div className="flex flex-col items-center gap-4 text-center">
          <LockIcon className="size-8 text-sepia" aria-hidden="true" />
          <p role="status">{SETUP_MESSAGES.closed}</p>
          <p className="text-muted-foreground text-sm">
            Les membres suivants de l’équipe sont invités depuis le tableau de bord (
            <Link to="/admin/equipe" className="font-medium text-primary underline-offset-4 hover:underline">
              page Équipe
            </Link>
            ) ou créés avec la commande <code className="rounded bg-muted px-1 py-0.5">npm run admin:create</code>.
          </p>
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Aller à la connexion
          </Link>
        </div>
      </AuthPage>
    );
  }

  return (
    <AuthPage
      title="Premier administrateur"
      subtitle={<p>Créez le compte administrateur de la boutique. Cette page se ferme dès qu’il existe.</p>}
    >
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        <Honeypot />
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field
          meta={fields.setupCode}
          label="Code d’installation"
          hint="Affiché par le serveur à son démarrage, avec « Aucun administrateur pour le moment »."
          autoComplete="off"
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.firstName} label="Prénom" autoComplete="given-name" />
          <Field meta={fields.lastName} label="Nom" autoComplete="family-name" />
        </div>
        <Field meta={fields.email} type="email" label="Email" autoComplete="email" />
        <StaffPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
        <SubmitButton pending={pending} pendingLabel="Création du compte…">
          Créer l’administrateur
        </SubmitButton>
      </Form>
    </AuthPage>
  );
}
