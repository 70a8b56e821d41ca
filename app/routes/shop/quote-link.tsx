import { data } from 'react-router';
import { QuoteView } from '~/components/quotes/quote-view';
import { getUser } from '~/server/auth/session.server';
import { baseUrl } from '~/server/env.server';
import { handleQuoteAction } from '~/server/quotes/quote-actions.server';
import { getQuoteByToken } from '~/server/quotes/quotes.server';
import type { Route } from './+types/quote-link';

// /devis/<token>: a quote saved without an account, opened by its private link only.

export function meta() {
  return [{ title: 'Votre devis | Soovenirs' }, { name: 'robots', content: 'noindex' }];
}

export function headers() {
  // The address is a secret: no cache may keep the page, no other site may learn it.
  return { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'same-origin' };
}

async function load(token: string) {
  const quote = await getQuoteByToken(token);
  if (!quote) throw data('Devis introuvable', { status: 404 });
  return quote;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const quote = await load(params.token);
  return {
    quote,
    justSaved: new URL(request.url).searchParams.has('enregistre'),
    privateUrl: `${baseUrl()}/devis/${params.token}`,
    // Only the signed-in visitor's own address: an address the quote was e-mailed to is not shown
    // to whoever holds the link.
    email: (await getUser(request))?.email ?? '',
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const quote = await load(params.token);
  const user = await getUser(request);
  return handleQuoteAction(request, quote, { user, quoteUrl: `/devis/${params.token}` });
}

export default function QuoteLink({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <QuoteView
      quote={loaderData.quote}
      mode="link"
      justSaved={loaderData.justSaved}
      privateUrl={loaderData.privateUrl}
      defaultEmail={loaderData.email}
      actionData={actionData}
    />
  );
}
