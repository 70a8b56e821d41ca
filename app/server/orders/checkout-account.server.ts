import {
  CHECKOUT_ACCOUNT_MESSAGES,
  type CheckoutRegistration,
  type CheckoutSignIn,
} from '~/domain/orders/checkout-account';
import { callAuth } from '../account/auth-calls.server';
import { type ClaimHow, claimGuestOrder } from './claim-order.server';

/*
 * « Connexion » and « Inscription » inside /checkout (decision 015): the same Better Auth calls as
 * /login and /register (through its HTTP handler, with its rate limits; registration sends
 * `acceptTerms`, so the terms' version and date are recorded as on /register), then the guest order this browser holds is attached to the account. The caller has
 * checked the form (domain/orders/checkout-account.ts) and redirects to the checkout with the
 * session's Set-Cookie headers, or shows the French refusal.
 */

export type CheckoutAccountResult =
  | { ok: true; setCookies: string[] }
  | { ok: false; message: string; setCookies: string[] };

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

export async function signInAtCheckout(
  request: Request,
  orderId: string,
  form: CheckoutSignIn,
): Promise<CheckoutAccountResult> {
  const answer = await callAuth<{ user?: { id?: unknown } }>(request, '/sign-in/email', {
    email: form.email,
    password: form.password,
    rememberMe: true,
  });
  if (!answer.ok) {
    return {
      ok: false,
      message: answer.message ?? CHECKOUT_ACCOUNT_MESSAGES.invalidCredentials,
      setCookies: answer.setCookies,
    };
  }
  return attach(request, orderId, answer, 'sign-in');
}

export async function registerAtCheckout(
  request: Request,
  orderId: string,
  form: CheckoutRegistration,
): Promise<CheckoutAccountResult> {
  const { email, password, firstName, lastName } = form;
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
      message: actionable && answer.message ? answer.message : 'Veuillez réessayer.',
      setCookies: answer.setCookies,
    };
  }
  return attach(request, orderId, answer, 'register');
}
