import { Form } from 'react-router';
import { CreditNotesTable, InvoicesTable } from '~/components/admin/invoices-table';
import { PaymentConfigPanel } from '~/components/admin/payment-config-form';
import { TabError } from '~/components/admin/tab-error';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { useHydrated } from '~/components/use-hydrated';
import { parseInvoiceListParams, parsePage } from '~/domain/admin/list-params';
import { can } from '~/domain/staff/permissions';
import { requireStaff } from '~/server/admin/access.server';
import { listCreditNotes, listInvoices } from '~/server/admin/invoices.server';
import type { Route } from './+types/accounting';

/*
 * The Comptabilité tab: invoice search and table (Voir: /facture/{orderId}; PDF), credit notes (Voir:
 * /facture/{orderId}?avoir={number}; PDF), demonstration documents marked « Démonstration »,
 * and, for the roles that hold the settings (not the accountant), the online-payment configuration
 * section (the same form as the Configuration Paiement dialog).
 */

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, 'accounting');
  const url = new URL(request.url);
  const params = parseInvoiceListParams(url.searchParams);
  const [invoices, creditNotes] = await Promise.all([
    listInvoices(params),
    listCreditNotes({ q: params.q, page: parsePage(url.searchParams.get('apage')) }),
  ]);
  return { params, invoices, creditNotes, paymentSettings: can(staff.role, 'settings') };
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
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
