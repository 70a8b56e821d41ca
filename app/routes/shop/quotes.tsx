import { FileTextIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import { getUser } from '~/server/auth/session.server';
import { listQuotes } from '~/server/quotes/quotes.server';
import type { Route } from './+types/quotes';

// /mes-devis: the signed-in customer's saved quotes. A visitor is told how to find theirs.

export function meta() {
  return [{ title: 'Mes devis | Soovenirs' }, { name: 'robots', content: 'noindex' }];
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getUser(request);
  if (!user) return { signedIn: false as const, quotes: [] };
  return { signedIn: true as const, quotes: await listQuotes(user.id) };
}

export default function Quotes({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-10 sm:px-6">
      <header className="flex flex-col gap-2">
        <h1 className="text-title">Mes devis</h1>
        <p className="text-muted-foreground">
          Vos estimations enregistrées, au tarif du jour où vous les avez faites. Un clic suffit pour commander.
        </p>
      </header>

      {!loaderData.signedIn ? (
        <div className="flex flex-col items-start gap-4 rounded-xl border border-border bg-card p-6">
          <p>Connectez-vous pour retrouver les devis enregistrés avec votre compte.</p>
          <p className="text-muted-foreground text-sm">
            Un devis enregistré sans compte s’ouvre avec son lien privé, reçu à l’enregistrement ou par e-mail.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button asChild>
              <Link to="/login?redirectTo=%2Fmes-devis">Se connecter</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/configurateur">Estimer ma commande</Link>
            </Button>
          </div>
        </div>
      ) : loaderData.quotes.length === 0 ? (
        <div className="flex flex-col items-start gap-4 rounded-xl border border-border bg-card p-6">
          <p>Vous n’avez pas encore enregistré de devis.</p>
          <Button asChild variant="accent">
            <Link to="/configurateur">Estimer ma commande</Link>
          </Button>
        </div>
      ) : (
        <ul className="flex flex-col gap-3">
          {loaderData.quotes.map((quote) => (
            <li key={quote.id} className="rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5">
              <div className="flex items-start justify-between gap-4">
                <div className="flex min-w-0 flex-1 flex-col gap-1">
                  <h2 className="flex items-center gap-2 font-semibold">
                    <FileTextIcon aria-hidden="true" className="size-4 text-sepia" />
                    <Link to={`/mes-devis/${quote.id}`} className="underline-offset-4 hover:underline">
                      Devis du {formatDateFr(quote.createdAt)}
                    </Link>
                  </h2>
                  <p className="text-muted-foreground text-sm">
                    {quote.lines.map((line) => `${line.quantity}\u00A0× ${line.label}`).join(' · ') ||
                      'Prestations qui ne sont plus proposées'}
                  </p>
                  <div className="flex flex-wrap gap-2">
                    {quote.pricesChanged ? <Badge variant="warning">Tarifs modifiés depuis</Badge> : null}
                    {quote.orderNumber ? <Badge variant="success">Commandé ({quote.orderNumber})</Badge> : null}
                  </div>
                </div>
                <p className="shrink-0 font-heading font-semibold text-lg text-primary tabular-nums">
                  {formatEurosFromCents(quote.totalPriceCents)}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
