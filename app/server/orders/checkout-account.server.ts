import {
  CHECKOUT_ACCOUNT_MESSAGES,
  checkoutRegistrationSchema,
  checkoutSignInSchema,
  readAccountForm,
} from '~/domain/orders/checkout-account';
import { callAuth } from '../account/auth-calls.server';
import { type ClaimHow, claimGuestOrder } from './claim-order.server';

/*
 * « Connexion » and « Inscription » inside /checkout (issue 17, point 1; specification 000, section
 * 2): the same Better Auth calls as /login and /register (through its HTTP handler, with its rate
 * limits; registration sends `acceptTerms`, so the terms' version and date are recorded as on
 * /register), then the guest order this browser holds is attached to the account. The caller
 * redirects to the checkout with the session's Set-Cookie headers.
 */

export type CheckoutAccountResult =
  | { ok: true; setCookies: string[] }
  | { ok: false; title: string; message: string; setCookies: string[] };

type Form = Record<string, unknown>;

async function attach(
  request: Request,
  orderId: string,
  answer: { data: { user?: { id?: unknown } } | null; setCookies: string[] },
  how: ClaimHow,
): Promise<CheckoutAccountResult> {
  const userId = answer.data?.user?.id;
  // The session is open either way; the order joins the account when this browser holds its token.
  if (typeof userId === 'string') await claimGuestOrder(request, orderId, userId, how);
  return { ok: true, setCookies: answer.setCookies };
}

export async function signInAtCheckout(request: Request, orderId: string, form: Form): Promise<CheckoutAccountResult> {
  const title = CHECKOUT_ACCOUNT_MESSAGES.signInTitle;
  const read = readAccountForm(checkoutSignInSchema, form);
  if (!read.ok) return { ok: false, title, message: read.error, setCookies: [] };
  const answer = await callAuth<{ user?: { id?: unknown } }>(request, '/sign-in/email', {
    email: read.value.email,
    password: read.value.password,
    rememberMe: true,
  });
  if (!answer.ok) {
    return {
      ok: false,
      title,
      message: answer.message ?? CHECKOUT_ACCOUNT_MESSAGES.invalidCredentials,
      setCookies: answer.setCookies,
    };
  }
  return attach(request, orderId, answer, 'sign-in');
}

export async function registerAtCheckout(
  request: Request,
  orderId: string,
  form: Form,
): Promise<CheckoutAccountResult> {
  const title = CHECKOUT_ACCOUNT_MESSAGES.registerTitle;
  const read = readAccountForm(checkoutRegistrationSchema, form);
  if (!read.ok) return { ok: false, title, message: read.error, setCookies: [] };
  const { email, password, firstName, lastName } = read.value;
  const answer = await callAuth<{ user?: { id?: unknown } }>(request, '/sign-up/email', {
    email,
    password,
    firstName,
    lastName,
    acceptTerms: true,
  });
  if (!answer.ok) {
    // A reason the customer can act on (password, address, limit) is shown; anything else is generic.
    const actionable = answer.code !== undefined && answer.status < 500 && !/^FAILED_TO_CREATE/.test(answer.code);
    return {
      ok: false,
      title,
      message: actionable && answer.message ? answer.message : 'Veuillez réessayer.',
      setCookies: answer.setCookies,
    };
  }
  return attach(request, orderId, answer, 'register');
}
