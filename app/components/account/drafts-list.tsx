import { FilePenLineIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '~/components/ui/button';
import type { AccountDraftRow } from '~/domain/account/account-rows';
import { itemsSummary } from '~/domain/account/order-details';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';

export const DRAFTS_TITLE = 'Devis et brouillons';

/**
 * « Devis et brouillons »: the orders begun with « Commander » and never confirmed at
 * checkout. No contract yet, so no withdrawal: the way on is the checkout, the saved estimates are
 * in « Mes devis ».
 */
export function DraftsList({ rows }: { rows: AccountDraftRow[] }) {
  return (
    <section aria-labelledby="drafts-title" className="flex flex-col gap-3">
      <h2 id="drafts-title" className="font-semibold text-xl">
        {DRAFTS_TITLE}
      </h2>
      <p className="text-muted-foreground text-sm">
        Commandes commencées mais pas encore validées : rien n’est dû tant que vous ne les confirmez pas. Vos
        estimations enregistrées sont dans{' '}
        <Link to="/mes-devis" className="text-primary underline underline-offset-4">
          Mes devis
        </Link>
        .
      </p>
      {rows.length === 0 ? (
        <p className="text-muted-foreground text-sm">Aucun brouillon en cours.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {rows.map((row) => (
            <li
              key={row.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border border-dashed bg-card p-4"
            >
              <div className="flex flex-col">
                <span className="font-semibold">Brouillon {row.number}</span>
                <span className="text-muted-foreground text-sm">
                  Commencé le {formatDateFr(row.createdAt)} · {itemsSummary(row.items)} ·{' '}
                  {formatEurosFromCents(row.totalPriceCents)}
                </span>
              </div>
              <Button asChild variant="outline" size="sm">
                <Link to={`/checkout?orderId=${row.id}`} aria-label={`Reprendre le brouillon ${row.number}`}>
                  <FilePenLineIcon aria-hidden="true" />
                  Reprendre
                </Link>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
