import type { SubmissionResult } from '@conform-to/react';
import { CheckIcon, SearchIcon, XIcon } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import { ToneBadge } from '~/components/account/status-badges';
import { Button } from '~/components/ui/button';
import { Checkbox } from '~/components/ui/checkbox';
import { Input } from '~/components/ui/input';
import { Spinner } from '~/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { toast } from '~/components/ui/toaster';
import { fill, PAYMENT_VALIDATION_MESSAGES } from '~/domain/admin/messages';
import type { ListPage } from '~/domain/admin/paging';
import type { PaymentDecision } from '~/domain/admin/payment-decision';
import type { PendingPaymentRow } from '~/domain/admin/views';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import { PaymentDecisionDialog, type PendingDecision } from './payment-decision-dialog';

export const PAYMENTS_PATH = '/admin/api/paiements';

export interface PaymentDecisionResponse {
  decision: PaymentDecision;
  results: Array<{ id: string; ok: boolean; reference: string | null; invoiceNumber?: string | null }>;
}

/** The action's answer: the decision's results, or its refusal of the request (with Conform's reply). */
export type PaymentDecisionAnswer = { submission?: SubmissionResult<string[]> } & (
  | PaymentDecisionResponse
  | { error: string }
);

const METHOD_LABELS: Record<string, string> = { card: 'Carte', transfer: 'Virement', cheque: 'Chèque' };

/**
 * Payments in "En attente": search, select, validate or reject each or the selection, each decision
 * confirmed in a dialog (a rejection with its reason), with its notices. Validating
 * issues the invoice and e-mails the customer (server side).
 */
export function PaymentValidation() {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [pending, setPending] = useState<PendingDecision | null>(null);
  const list = useFetcher<{ page: ListPage<PendingPaymentRow> }>();
  const decide = useFetcher<PaymentDecisionAnswer>();
  const { load } = list;
  const reload = useCallback(
    (term: string, pageNumber = 1) =>
      load(`${PAYMENTS_PATH}?${new URLSearchParams({ q: term, page: String(pageNumber) })}`),
    [load],
  );

  useEffect(() => {
    reload('');
  }, [reload]);

  const goTo = (pageNumber: number) => {
    setPage(pageNumber);
    setSelected(new Set());
    reload(q.trim(), pageNumber);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per answer, with the list as it is then
  useEffect(() => {
    if (decide.state !== 'idle' || !decide.data) return;
    if ('error' in decide.data) {
      // A refusal of the confirmation's post shows in its dialog (every decision is confirmed there).
      if (!pending) toast.error(PAYMENT_VALIDATION_MESSAGES.failed, { description: decide.data.error });
      return;
    }
    const { decision, results } = decide.data;
    const done = results.filter((r) => r.ok);
    const failed = results.length - done.length;
    if (done.length === 1 && results.length === 1) {
      const template =
        decision === 'validate' ? PAYMENT_VALIDATION_MESSAGES.validatedOne : PAYMENT_VALIDATION_MESSAGES.rejectedOne;
      toast.success(fill(template, { reference: done[0]?.reference ?? '' }), {
        description: done[0]?.invoiceNumber ? `Facture ${done[0].invoiceNumber} émise` : undefined,
      });
    } else if (done.length > 0) {
      const template =
        decision === 'validate' ? PAYMENT_VALIDATION_MESSAGES.validatedMany : PAYMENT_VALIDATION_MESSAGES.rejectedMany;
      toast.success(fill(template, { n: done.length }));
    }
    if (failed > 0)
      toast.error(PAYMENT_VALIDATION_MESSAGES.failed, { description: `${failed} paiement(s) non traité(s)` });
    setSelected(new Set());
    setPending(null);
    reload(q.trim(), page);
  }, [decide.state, decide.data]);

  /** One row's own ✓ or ✗ asks first too, naming the order, the customer and the amount. */
  const confirmOne = (row: PendingPaymentRow, decision: PaymentDecision) =>
    setPending({ decision, payments: [row], single: true });

  const rows = list.data?.page.rows ?? [];
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  /** The selection's buttons ask first, with the selected rows of the list shown. */
  const confirmSelection = (decision: PaymentDecision) => {
    const payments = rows.filter((row) => selected.has(row.id));
    if (payments.length === 0) toast.error(PAYMENT_VALIDATION_MESSAGES.nothingSelected);
    else setPending({ decision, payments });
  };
  const busy = decide.state !== 'idle';
  return (
    <div className="flex flex-col gap-4">
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setSelected(new Set());
          reload(q.trim());
        }}
      >
        <label htmlFor="recherche-paiements" className="sr-only">
          Rechercher un paiement
        </label>
        <Input
          id="recherche-paiements"
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder="Référence, n° de commande, client, email…"
        />
        <Button type="submit" variant="outline">
          <SearchIcon aria-hidden="true" />
          Rechercher
        </Button>
      </form>
      <div className="flex flex-wrap items-center gap-2">
        <ToneBadge tone="warning">Statut : En attente</ToneBadge>
        <span className="text-muted-foreground text-sm">{selected.size} sélectionné(s)</span>
        <Button size="sm" onClick={() => confirmSelection('validate')} disabled={busy || selected.size === 0}>
          <CheckIcon aria-hidden="true" />
          Valider la sélection
        </Button>
        <Button
          size="sm"
          variant="destructive"
          onClick={() => confirmSelection('reject')}
          disabled={busy || selected.size === 0}
        >
          <XIcon aria-hidden="true" />
          Rejeter la sélection
        </Button>
      </div>
      {!list.data ? (
        <Spinner label="Chargement des paiements…" showLabel />
      ) : rows.length === 0 ? (
        <p className="text-muted-foreground text-sm">Aucun paiement en attente.</p>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead className="w-10">
                <Checkbox
                  aria-label="Tout sélectionner"
                  checked={allSelected}
                  onCheckedChange={(checked) =>
                    setSelected(checked === true ? new Set(rows.map((r) => r.id)) : new Set())
                  }
                />
              </TableHead>
              <TableHead>Référence</TableHead>
              <TableHead>Client</TableHead>
              <TableHead>Date</TableHead>
              <TableHead>Mode</TableHead>
              <TableHead className="text-right">Montant</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id} data-state={selected.has(row.id) ? 'selected' : undefined}>
                <TableCell>
                  <Checkbox
                    aria-label={`Sélectionner le paiement ${row.reference}`}
                    checked={selected.has(row.id)}
                    onCheckedChange={(checked) =>
                      setSelected((current) => {
                        const next = new Set(current);
                        if (checked === true) next.add(row.id);
                        else next.delete(row.id);
                        return next;
                      })
                    }
                  />
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  <span className="font-medium">{row.reference}</span>
                  {row.reference !== row.orderNumber ? (
                    <span className="block text-muted-foreground text-xs">Commande {row.orderNumber}</span>
                  ) : null}
                </TableCell>
                <TableCell>
                  {row.customer}
                  {row.email ? <span className="block text-muted-foreground text-xs">{row.email}</span> : null}
                </TableCell>
                <TableCell className="whitespace-nowrap">{formatDateFr(row.date)}</TableCell>
                <TableCell>{METHOD_LABELS[row.method] ?? row.method}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">
                  {formatEurosFromCents(row.amountCents)}
                </TableCell>
                <TableCell>
                  <div className="flex justify-end gap-1">
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => confirmOne(row, 'validate')}
                      disabled={busy}
                      aria-label={`Valider le paiement ${row.reference}`}
                      title="Valider"
                    >
                      <CheckIcon aria-hidden="true" />
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => confirmOne(row, 'reject')}
                      disabled={busy}
                      aria-label={`Rejeter le paiement ${row.reference}`}
                      title="Rejeter"
                    >
                      <XIcon aria-hidden="true" />
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {list.data && list.data.page.pageCount > 1 ? (
        <div className="flex items-center justify-between gap-2 text-sm">
          <Button size="sm" variant="outline" disabled={page <= 1 || busy} onClick={() => goTo(page - 1)}>
            Précédent
          </Button>
          <span>
            Page {page} sur {list.data.page.totalIsCapped ? `${list.data.page.pageCount}+` : list.data.page.pageCount}
          </span>
          <Button
            size="sm"
            variant="outline"
            disabled={page >= list.data.page.pageCount || busy}
            onClick={() => goTo(page + 1)}
          >
            Suivant
          </Button>
        </div>
      ) : null}
      <PaymentDecisionDialog
        pending={pending}
        fetcher={decide}
        action={PAYMENTS_PATH}
        onClose={() => setPending(null)}
      />
    </div>
  );
}
