import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { ShieldAlertIcon } from 'lucide-react';
import {
  data,
  Form,
  Link,
  redirect,
  redirectDocument,
  type ShouldRevalidateFunctionArgs,
  useNavigation,
} from 'react-router';
import { AuthPage } from '~/components/auth/auth-page';
import { FormAlert } from '~/components/auth/form-alert';
import { Honeypot, isHoneypotFilled } from '~/components/auth/honeypot';
import { SignedIn } from '~/components/auth/signed-in';
import { SubmitButton } from '~/components/auth/submit-button';
import { type ServerToast, ServerToastFallback, useServerToast } from '~/components/auth/toast-messages';
import { Field } from '~/components/forms/field';
import {
  ADMIN_ZONE_NOTICE,
  destinationAfterSignIn,
  destinationWhenSignedIn,
  isDocumentPath,
  LOGIN_SUBTITLES,
  loginOrigin,
  originPath,
  withRedirectTo,
} from '~/domain/account/redirects';
import { forgotPasswordSchema, magicLinkSchema, newPasswordSchema, signInSchema } from '~/domain/account/schemas';
import { AUTH_MESSAGES, authErrorMessage, authErrorTitle } from '~/domain/auth-errors';
import { callAuth, cookieHeaders } from '~/server/account/auth-calls.server';
import {
  consumeFlash,
  expiredCookie,
  flashCookie,
  RECOVERY_COOKIE,
  RECOVERY_MAX_AGE,
  readCookie,
  recoveryCookie,
} from '~/server/account/cookies.server';
import { resetTokenOwner } from '~/server/account/users.server';
import { EMAIL_VERIFIED_CALLBACK } from '~/server/auth/auth.server';
import { getUser, toRole } from '~/server/auth/session.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/login';

/*
 * /login: sign-in, forgot password, new password (after
 * the e-mailed link) and the request of a magic link, as real forms handled by this action. The
 * e-mailed links land here too:
 *  - a reset link: Better Auth checks the token then redirects to /login?type=recovery&token=…; the
 *    token moves into an HttpOnly cookie and the address becomes /login?mode=new-password;
 *  - a magic link: Better Auth opens the session then redirects to /login?type=magiclink; the page
 *    says "Connexion réussie" and leads on by role after 1 s.
 */

export type LoginMode = 'login' | 'forgot-password' | 'new-password' | 'magic-link';
const MODES: readonly LoginMode[] = ['login', 'forgot-password', 'new-password', 'magic-link'];

function modeOf(value: string | null): LoginMode {
  return MODES.includes(value as LoginMode) ? (value as LoginMode) : 'login';
}

const PAGE = '/login';
const TWO_FACTOR_PAGE = '/connexion/verification';
const PASSWORD_FIELDS = ['password', 'confirmPassword'];

export const meta: Route.MetaFunction = () => [
  { title: 'Connexion | Soovenirs' },
  { name: 'description', content: 'Connectez-vous à votre compte Soovenirs pour suivre vos commandes et factures.' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = originPath(url.searchParams.get('redirectTo'));
  const type = url.searchParams.get('type');
  const error = url.searchParams.get('error');

  // The address-confirmation link (Better Auth has checked it): a toast on /profile, or here.
  if (type === 'email-verified') {
    const signedIn = await getUser(request);
    const page = signedIn ? '/profile' : PAGE;
    throw redirect(page, {
      headers: cookieHeaders(flashCookie(error ? 'email-verification-invalid' : 'email-verified', page)),
    });
  }

  if (type === 'recovery') {
    const token = url.searchParams.get('token');
    const owner = !error && token ? await resetTokenOwner(token) : null;
    if (!owner || !token) {
      throw redirect(withRedirectTo(PAGE, redirectTo, { mode: 'forgot-password' }), {
        headers: cookieHeaders(flashCookie('recovery-invalid', PAGE), expiredCookie(RECOVERY_COOKIE)),
      });
    }
    const remaining = (owner.expiresAt.getTime() - Date.now()) / 1000;
    throw redirect(withRedirectTo(PAGE, redirectTo, { mode: 'new-password' }), {
      headers: cookieHeaders(
        recoveryCookie(token, Math.min(RECOVERY_MAX_AGE, remaining)),
        flashCookie('recovery-validated', PAGE),
      ),
    });
  }

  const user = await getUser(request);

  if (type === 'magiclink') {
    if (error || !user) {
      const invalid = authErrorMessage(error ?? 'INVALID_TOKEN', 'magic-link') === AUTH_MESSAGES.magicLinkInvalid;
      throw redirect(withRedirectTo(PAGE, redirectTo, { mode: 'magic-link' }), {
        headers: cookieHeaders(flashCookie(invalid ? 'magic-link-invalid' : 'magic-link-failed', PAGE)),
      });
    }
    return {
      state: 'signed-in' as const,
      destination: destinationAfterSignIn(user.role, redirectTo),
      toast: { key: 'magic-link-success', id: crypto.randomUUID() } satisfies ServerToast as ServerToast,
      delayMs: 1000,
    };
  }

  const mode = modeOf(url.searchParams.get('mode'));
  if (mode === 'new-password') {
    const token = readCookie(request, RECOVERY_COOKIE);
    if (!token || !(await resetTokenOwner(token))) {
      throw redirect(withRedirectTo(PAGE, redirectTo, { mode: 'forgot-password' }), {
        headers: cookieHeaders(flashCookie('recovery-invalid', PAGE), expiredCookie(RECOVERY_COOKIE)),
      });
    }
  } else if (user) {
    // Already signed in (and not changing a password): admin to /admin, others to a checkout origin or /.
    throw redirect(destinationWhenSignedIn(user.role, redirectTo));
  }

  const { flash, setCookie } = consumeFlash(request, PAGE);
  return data(
    {
      state: 'form' as const,
      mode,
      origin: loginOrigin(redirectTo),
      redirectTo,
      flash: flash as ServerToast | null,
    },
    { headers: cookieHeaders(setCookie) },
  );
}

/*
 * Refusals are answered with status 200: they are the form's normal outcomes, and a 4xx answer to
 * the browser's fetch of a client-side submission shows up as an error in its console.
 */
function failure(intent: LoginMode, submission: SubmissionResult<string[]>, title: string, message: string) {
  return {
    state: 'failed' as const,
    intent,
    submission,
    toast: { kind: 'error', title, description: message, id: crypto.randomUUID() } satisfies ServerToast as ServerToast,
  };
}

function invalid(intent: LoginMode, submission: SubmissionResult<string[]>) {
  return { state: 'invalid' as const, intent, submission, toast: null };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readFormData(request);
  if (formData.get('intent') === 'resend-verification') return resendVerification(request);
  const intent = modeOf(String(formData.get('intent') ?? ''));
  const redirectTo = originPath(formData.get('redirectTo'));
  // One function per form of the page; the new password is the mode left when no other matched.
  if (intent === 'login') return signInWithPassword(request, formData, redirectTo);
  if (intent === 'forgot-password') return requestPasswordReset(request, formData, redirectTo);
  if (intent === 'magic-link') return requestMagicLink(request, formData, redirectTo);
  return setNewPassword(request, formData, redirectTo);
}

/** « Renvoyer l’e-mail de confirmation » (the notice on /profile), for the signed-in account only. */
async function resendVerification(request: Request): Promise<never> {
  const signedIn = await getUser(request);
  if (!signedIn) throw redirect(PAGE);
  if (!signedIn.emailVerified) {
    const sent = await callAuth(request, '/send-verification-email', {
      email: signedIn.email,
      callbackURL: EMAIL_VERIFIED_CALLBACK,
    });
    if (!sent.ok) {
      throw redirect('/profile', { headers: cookieHeaders(flashCookie('email-verification-invalid', '/profile')) });
    }
  }
  throw redirect('/profile', { headers: cookieHeaders(flashCookie('email-verification-sent', '/profile')) });
}

async function signInWithPassword(request: Request, formData: FormData, redirectTo: string | null) {
  const intent = 'login';
  const submission = parseWithZod(formData, { schema: signInSchema });
  if (submission.status !== 'success') return invalid(intent, submission.reply({ hideFields: PASSWORD_FIELDS }));
  const result = await callAuth<{ user?: { role?: string }; twoFactorRedirect?: boolean }>(request, '/sign-in/email', {
    email: submission.value.email,
    password: submission.value.password,
    rememberMe: true,
  });
  if (!result.ok) {
    const message = result.message ?? AUTH_MESSAGES.invalidCredentials;
    return failure(
      intent,
      submission.reply({ formErrors: [message], hideFields: PASSWORD_FIELDS }),
      authErrorTitle('sign-in'),
      message,
    );
  }
  // Two-factor sign-in on (docs/decisions/016): no session yet, the second step asks for the code.
  if (result.data?.twoFactorRedirect) {
    throw redirect(withRedirectTo(TWO_FACTOR_PAGE, redirectTo), { headers: cookieHeaders(result.setCookies) });
  }
  const role = toRole(result.data?.user?.role);
  const destination = destinationAfterSignIn(role, redirectTo);
  // Back to a document (a PDF, the ZIP): loaded as a document, not as a page of the app.
  throw (isDocumentPath(destination) ? redirectDocument : redirect)(destination, {
    headers: cookieHeaders(result.setCookies),
  });
}

async function requestPasswordReset(request: Request, formData: FormData, redirectTo: string | null) {
  const intent = 'forgot-password';
  const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
  if (submission.status !== 'success') return invalid(intent, submission.reply());
  // A robot gets the answer a person gets, and nothing is sent.
  if (!isHoneypotFilled(formData)) {
    const result = await callAuth(request, '/request-password-reset', {
      email: submission.value.email,
      redirectTo: '/login?type=recovery',
    });
    if (!result.ok) {
      const message = result.message ?? AUTH_MESSAGES.resetEmailFailed;
      return failure(intent, submission.reply({ formErrors: [message] }), authErrorTitle('forgot-password'), message);
    }
  }
  // The same answer whether the address has an account or not.
  throw redirect(withRedirectTo(PAGE, redirectTo), {
    headers: cookieHeaders(flashCookie('recovery-email-sent', PAGE)),
  });
}

async function requestMagicLink(request: Request, formData: FormData, redirectTo: string | null) {
  const intent = 'magic-link';
  const submission = parseWithZod(formData, { schema: magicLinkSchema });
  if (submission.status !== 'success') return invalid(intent, submission.reply());
  // A robot gets the answer a person gets, and nothing is sent.
  if (!isHoneypotFilled(formData)) {
    const landing = withRedirectTo(PAGE, redirectTo, { type: 'magiclink' });
    const result = await callAuth(request, '/sign-in/magic-link', {
      email: submission.value.email,
      callbackURL: landing,
      errorCallbackURL: landing,
    });
    if (!result.ok) {
      const message = result.message ?? AUTH_MESSAGES.magicLinkFailed;
      return failure(intent, submission.reply({ formErrors: [message] }), authErrorTitle('magic-link'), message);
    }
  }
  throw redirect(withRedirectTo(PAGE, redirectTo), { headers: cookieHeaders(flashCookie('magic-link-sent', PAGE)) });
}

/** Back to « mot de passe oublié », the recovery cookie dropped: the e-mailed link is gone or used. */
function recoveryInvalid(redirectTo: string | null) {
  return redirect(withRedirectTo(PAGE, redirectTo, { mode: 'forgot-password' }), {
    headers: cookieHeaders(flashCookie('recovery-invalid', PAGE), expiredCookie(RECOVERY_COOKIE)),
  });
}

/** New password, with the token of the e-mailed link kept in the recovery cookie. */
async function setNewPassword(request: Request, formData: FormData, redirectTo: string | null) {
  const intent = 'new-password';
  const token = readCookie(request, RECOVERY_COOKIE);
  const owner = token ? await resetTokenOwner(token) : null;
  if (!owner || !token) throw recoveryInvalid(redirectTo);
  const submission = parseWithZod(formData, { schema: newPasswordSchema });
  if (submission.status !== 'success') return invalid(intent, submission.reply({ hideFields: PASSWORD_FIELDS }));
  const reset = await callAuth(request, '/reset-password', { token, newPassword: submission.value.password });
  if (!reset.ok) {
    if (reset.code === 'INVALID_TOKEN') throw recoveryInvalid(redirectTo);
    const message = reset.message ?? AUTH_MESSAGES.passwordUpdateFailed;
    return failure(
      intent,
      submission.reply({ formErrors: [message], hideFields: PASSWORD_FIELDS }),
      authErrorTitle('reset-password'),
      message,
    );
  }
  // The reset ended every session of the account; sign the owner in with the new password.
  const signIn = await callAuth<{ twoFactorRedirect?: boolean }>(request, '/sign-in/email', {
    email: owner.email,
    password: submission.value.password,
  });
  if (signIn.ok && signIn.data?.twoFactorRedirect) {
    throw redirect(withRedirectTo(TWO_FACTOR_PAGE, redirectTo), {
      headers: cookieHeaders(signIn.setCookies, expiredCookie(RECOVERY_COOKIE)),
    });
  }
  if (!signIn.ok) {
    throw redirect(withRedirectTo(PAGE, redirectTo), {
      headers: cookieHeaders(flashCookie('password-updated', PAGE), expiredCookie(RECOVERY_COOKIE)),
    });
  }
  return data(
    {
      state: 'signed-in' as const,
      destination: destinationAfterSignIn(owner.role, redirectTo),
      toast: { key: 'password-updated', id: crypto.randomUUID() } satisfies ServerToast as ServerToast,
      delayMs: 500,
    },
    { headers: cookieHeaders(signIn.setCookies, expiredCookie(RECOVERY_COOKIE)) },
  );
}

/** After a sign-in the page must not reload its data: the loader would redirect before the toast. */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (actionResult && typeof actionResult === 'object' && actionResult.state === 'signed-in') return false;
  return defaultShouldRevalidate;
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData?.state === 'signed-in') {
    return <SignedIn destination={actionData.destination} toast={actionData.toast} delayMs={actionData.delayMs} />;
  }
  if (loaderData.state === 'signed-in') {
    return <SignedIn destination={loaderData.destination} toast={loaderData.toast} delayMs={loaderData.delayMs} />;
  }
  return <LoginPage page={loaderData} result={actionData ?? null} />;
}

type PageData = Extract<Route.ComponentProps['loaderData'], { state: 'form' }>;
type ActionResult = Exclude<Route.ComponentProps['actionData'], undefined | { state: 'signed-in' }>;

const SUBTITLES: Record<Exclude<LoginMode, 'login'>, string> = {
  'forgot-password': 'Saisissez votre email pour recevoir un lien de récupération',
  'new-password': 'Choisissez votre nouveau mot de passe',
  'magic-link': 'Recevez par email un lien pour vous connecter sans mot de passe',
};

function LoginPage({ page, result }: { page: PageData; result: ActionResult | null }) {
  const { mode, origin, redirectTo, flash } = page;
  useServerToast(flash);
  useServerToast(result?.toast);
  const lastResult = result && result.intent === mode ? result.submission : undefined;

  const subtitle =
    mode === 'login' ? (
      <div className="flex flex-col gap-3">
        <p>{LOGIN_SUBTITLES[origin]}</p>
        {origin === 'admin' ? (
          <p className="flex items-start gap-2 rounded-md border border-warning-tint-border bg-warning-tint px-3 py-2.5 text-left text-warning-tint-foreground text-sm">
            <ShieldAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {ADMIN_ZONE_NOTICE}
          </p>
        ) : null}
      </div>
    ) : (
      <p>{SUBTITLES[mode]}</p>
    );

  const backToLogin = (
    <Link to={withRedirectTo(PAGE, redirectTo)} className="font-medium text-primary underline-offset-4 hover:underline">
      Retour à la connexion
    </Link>
  );

  return (
    <AuthPage
      title="Connexion"
      subtitle={subtitle}
      footer={
        mode === 'login' ? (
          <p>
            Pas encore de compte ?{' '}
            <Link
              to={withRedirectTo('/register', redirectTo)}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Créer un compte
            </Link>
          </p>
        ) : (
          backToLogin
        )
      }
    >
      <ServerToastFallback value={flash} />
      {mode === 'login' ? <SignInForm redirectTo={redirectTo} lastResult={lastResult} /> : null}
      {mode === 'forgot-password' ? <ForgotPasswordForm redirectTo={redirectTo} lastResult={lastResult} /> : null}
      {mode === 'new-password' ? <NewPasswordForm redirectTo={redirectTo} lastResult={lastResult} /> : null}
      {mode === 'magic-link' ? <MagicLinkForm redirectTo={redirectTo} lastResult={lastResult} /> : null}
    </AuthPage>
  );
}

interface FormProps {
  redirectTo: string | null;
  lastResult: SubmissionResult<string[]> | undefined;
}

function usePending(intent: LoginMode): boolean {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
}

function Hidden({ intent, redirectTo }: { intent: LoginMode; redirectTo: string | null }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
    </>
  );
}

function SignInForm({ redirectTo, lastResult }: FormProps) {
  const pending = usePending('login');
  const [form, fields] = useForm({
    id: 'sign-in',
    lastResult,
    constraint: getZodConstraint(signInSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signInSchema }),
  });
  return (
    <Form
      method="post"
      className="flex flex-col gap-4"
      {...getFormProps(form)}
      aria-describedby={form.errors ? form.errorId : undefined}
    >
      <Hidden intent="login" redirectTo={redirectTo} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field meta={fields.email} type="email" label="Email" autoComplete="email" />
      <div className="flex flex-col gap-1.5">
        <Field meta={fields.password} type="password" label="Mot de passe" autoComplete="current-password" />
        <Link
          to={withRedirectTo(PAGE, redirectTo, { mode: 'forgot-password' })}
          className="self-end text-primary text-sm underline-offset-4 hover:underline"
        >
          Mot de passe oublié ?
        </Link>
      </div>
      <SubmitButton pending={pending}>Se connecter</SubmitButton>
      <Link
        to={withRedirectTo(PAGE, redirectTo, { mode: 'magic-link' })}
        className="text-center text-primary text-sm underline-offset-4 hover:underline"
      >
        Recevoir un lien de connexion par email
      </Link>
    </Form>
  );
}

function ForgotPasswordForm({ redirectTo, lastResult }: FormProps) {
  const pending = usePending('forgot-password');
  const [form, fields] = useForm({
    id: 'forgot-password',
    lastResult,
    constraint: getZodConstraint(forgotPasswordSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  });
  return (
    <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
      <Hidden intent="forgot-password" redirectTo={redirectTo} />
      <Honeypot />
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field meta={fields.email} type="email" label="Email" autoComplete="email" />
      <SubmitButton pending={pending}>Envoyer le lien de récupération</SubmitButton>
    </Form>
  );
}

function MagicLinkForm({ redirectTo, lastResult }: FormProps) {
  const pending = usePending('magic-link');
  const [form, fields] = useForm({
    id: 'magic-link',
    lastResult,
    constraint: getZodConstraint(magicLinkSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: magicLinkSchema }),
  });
  return (
    <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
      <Hidden intent="magic-link" redirectTo={redirectTo} />
      <Honeypot />
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field meta={fields.email} type="email" label="Email" autoComplete="email" />
      <SubmitButton pending={pending}>Recevoir le lien de connexion</SubmitButton>
    </Form>
  );
}

function NewPasswordForm({ redirectTo, lastResult }: FormProps) {
  const pending = usePending('new-password');
  const [form, fields] = useForm({
    id: 'new-password',
    lastResult,
    constraint: getZodConstraint(newPasswordSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newPasswordSchema }),
  });
  return (
    <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
      <Hidden intent="new-password" redirectTo={redirectTo} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field
        meta={fields.password}
        type="password"
        label="Nouveau mot de passe"
        hint="Au moins 6 caractères, sans mot de passe courant."
        autoComplete="new-password"
      />
      <Field
        meta={fields.confirmPassword}
        type="password"
        label="Confirmer le mot de passe"
        autoComplete="new-password"
      />
      <SubmitButton pending={pending}>Mettre à jour le mot de passe</SubmitButton>
    </Form>
  );
}
