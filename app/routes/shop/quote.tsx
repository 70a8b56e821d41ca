import { data } from 'react-router';
import { QuoteView } from '~/components/quotes/quote-view';
import { formatDateFr } from '~/domain/format';
import { requireUser } from '~/server/auth/session.server';
import { handleQuoteAction } from '~/server/quotes/quote-actions.server';
import { getQuoteForUser } from '~/server/quotes/quotes.server';
import type { Route } from './+types/quote';

// /mes-devis/<id>: one of the signed-in customer's quotes; anyone else's answers 404.

export function meta({ data: loaded }: Route.MetaArgs) {
  return [
    { title: loaded ? `Devis du ${formatDateFr(loaded.quote.createdAt)} | Soovenirs` : 'Devis | Soovenirs' },
    { name: 'robots', content: 'noindex' },
  ];
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' };
}

async function load(request: Request, quoteId: string) {
  const user = await requireUser(request);
  const quote = await getQuoteForUser(quoteId, user.id);
  if (!quote) throw data('Devis introuvable', { status: 404 });
  return { user, quote };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user, quote } = await load(request, params.quoteId);
  return {
    quote,
    justSaved: new URL(request.url).searchParams.has('enregistre'),
    email: user.email,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user, quote } = await load(request, params.quoteId);
  return handleQuoteAction(request, quote, { user, quoteUrl: `/mes-devis/${quote.id}` });
}

export default function Quote({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <QuoteView
      quote={loaderData.quote}
      mode="account"
      justSaved={loaderData.justSaved}
      defaultEmail={loaderData.email}
      actionData={actionData}
    />
  );
}
