import { type SubmissionResult, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { ArrowLeftIcon, ShoppingCartIcon } from 'lucide-react';
import { data, isRouteErrorResponse, Link, redirect, redirectDocument, useNavigation } from 'react-router';
import { OrderAddresses } from '~/components/account/order-addresses';
import { CheckoutRegisterForm, CheckoutSignInForm } from '~/components/checkout/account-forms';
import { CheckoutContactBlock, PAY_FORM_ID } from '~/components/checkout/address-fields';
import {
  AccountBlock,
  CanceledBanner,
  CHECKOUT_TEXT,
  CheckoutAlert,
  ClosedOrderNotice,
  DeliveryBlock,
  OrderRecap,
  PaymentBlock,
} from '~/components/checkout/checkout-blocks';
import {
  GIFT_CARD_AMOUNT_FIELD,
  GIFT_CARD_APPLY_FIELD,
  GIFT_CARD_CODE_FIELD,
  GiftCardCodeField,
  GiftCardPaymentLine,
  type GiftCardPreviewView,
} from '~/components/checkout/gift-card-payment';
import { GiftCardSaleBlock } from '~/components/checkout/gift-card-sale';
import { CheckoutInvoicingBlock } from '~/components/checkout/invoicing-fields';
import {
  PROMOTION_APPLY_FIELD,
  PROMOTION_CODES_FIELD,
  PromotionCodeField,
  type PromotionPreviewView,
} from '~/components/checkout/promotion-codes';
import { RetentionPromise } from '~/components/files/retention-notice';
import { Button } from '~/components/ui/button';
import { formatDateTimeFr, formatEurosFromCents } from '~/domain/format';
import { businessFormValues } from '~/domain/invoices/business-buyer';
import type { BusinessBuyer } from '~/domain/invoices/snapshot';
import { wasPaid } from '~/domain/order-status';
import type { AddressFormValues } from '~/domain/orders/address';
import {
  type AccountTab,
  accountTabOf,
  checkoutRegistrationSchema,
  checkoutSignInSchema,
} from '~/domain/orders/checkout-account';
import {
  CHECKOUT_DETAILS_MESSAGES,
  type CheckoutContactMode,
  type CheckoutPayFields,
  checkoutFormAsTyped,
  checkoutPaySchema,
} from '~/domain/orders/checkout-details';
import { closedOrderMessage, isClosedUnpaid } from '~/domain/orders/closed-order';
import { workNotBefore } from '~/domain/orders/early-start';
import { LIFECYCLE_MESSAGES, shipsSomethingPhysical } from '~/domain/orders/lifecycle';
import { gatewayReturnPath } from '~/domain/payments/confirmation';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import { type CheckoutPaymentMethod, GIFT_CARD_PAYMENT_METHOD_TEXT } from '~/domain/payments/offline';
import { pickPriceFields } from '~/domain/pricing/pricing';
import { MAX_PROMOTION_CODE_LENGTH, normalisePromotionCode } from '~/domain/vouchers/promotions';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { loginRedirectPath } from '~/server/auth/session.server';
import { retentionDays } from '~/server/files/retention-settings.server';
import { readFormData } from '~/server/form-data.server';
import { loadBusinessProfile } from '~/server/invoices/business-buyers.server';
import { log } from '~/server/log.server';
import {
  deniedOrderAnswer,
  getOrderForViewer,
  orderAccessCookieName,
  type ViewableOrder,
} from '~/server/orders/access.server';
import {
  type CheckoutAccountResult,
  registerAtCheckout,
  signInAtCheckout,
} from '~/server/orders/checkout-account.server';
import { checkoutDetailsRules, insuranceOffer } from '~/server/orders/checkout-details.server';
import { claimGuestOrder } from '~/server/orders/claim-order.server';
import { asksAddress as ordersAddress } from '~/server/orders/guest-info.server';
import { readCookie } from '~/server/orders/order-response.server';
import { CheckoutError, checkoutPath, createCheckout } from '~/server/payments/checkout.server';
import { checkoutRateLimited } from '~/server/payments/checkout-api.server';
import { confirmCheckout } from '~/server/payments/offline.server';
import { getCardAvailability } from '~/server/payments/sandbox-mode.server';
import {
  GIFT_CARD_CHECKOUT_MESSAGES,
  giftCardPreviewSentence,
  previewGiftCardPayment,
  requestedGiftCardCents,
} from '~/server/vouchers/gift-card-spending.server';
import { giftCardSaleOf } from '~/server/vouchers/gift-card-views.server';
import { giftCardPartOf } from '~/server/vouchers/order-gift-card.server';
import { promotionPreview } from '~/server/vouchers/promotion-preview.server';
import type { Route } from './+types/checkout';

/*
 * /checkout?orderId=: the order recap at its real prices,
 * the delivery, for a guest the account block, ONE « Vos coordonnées » block (a guest's e-mail
 * address, and the delivery address when something travels, asked once), the customer's optional
 * request to start before the end of the withdrawal period, and `Payer {total}`. That one press
 * checks everything, writes it in the transaction that places the order (a refusal writes nothing
 * and shows the form again as typed, the French message under each field), then opens a session
 * with the configured gateway (createCheckout) and sends the browser there (decision 024).
 * A guest may sign in or register in the account block's tabs: the order then joins the account.
 * Only the order's owner or the guest holding its access cookie sees it; a signed-out visitor is
 * sent to /login (deniedOrderAnswer), anyone else gets the 404 of an unknown order. A paid order
 * goes to /confirmation; a cancelled or withdrawn unpaid one says so and asks for nothing. Nothing
 * here ever marks an order paid: only the gateway's verified notification does. A gift card's sale
 * (decision 037) shows its card instead of the delivery and the files' retention, and has no work
 * to start early.
 */

const MESSAGES = {
  noOrder: 'Aucune commande trouvée',
  notFound: 'Commande introuvable',
  serverError: 'Erreur serveur',
} as const;

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  {
    title:
      loaded && 'order' in loaded && loaded.order
        ? `Paiement de la commande ${loaded.order.number} | Soovenirs`
        : 'Paiement | Soovenirs',
  },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

function confirmationPath(orderId: string): string {
  return `/confirmation?${new URLSearchParams({ orderId })}`;
}

function checkoutTabPath(orderId: string, tab: AccountTab): string {
  const params = new URLSearchParams({ orderId });
  if (tab !== 'invite') params.set('compte', tab);
  return `/checkout?${params}`;
}

/** Who may pay here: the owner and the guest holding the cookie (not an administrator). */
async function payableOrder(request: Request, orderId: string): Promise<ViewableOrder | null> {
  const found = await getOrderForViewer(request, orderId);
  if (!found || found.viewer === 'admin') return null;
  return found;
}

/** The order, or the answer to someone without access: /login when signed out, else 404. */
async function payableOrRefuse(request: Request, orderId: string): Promise<ViewableOrder> {
  const found = orderId ? await payableOrder(request, orderId) : null;
  if (found) return found;
  if (orderId && (await deniedOrderAnswer(request, orderId)) === 'login') throw redirect(loginRedirectPath(request));
  throw data(MESSAGES.notFound, { status: 404 });
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const orderId = url.searchParams.get('orderId')?.trim() ?? '';
  if (!orderId) return { state: 'none' as const };
  let found = await payableOrRefuse(request, orderId);
  // Signed in while holding a guest order's token: the order joins the account.
  if (found.viewer === 'guest' && found.user) {
    const claimed = await claimGuestOrder(request, orderId, found.user.id, 'session');
    if (claimed === 'attached') found = await payableOrRefuse(request, orderId);
  }
  const { order, viewer, user } = found;
  if (wasPaid(order.paymentStatus)) {
    throw redirect(confirmationPath(order.id));
  }
  const closedMessage = closedOrderMessage(order);
  if (closedMessage) return { state: 'closed' as const, number: order.number, message: closedMessage };
  const card = await getCardAvailability();
  // Something travels and the draft is not placed yet: the address block (and the insurance).
  const asksAddress = ordersAddress(order);
  // A gift card's sale (decision 037): the card instead of the delivery, the files and the work.
  const giftCard = await giftCardSaleOf(order.id);
  // What a gift card already pays of it (decision 037): the rest is what is asked.
  const paidByCard = await giftCardPartOf(order.id);
  // A draft asks who is invoiced (docs/invoicing.md): the business buyer, prefilled from the
  // profile, and with nothing physical the billing address.
  const placed = order.placedAt !== null;
  const businessDefaults = !placed && viewer === 'owner' && user ? await loadBusinessProfile(user.id) : null;
  return {
    asksInvoicing: !placed,
    asksBilling: asksBillingAddress(order),
    paidByCard: paidByCard ? { maskedCode: paidByCard.maskedCode, cents: paidByCard.cents } : null,
    asksAddress,
    contactMode: contactModeOf(order, viewer),
    insurance: asksAddress ? await insuranceOffer(order) : null,
    // How long the files stay online, said before paying.
    retentionDays: giftCard ? null : await retentionDays(),
    giftCard,
    payForm: payFormDefaults(
      order.customer,
      order.earlyStartConsentAt !== null,
      card.available ? 'card' : 'transfer',
      order.addresses.delivery,
      businessDefaults,
    ),
    addresses: order.addresses,
    state: 'shown' as const,
    cardAvailable: card.available,
    canceled: url.searchParams.get('canceled') === 'true',
    // The code the configurator announced (`&code=NOEL20`): it only fills the field, the customer
    // still presses « Appliquer » or « Payer », where it is checked.
    promotionTyped: normalisePromotionCode(url.searchParams.get('code') ?? '').slice(0, MAX_PROMOTION_CODE_LENGTH),
    accountTab: accountTabOf(url.searchParams.get('compte')),
    viewer,
    signedIn: user !== null,
    order: {
      id: order.id,
      number: order.number,
      createdAt: order.createdAt,
      status: order.status,
      deliveryMethod: order.deliveryMethod,
      sendMethod: order.sendMethod,
      returnOriginals: order.returnOriginals,
      items: order.items,
      prices: pickPriceFields(order),
      placed: order.placedAt !== null,
      // Without the early-start request: the end of the withdrawal period of an order of today's.
      workStartsAfterPeriod: workNotBefore({ createdAt: order.createdAt, earlyStartConsentAt: null }) as Date,
    },
  };
}

/** A draft with nothing physical: the checkout asks its billing address (a physical one's is its delivery's). */
function asksBillingAddress(order: ViewableOrder['order']): boolean {
  return order.placedAt === null && !shipsSomethingPhysical(order);
}

/** Whose contact the pay form carries (see CheckoutContactMode). */
function contactModeOf(order: ViewableOrder['order'], viewer: ViewableOrder['viewer']): CheckoutContactMode {
  if (viewer !== 'guest') return 'none';
  return shipsSomethingPhysical(order) ? 'email' : 'full';
}

/**
 * The payment form as first shown: the consent already given, the profile's address or what the
 * guest gave before (checkboxes as a form posts them: « on » or nothing).
 */
function payFormDefaults(
  customer: ViewableOrder['order']['customer'],
  consentGiven: boolean,
  paymentMethod: CheckoutPaymentMethod,
  /** An address already on the draft: a relative's, typed when ordering extra copies (decision 029). */
  frozen: ViewableOrder['order']['addresses']['delivery'] = null,
  /** The business identity the customer's profile keeps. */
  business: BusinessBuyer | null = null,
) {
  const delivery: AddressFormValues = frozen
    ? {
        firstName: frozen.firstName,
        lastName: frozen.lastName,
        company: frozen.company ?? '',
        line1: frozen.line1,
        line2: frozen.line2 ?? '',
        postalCode: frozen.postalCode,
        city: frozen.city,
        country: frozen.country,
        phone: frozen.phone ?? '',
      }
    : {
        firstName: customer.firstName,
        lastName: customer.lastName,
        company: '',
        line1: customer.street ?? '',
        line2: '',
        postalCode: customer.postalCode ?? '',
        city: customer.city ?? '',
        country: customer.country ?? 'FR',
        phone: customer.phone ?? '',
      };
  const contact = {
    email: customer.email ?? '',
    firstName: customer.firstName,
    lastName: customer.lastName,
    phone: customer.phone ?? '',
    address: customer.street ?? '',
    postalCode: customer.postalCode ?? '',
    city: customer.city ?? '',
  };
  // The billing fields (the one address asked when nothing travels, else behind « Adresse de
  // facturation différente ») start from the profile's, or what a guest gave before.
  const billing = {
    firstName: customer.firstName,
    lastName: customer.lastName,
    line1: customer.street ?? '',
    postalCode: customer.postalCode ?? '',
    city: customer.city ?? '',
    country: customer.country ?? 'FR',
  };
  return {
    contact,
    delivery,
    billing,
    isBusiness: business ? 'on' : undefined,
    business: businessFormValues(business),
    paymentMethod,
    earlyStartConsent: consentGiven ? 'on' : undefined,
  };
}

type Submission = SubmissionResult<string[]>;

/** Every form's answer: Conform's lastResult (French messages under the fields, what was typed). */
type ActionResult =
  | {
      intent: 'pay';
      submission: Submission /** The alert's heading: the form's fields, or the payment. */;
      heading?: string;
    }
  | { intent: 'sign-in' | 'register'; submission: Submission }
  /** « Appliquer » a gift card: what it would pay, or why not; every field typed comes back. */
  | { intent: 'gift-card'; submission: Submission; preview: GiftCardPreviewView | null; error: string | null }
  /** « Appliquer » promotion codes: what they would take off, or why not. */
  | { intent: 'promotion'; submission: Submission; preview: PromotionPreviewView | null; error: string | null };

/** The password never comes back to the browser. */
const HIDDEN_FIELDS = ['password'];

interface Replying {
  reply(options?: { formErrors?: string[]; hideFields?: string[] }): Submission;
}

/**
 * Signing in or registering at checkout: back to the checkout with the session once done (the
 * order joined the account); a refusal is the form's answer (status 200), with what was typed
 * except the password.
 */
async function accountAnswer(
  orderId: string,
  intent: 'sign-in' | 'register',
  submission: Replying,
  attempt: (() => Promise<CheckoutAccountResult>) | null,
) {
  if (!attempt)
    return data({ intent, submission: submission.reply({ hideFields: HIDDEN_FIELDS }) } satisfies ActionResult);
  const result = await attempt();
  if (result.ok) throw redirect(checkoutPath(orderId), { headers: cookieHeaders(result.setCookies) });
  return data(
    {
      intent,
      submission: submission.reply({ formErrors: [result.message], hideFields: HIDDEN_FIELDS }),
    } satisfies ActionResult,
    { headers: cookieHeaders(result.setCookies) },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const orderId = new URL(request.url).searchParams.get('orderId')?.trim() ?? '';
  const found = await payableOrRefuse(request, orderId);
  const formData = await readFormData(request);
  const intent = formData.get('intent');

  if (intent === 'sign-in' || intent === 'register') return accountAction(request, formData, intent, found);
  if (intent !== 'pay') throw data('Requête invalide', { status: 400 });
  if (formData.get(GIFT_CARD_APPLY_FIELD) === 'apply') return giftCardPreviewAction(request, formData, found);
  if (formData.get(PROMOTION_APPLY_FIELD) === 'apply') return promotionPreviewAction(request, formData, found);
  return payAction(request, formData, found);
}

/**
 * « Appliquer »: what the typed card would pay of this order. Nothing is taken (the card is spent
 * at « Payer »); a wrong code counts against the client like on /carte-cadeau/utiliser.
 */
async function giftCardPreviewAction(request: Request, formData: FormData, { order, user }: ViewableOrder) {
  if (wasPaid(order.paymentStatus) || isClosedUnpaid(order)) throw redirect(confirmationPath(order.id));
  // The form comes back as typed, without judging its other fields yet.
  const typedBack = { ...parseWithZod(formData, { schema: checkoutFormAsTyped }).reply(), error: undefined };
  const answer = (preview: GiftCardPreviewView | null, error: string | null, status = 200) =>
    data({ intent: 'gift-card', submission: typedBack, preview, error } satisfies ActionResult, { status });
  const typed = String(formData.get(GIFT_CARD_CODE_FIELD) ?? '').slice(0, 64);
  if (typed.trim() === '') return answer(null, GIFT_CARD_CHECKOUT_MESSAGES.codeRequired);
  const part = await giftCardPartOf(order.id);
  if (part) return answer(null, GIFT_CARD_CHECKOUT_MESSAGES.oneCard, 409);
  if (await giftCardSaleOf(order.id)) return answer(null, GIFT_CARD_CHECKOUT_MESSAGES.ownSale, 422);
  const requested = requestedGiftCardCents(String(formData.get(GIFT_CARD_AMOUNT_FIELD) ?? ''), order.totalPriceCents);
  if (requested === null) return answer(null, GIFT_CARD_CHECKOUT_MESSAGES.amountInvalid(order.totalPriceCents));
  const result = await previewGiftCardPayment(request, typed, user?.id ?? null, requested);
  if (!result.ok) return answer(null, result.message, result.limited ? 429 : 200);
  const { preview } = result;
  // What is left to pay: the order's total less what the card pays.
  const fromOtherCents = order.totalPriceCents - preview.fromCardCents;
  return answer(
    {
      maskedCode: preview.maskedCode,
      fromCardCents: preview.fromCardCents,
      fromOtherCents,
      sentence: giftCardPreviewSentence({ fromCardCents: preview.fromCardCents, fromOtherCents }),
    },
    null,
  );
}

/**
 * « Appliquer » promotion codes: what they would take off this draft. Nothing is written (the
 * codes are taken at « Payer »); an unknown code counts against the client.
 */
async function promotionPreviewAction(request: Request, formData: FormData, { order, user }: ViewableOrder) {
  if (wasPaid(order.paymentStatus) || isClosedUnpaid(order)) throw redirect(confirmationPath(order.id));
  const typedBack = { ...parseWithZod(formData, { schema: checkoutFormAsTyped }).reply(), error: undefined };
  const result = await promotionPreview({
    request,
    typed: String(formData.get(PROMOTION_CODES_FIELD) ?? ''),
    orderId: order.id,
    placed: order.placedAt !== null,
    userId: user?.id ?? null,
    items: order.items,
    totalCents: order.totalPriceCents,
  });
  return data({ intent: 'promotion', submission: typedBack, ...result } satisfies ActionResult, {
    status: result.status,
  });
}

/** The sign-in and register forms of the checkout's account block. */
async function accountAction(
  request: Request,
  formData: FormData,
  intent: 'sign-in' | 'register',
  { order, viewer, user }: ViewableOrder,
) {
  // Already signed in (another tab): the loader attaches the order; nothing to post.
  if (viewer !== 'guest' || user) throw redirect(checkoutPath(order.id));
  // disableAutoCoercion: an empty field stays '', which the schemas' messages expect.
  if (intent === 'sign-in') {
    const submission = parseWithZod(formData, { schema: checkoutSignInSchema, disableAutoCoercion: true });
    return accountAnswer(
      order.id,
      intent,
      submission,
      submission.status === 'success' ? () => signInAtCheckout(request, order.id, submission.value) : null,
    );
  }
  const submission = parseWithZod(formData, { schema: checkoutRegistrationSchema, disableAutoCoercion: true });
  return accountAnswer(
    order.id,
    intent,
    submission,
    submission.status === 'success' ? () => registerAtCheckout(request, order.id, submission.value) : null,
  );
}

/** The payment form: the details and contact it carries, then the placing and the gateway. */
async function payAction(request: Request, formData: FormData, { order, viewer, user }: ViewableOrder) {
  if (wasPaid(order.paymentStatus) || isClosedUnpaid(order)) {
    throw redirect(confirmationPath(order.id));
  }
  // Something travels and the draft is not placed yet: the form carries the address block.
  const addressAsked = ordersAddress(order);
  const submission = parseWithZod(formData, {
    schema: checkoutPaySchema(
      addressAsked ? await checkoutDetailsRules(order) : null,
      contactModeOf(order, viewer),
      order.customer.email,
      order.placedAt === null ? { asksBilling: asksBillingAddress(order) } : null,
    ),
  });
  const refuse: Refuse = (message, status = 200, heading = PAYMENT_MESSAGES.errorTitle) =>
    data(
      {
        intent: 'pay',
        submission: submission.reply(message ? { formErrors: [message] } : undefined),
        heading,
      } satisfies ActionResult,
      { status },
    );
  if (submission.status !== 'success') {
    // Nothing is placed: the form comes back with what was typed and its French messages, field by
    // field, under a heading that says so (not « Erreur de paiement »: nothing was paid).
    const fieldsRefused = Object.keys(submission.error ?? {}).some((name) => name !== 'paymentMethod');
    return fieldsRefused
      ? refuse(CHECKOUT_DETAILS_MESSAGES.invalid, 200, CHECKOUT_DETAILS_MESSAGES.invalidTitle)
      : refuse(null);
  }
  const { method, earlyStart, details, contact, invoicing } = submission.value;
  if (await checkoutRateLimited(request)) {
    return data(
      {
        intent: 'pay',
        submission: submission.reply({ formErrors: [PAYMENT_MESSAGES.tooManyRequests] }),
        heading: PAYMENT_MESSAGES.errorTitle,
      } satisfies ActionResult,
      { status: 429, headers: { 'Retry-After': '60' } },
    );
  }
  const actor = viewer === 'owner' && user ? user.id : 'customer';
  try {
    // One transaction: the guest's contact, the addresses and insurance, the early-start request
    // (the customer's choice; without it the work waits), the profile's address, and the placing
    // of the draft (or the change of how a placed order is paid). A refusal rolls it all back.
    const placed = await confirmCheckout({
      orderId: order.id,
      method,
      actor,
      accessToken: viewer === 'guest' ? readCookie(request, orderAccessCookieName(order.id)) : null,
      details,
      contact,
      earlyStart,
      saveToProfileOf: details?.saveToProfile && viewer === 'owner' && user ? user.id : null,
      invoicing: invoicing ? { value: invoicing, profileOf: viewer === 'owner' && user ? user.id : null } : null,
      giftCard: {
        typed: String(formData.get(GIFT_CARD_CODE_FIELD) ?? '').slice(0, 64),
        amount: String(formData.get(GIFT_CARD_AMOUNT_FIELD) ?? '').slice(0, 32),
        request,
        userId: user?.id ?? null,
      },
      promotion: {
        typed: String(formData.get(PROMOTION_CODES_FIELD) ?? '').slice(0, 128),
        request,
        userId: user?.id ?? null,
      },
    });
    // Paid by the gift card, or by transfer or cheque: nothing to open at a gateway.
    if (placed.paidByGiftCard || method !== 'card') return redirect(confirmationPath(order.id));
    const session = await createCheckout({
      orderId: order.id,
      returnUrl: gatewayReturnPath(order.id),
      customerEmail: contact?.email ?? order.customer.email,
    });
    // A new document, as the gateway's page is another site (Stripe, Monetico) or behaves like one.
    return redirectDocument(session.url);
  } catch (error) {
    return payFailure(error, order.id, refuse);
  }
}

/** The payment form's refusal: a message above the form, its HTTP status and the alert's heading. */
type Refuse = (message: string | null, status?: number, heading?: string) => ReturnType<typeof data<ActionResult>>;

/**
 * A failed placing or gateway call. A refusal of the rules (CheckoutError) is shown as it is, under
 * the address heading when it is about the address; « already paid » (another tab) goes to the
 * confirmation; anything else is logged and answered with a generic 500.
 */
function payFailure(error: unknown, orderId: string, refuse: Refuse) {
  if (error instanceof CheckoutError) {
    if (error.status === 409 && error.message === PAYMENT_MESSAGES.alreadyPaid) {
      throw redirect(confirmationPath(orderId));
    }
    const aboutTheAddress = error.message === LIFECYCLE_MESSAGES.noAddress;
    return refuse(
      error.message,
      error.status,
      aboutTheAddress ? CHECKOUT_DETAILS_MESSAGES.invalidTitle : PAYMENT_MESSAGES.errorTitle,
    );
  }
  log.error({ err: error, orderId }, 'checkout: payment session failed');
  return refuse(PAYMENT_MESSAGES.processingError(MESSAGES.serverError), 500);
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state === 'none') return <NoOrder />;
  if (loaderData.state === 'closed') return <ClosedOrder number={loaderData.number} message={loaderData.message} />;
  return <CheckoutPage page={loaderData} result={actionData} />;
}

/** The form's fields as posted last (every answer of the payment form brings them back). */
function postedPayForm(result: Route.ComponentProps['actionData']) {
  return result?.intent === 'gift-card' || result?.intent === 'promotion' || result?.intent === 'pay'
    ? result.submission.initialValue
    : null;
}

/** The gift card's code and amount as posted last (they come back with the form). */
function typedGiftCard(result: Route.ComponentProps['actionData']): { code: string; amount: string } {
  const posted = postedPayForm(result);
  return {
    code: String(posted?.[GIFT_CARD_CODE_FIELD] ?? ''),
    amount: String(posted?.[GIFT_CARD_AMOUNT_FIELD] ?? ''),
  };
}

type ShownPage = Extract<Route.ComponentProps['loaderData'], { state: 'shown' }>;

function CheckoutPage({ page, result }: { page: ShownPage; result: Route.ComponentProps['actionData'] }) {
  const navigation = useNavigation();
  const { order, viewer, signedIn, canceled, accountTab } = page;
  const submitting = navigation.state !== 'idle' ? navigation.formData?.get('intent') : null;
  const lastResult = (intent: ActionResult['intent']) => (result?.intent === intent ? result.submission : undefined);
  const preview = result?.intent === 'gift-card' ? result.preview : null;
  const promotion = result?.intent === 'promotion' ? result.preview : null;
  // What is asked in money: the total (less the codes typed) less the card's part taken, or the part
  // the typed card would pay.
  const dueCents =
    (promotion?.totalCents ?? order.prices.totalPriceCents) - (page.paidByCard?.cents ?? preview?.fromCardCents ?? 0);
  const total = formatEurosFromCents(dueCents);
  // The payment form, whose fields sit in the contact block and in the payment block.
  const [payForm, payFields] = useForm<CheckoutPayFields>({
    id: PAY_FORM_ID,
    lastResult:
      result?.intent === 'gift-card' || result?.intent === 'promotion' ? result.submission : lastResult('pay'),
    defaultValue: page.payForm,
    shouldValidate: 'onSubmit',
  });
  const alertHeading = result?.intent === 'pay' && result.heading ? result.heading : PAYMENT_MESSAGES.errorTitle;
  const contactShown = page.asksAddress || page.contactMode !== 'none';

  return (
    <section
      aria-labelledby="checkout-title"
      className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6"
    >
      <div className="flex flex-col gap-2">
        <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Paiement</p>
        <h1 id="checkout-title" className="text-title">
          Finaliser ma commande
        </h1>
        <p className="text-muted-foreground">
          Commande {order.number}, passée le {formatDateTimeFr(order.createdAt)}
        </p>
      </div>

      {canceled ? <CanceledBanner /> : null}
      {payForm.errors?.length ? (
        <CheckoutAlert id={payForm.errorId} title={alertHeading} message={payForm.errors.join(' ')} />
      ) : null}

      <div className="grid gap-8 lg:grid-cols-[3fr_2fr]">
        <div className="flex flex-col gap-8">
          <OrderRecap items={order.items} prices={order.prices} />
          {page.paidByCard ? (
            <GiftCardPaymentLine part={page.paidByCard} totalCents={order.prices.totalPriceCents} />
          ) : null}
          {page.giftCard ? (
            <GiftCardSaleBlock sale={page.giftCard} />
          ) : (
            <>
              <DeliveryBlock
                deliveryMethod={order.deliveryMethod}
                sendMethod={order.sendMethod}
                returnOriginals={order.returnOriginals}
              />
              {page.retentionDays === null ? null : <RetentionPromise days={page.retentionDays} />}
            </>
          )}
          {viewer === 'guest' && !signedIn ? (
            <AccountBlock current={accountTab} tabHref={(tab) => checkoutTabPath(order.id, tab)}>
              {accountTab === 'connexion' ? (
                <CheckoutSignInForm lastResult={lastResult('sign-in')} pending={submitting === 'sign-in'} />
              ) : accountTab === 'inscription' ? (
                <CheckoutRegisterForm lastResult={lastResult('register')} pending={submitting === 'register'} />
              ) : (
                <p className="text-muted-foreground text-sm">{CHECKOUT_TEXT.asGuest}</p>
              )}
            </AccountBlock>
          ) : null}
          {contactShown ? (
            <CheckoutContactBlock
              fields={payFields}
              contactMode={page.contactMode}
              asksAddress={page.asksAddress}
              signedIn={viewer === 'owner'}
              insurance={page.insurance}
              namesInBilling={page.asksBilling}
            />
          ) : null}
          {page.asksInvoicing ? <CheckoutInvoicingBlock fields={payFields} asksBilling={page.asksBilling} /> : null}
          {page.asksAddress ? null : (
            <OrderAddresses delivery={page.addresses.delivery} billing={page.addresses.billing} />
          )}
        </div>
        <div className="flex flex-col gap-8">
          <PaymentBlock
            form={payForm}
            fields={payFields}
            total={total}
            workStartsAfterPeriod={order.workStartsAfterPeriod}
            // Nothing to start early: a card is issued when paid and withdrawable while unused.
            earlyStart={page.giftCard === null}
            methodText={page.giftCard ? GIFT_CARD_PAYMENT_METHOD_TEXT : undefined}
            cardAvailable={page.cardAvailable}
            processing={submitting === 'pay'}
            paidByGiftCard={preview !== null && preview.fromOtherCents === 0}
            promotion={
              // Codes are taken when the order is placed: a placed order shows its discount in the recap.
              page.giftCard || order.placed ? null : (
                <PromotionCodeField
                  typed={
                    postedPayForm(result)
                      ? String(postedPayForm(result)?.[PROMOTION_CODES_FIELD] ?? '')
                      : page.promotionTyped
                  }
                  preview={promotion}
                  error={result?.intent === 'promotion' ? result.error : null}
                />
              )
            }
            giftCard={
              // A card's sale is not paid by a card; an order takes one card.
              page.giftCard || page.paidByCard ? null : (
                <GiftCardCodeField
                  typed={typedGiftCard(result)}
                  preview={preview}
                  error={result?.intent === 'gift-card' ? result.error : null}
                />
              )
            }
          />
        </div>
      </div>
    </section>
  );
}

function ClosedOrder({ number, message }: { number: string; message: string }) {
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col gap-5 px-4 py-16 sm:px-6">
      <h1 className="text-title">Commande {number}</h1>
      <ClosedOrderNotice message={message} />
    </section>
  );
}

function NoOrder() {
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start justify-center gap-5 px-4 py-16 sm:px-6">
      <ShoppingCartIcon className="size-10 text-primary" aria-hidden="true" />
      <h1 className="text-title">{MESSAGES.noOrder}</h1>
      <p className="text-lg text-muted-foreground">
        Estimez votre commande dans le configurateur, puis passez au paiement.
      </p>
      <Button asChild>
        <Link to="/configurateur">
          <ArrowLeftIcon aria-hidden="true" />
          Retour au configurateur
        </Link>
      </Button>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start justify-center gap-5 px-4 py-16 sm:px-6">
      <p className="font-semibold text-sepia text-sm uppercase tracking-wider">
        {isRouteErrorResponse(error) ? `Erreur ${error.status}` : 'Erreur'}
      </p>
      <h1 className="text-title">{notFound ? MESSAGES.notFound : MESSAGES.serverError}</h1>
      <p className="text-lg text-muted-foreground">
        {notFound
          ? 'Cette commande n’existe pas ou n’est pas accessible depuis ce navigateur.'
          : 'Une erreur est survenue. Veuillez réessayer.'}
      </p>
      <div className="flex flex-wrap gap-3">
        <Button asChild>
          <Link to="/configurateur">Retour au configurateur</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/profile">Mon compte</Link>
        </Button>
      </div>
    </section>
  );
}
