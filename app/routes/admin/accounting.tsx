import { Form, Link } from 'react-router';
import { CreditNotesTable, InvoicesTable } from '~/components/admin/invoices-table';
import { PaymentConfigPanel } from '~/components/admin/payment-config-form';
import { TabError } from '~/components/admin/tab-error';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { useHydrated } from '~/components/use-hydrated';
import { parseInvoiceListParams, parsePage } from '~/domain/admin/list-params';
import { formatDateFr, formatEurosFromCents, NBSP } from '~/domain/format';
import { can } from '~/domain/staff/permissions';
import { requireStaff } from '~/server/admin/access.server';
import { outstandingGiftCardCents } from '~/server/admin/gift-cards.server';
import { listCreditNotes, listInvoices } from '~/server/admin/invoices.server';
import type { Route } from './+types/accounting';

/*
 * The Comptabilité tab: invoice search and table (Voir: /facture/{orderId}; PDF), credit notes (Voir:
 * /facture/{orderId}?avoir={number}; PDF), demonstration documents marked « Démonstration »,
 * the gift cards still owed (the balances of the active cards, decision 037), and, for the roles
 * that hold the settings (not the accountant), the online-payment configuration section (the same
 * form as the Configuration Paiement dialog).
 */

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, 'accounting');
  const url = new URL(request.url);
  const params = parseInvoiceListParams(url.searchParams);
  const now = new Date();
  const [invoices, creditNotes, giftCardsOwedCents] = await Promise.all([
    listInvoices(params),
    listCreditNotes({ q: params.q, page: parsePage(url.searchParams.get('apage')) }),
    outstandingGiftCardCents(now),
  ]);
  return {
    params,
    invoices,
    creditNotes,
    giftCards: { owedCents: giftCardsOwedCents, asOf: now.toISOString(), open: can(staff.role, 'giftcards') },
    paymentSettings: can(staff.role, 'settings'),
  };
}

export default function AccountingTab({ loaderData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  return (
    <div className="flex flex-col gap-6">
      <Form method="get" role="search" className="flex gap-2" aria-label="Rechercher une facture">
        <label htmlFor="recherche-factures" className="sr-only">
          Rechercher une facture par numéro, commande ou client
        </label>
        <Input
          id="recherche-factures"
          name="q"
          type="search"
          defaultValue={loaderData.params.q}
          key={loaderData.params.q}
          placeholder="N° de facture, n° de commande, client…"
        />
        <Button type="submit" variant="outline">
          Rechercher
        </Button>
      </Form>
      <InvoicesTable page={loaderData.invoices} q={loaderData.params.q} />
      <CreditNotesTable page={loaderData.creditNotes} />
      <section
        aria-labelledby="cartes-cadeaux-dues"
        className="flex flex-col gap-2 rounded-lg border border-border bg-card p-4"
      >
        <h2 id="cartes-cadeaux-dues" className="font-heading font-semibold text-xl">
          Cartes cadeaux en circulation
        </h2>
        <p>
          Solde des cartes actives au {formatDateFr(loaderData.giftCards.asOf)}
          {NBSP}: <strong className="tabular-nums">{formatEurosFromCents(loaderData.giftCards.owedCents)}</strong>
        </p>
        <p className="text-muted-foreground text-sm">
          Ce que la boutique doit encore sur ses cartes cadeaux (TVA déjà facturée à la vente)
          {NBSP}: ni les cartes expirées, ni les cartes annulées et remboursées.
        </p>
        {loaderData.giftCards.open ? (
          <Link to="/admin/cartes-cadeaux" className="w-fit text-primary text-sm underline">
            Voir les cartes cadeaux
          </Link>
        ) : null}
      </section>
      {/* The payment journal (decision 049): its own page, for the roles that export. */}
      <Link to="/admin/journal-paiements" className="w-fit text-primary text-sm underline">
        Journal des paiements inaltérable{NBSP}: clôtures, archives signées
      </Link>
      {loaderData.paymentSettings ? (
        <section
          aria-labelledby="paiement-en-ligne"
          className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
        >
          <h2 id="paiement-en-ligne" className="font-heading font-semibold text-xl">
            Paiement en ligne
          </h2>
          {hydrated ? (
            <PaymentConfigPanel idPrefix="comptabilite-paiement" />
          ) : (
            <p className="text-muted-foreground text-sm">La configuration du paiement s’affiche avec JavaScript.</p>
          )}
          <Link to="/admin/plateforme-agreee" className="w-fit text-primary text-sm underline">
            Plateforme agréée (facturation électronique)
          </Link>
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
