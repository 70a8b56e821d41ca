import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect } from 'react-router';
import { quoteEmailSchema } from '~/domain/pricing/quote-email';
import type { SessionUser } from '../auth/session.server';
import { readFormData } from '../form-data.server';
import { InvalidSelectionError, PriceListChangedError } from '../orders/create-order.server';
import { redirectToCheckout, requestHoldsOrderToken } from '../orders/order-response.server';
import { emailQuote, orderQuote, type QuoteView } from './quotes.server';

/*
 * The actions of a quote's page (/mes-devis/<id> and /devis/<token>, after the route has checked
 * who may open it): order it in one click, or have it sent by e-mail.
 */

export const QUOTE_PRICES_CHANGED =
  'Les tarifs viennent d’être mis à jour\u202F: vérifiez le nouveau montant avant de commander.';
export const QUOTE_NOT_ORDERABLE =
  'Ce devis ne correspond plus à nos prestations actuelles\u202F: refaites une estimation dans le configurateur.';

export const QUOTE_EMAIL_MESSAGES = {
  queued: (to: string) => `Devis envoyé à ${to}.`,
  'already-sent': (to: string) => `Ce devis a déjà été envoyé à ${to}.`,
  'limit-reached': () => 'Ce devis a déjà été envoyé au nombre maximal d’adresses.',
} as const;

interface QuoteActionOptions {
  user: SessionUser | null;
  quoteUrl: string;
}

export async function handleQuoteAction(request: Request, quote: QuoteView, options: QuoteActionOptions) {
  const formData = await readFormData(request);
  const intent = formData.get('intent');
  if (intent === 'order') return orderTheQuote(request, formData, quote, options.user);
  if (intent === 'email') return emailTheQuote(formData, quote, options);
  return data({ intent: null, message: 'Action inconnue.' }, { status: 400 });
}

/**
 * Whether ordering again may open the order this quote already made: its owner's, or the guest's
 * who holds its token. Anyone else gets a new order.
 */
async function mayOpenExistingOrder(request: Request, quote: QuoteView, user: SessionUser | null): Promise<boolean> {
  if (!quote.order) return false;
  if (user) return quote.order.userId === user.id;
  return requestHoldsOrderToken(request, quote.order.id);
}

/** « Commander »: to the checkout, unless the prices shown are no longer the price list's. */
async function orderTheQuote(request: Request, formData: FormData, quote: QuoteView, user: SessionUser | null) {
  const shown = Number(formData.get('priceListVersion'));
  const expected = Number.isInteger(shown) && shown > 0 ? shown : null;
  const canOpenExistingOrder = await mayOpenExistingOrder(request, quote, user);
  try {
    const result = await orderQuote(quote, {
      user,
      expectedPriceListVersion: expected,
      canOpenExistingOrder,
    });
    if (result.kind === 'existing') return redirect(`/checkout?${new URLSearchParams({ orderId: result.orderId })}`);
    return redirectToCheckout(result.order);
  } catch (error) {
    if (error instanceof PriceListChangedError) {
      return data({ intent: 'order' as const, message: QUOTE_PRICES_CHANGED }, { status: 409 });
    }
    if (error instanceof InvalidSelectionError) {
      return data({ intent: 'order' as const, message: QUOTE_NOT_ORDERABLE }, { status: 400 });
    }
    throw error;
  }
}

/** « Recevoir ce devis par e-mail »: queued once per address, up to the quote’s limit of addresses. */
async function emailTheQuote(formData: FormData, quote: QuoteView, options: QuoteActionOptions) {
  const submission = parseWithZod(formData, { schema: quoteEmailSchema });
  if (submission.status !== 'success') {
    return data({ intent: 'email' as const, result: submission.reply(), message: null }, { status: 400 });
  }
  const to = submission.value.email.toLowerCase();
  // A robot filled the honeypot: answer as if it worked, send nothing.
  if (submission.value.website) {
    return data({
      intent: 'email' as const,
      result: submission.reply({ resetForm: true }),
      message: QUOTE_EMAIL_MESSAGES.queued(to),
    });
  }
  // Greeted by name only in a message to the customer's own address: a name typed in a profile
  // must not become a message carried from the shop's mail server to anyone.
  const ownAddress = options.user?.email.toLowerCase() === to;
  const outcome = await emailQuote(quote, {
    to,
    quoteUrl: options.quoteUrl,
    ...(ownAddress && options.user?.firstName ? { customerName: options.user.firstName } : {}),
  });
  return data(
    {
      intent: 'email' as const,
      result: submission.reply({ resetForm: outcome === 'queued' }),
      message: QUOTE_EMAIL_MESSAGES[outcome](to),
    },
    { status: outcome === 'limit-reached' ? 429 : 200 },
  );
}
