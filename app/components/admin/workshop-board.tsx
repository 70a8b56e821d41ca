import { FileTextIcon, FilterIcon } from 'lucide-react';
import { Form, Link, useNavigation } from 'react-router';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { supportLabel } from '~/domain/account/order-details';
import {
  type AdvanceOutcome,
  BOARD_COLUMN_LABELS,
  BOARD_COLUMN_SIZE,
  BOARD_PAGE_SIZE,
  BOARD_WAITING,
  BOARD_WAITING_LABELS,
  type BoardCard,
  type BoardColumnView,
  type BoardParams,
  boardFilterSearch,
} from '~/domain/admin/workshop-board';
import { formatDateFr } from '~/domain/format';
import { countedItemsSummary } from '~/domain/orders/counted-quantities';
import { EARLY_START_TEXT } from '~/domain/orders/early-start';
import { SUPPORT_TYPES } from '~/domain/pricing/default-price-list';
import { CopyWorkSummary } from './copy-work';
import { CheckFilter, DeliveryFilter, ShippingOptionFilters } from './filter-fields';
import { NativeSelect } from './native-select';

/** The board's filters: a GET form, so that the URL says what is shown (and it works without JavaScript). */
export function WorkshopFilters({ params }: { params: BoardParams }) {
  const active = boardFilterSearch(params).size > 0;
  return (
    <Form method="get" className="rounded-lg border border-border bg-card p-4" aria-label="Filtrer l’atelier">
      <h2 className="mb-3 flex items-center gap-2 font-semibold text-base">
        <FilterIcon className="size-4" aria-hidden="true" />
        Filtres
      </h2>
      {params.column ? <input type="hidden" name="colonne" value={params.column} /> : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <NativeSelect
          label="Support"
          name="support"
          defaultValue={params.support ?? ''}
          options={[
            { value: '', label: 'Tous les supports' },
            ...SUPPORT_TYPES.map((s) => ({ value: s, label: supportLabel(s) })),
          ]}
        />
        <DeliveryFilter value={params.delivery} />
        <NativeSelect
          label="En attente"
          name="attente"
          defaultValue={params.waiting ?? ''}
          options={[
            { value: '', label: 'Toutes les commandes' },
            ...BOARD_WAITING.map((w) => ({ value: w, label: BOARD_WAITING_LABELS[w] })),
          ]}
        />
      </div>
      <fieldset className="mt-3 flex flex-wrap items-center gap-x-5 gap-y-2">
        <legend className="sr-only">Options de la commande</legend>
        <ShippingOptionFilters label={params.label} returnOriginals={params.returnOriginals} />
        <CheckFilter name="express" label="Express" checked={params.express} />
      </fieldset>
      <div className="mt-3 flex items-end gap-2">
        <Button type="submit">Filtrer</Button>
        {active ? (
          <Button asChild variant="ghost">
            <Link to={params.column ? `?colonne=${params.column}` : '?'}>Effacer</Link>
          </Button>
        ) : null}
      </div>
    </Form>
  );
}

/** What « Passer à l’étape suivante » did, order by order. */
export function AdvanceSummary({ outcomes }: { outcomes: AdvanceOutcome[] }) {
  const done = outcomes.filter((o) => o.ok).length;
  return (
    <section role="status" aria-live="polite" className="rounded-lg border border-border bg-card p-4 text-sm">
      <h2 className="font-semibold">
        {done} commande{done > 1 ? 's' : ''} sur {outcomes.length} passée{done > 1 ? 's' : ''} à l’étape suivante
      </h2>
      <ul className="mt-2 flex flex-col gap-1">
        {outcomes.map((o) => (
          <li key={o.orderId} className={o.ok ? '' : 'text-destructive'}>
            <span className="font-medium">{o.number || 'Commande'}</span> : {o.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The columns, in one POST form: each card's checkbox selects it for « Passer à l’étape suivante »
 * (the form carries the selected ids; the server applies the lifecycle to each).
 */
export function WorkshopColumns({ columns, params }: { columns: BoardColumnView[]; params: BoardParams }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const filters = boardFilterSearch(params);
  return (
    <Form method="post" className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="advance" />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={busy}>
          Passer à l’étape suivante
        </Button>
        <p className="text-muted-foreground text-sm">Cochez une ou plusieurs commandes.</p>
      </div>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
        {columns.map((column) => (
          <ColumnSection key={column.column} view={column} params={params} filters={filters} />
        ))}
      </div>
    </Form>
  );
}

function ColumnSection({
  view,
  params,
  filters,
}: {
  view: BoardColumnView;
  params: BoardParams;
  filters: URLSearchParams;
}) {
  const headingId = `colonne-${view.column}`;
  const count = view.capped ? `plus de ${view.total}` : String(view.total);
  const link = (search: Record<string, string>) => `?${new URLSearchParams([...filters, ...Object.entries(search)])}`;
  const pageSize = params.column ? BOARD_PAGE_SIZE : BOARD_COLUMN_SIZE;
  const shownTo = (params.page - 1) * pageSize + view.cards.length;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-2 rounded-lg border border-border bg-muted/40 p-3"
    >
      <h2 id={headingId} className="flex items-baseline justify-between gap-2 font-heading font-semibold text-lg">
        {BOARD_COLUMN_LABELS[view.column]}
        <span className="font-normal text-muted-foreground text-sm">({count})</span>
      </h2>
      {view.cards.length === 0 ? <p className="text-muted-foreground text-sm">Aucune commande.</p> : null}
      <ul className="flex flex-col gap-2">
        {view.cards.map((card) => (
          <li key={card.id}>
            <Card card={card} />
          </li>
        ))}
      </ul>
      <nav aria-label={`Pages de la colonne ${BOARD_COLUMN_LABELS[view.column]}`} className="flex gap-3 text-sm">
        {!params.column && view.total > view.cards.length ? (
          <Link className="underline" to={link({ colonne: view.column })}>
            Voir toute la colonne
          </Link>
        ) : null}
        {params.column && params.page > 1 ? (
          <Link className="underline" to={link({ colonne: view.column, page: String(params.page - 1) })}>
            Page précédente
          </Link>
        ) : null}
        {params.column && view.total > shownTo ? (
          <Link className="underline" to={link({ colonne: view.column, page: String(params.page + 1) })}>
            Page suivante
          </Link>
        ) : null}
        {params.column ? (
          <Link className="underline" to={`?${filters}`}>
            Toutes les colonnes
          </Link>
        ) : null}
      </nav>
    </section>
  );
}

function Card({ card }: { card: BoardCard }) {
  const checkboxId = `selection-${card.id}`;
  return (
    <article
      aria-label={`Commande ${card.number}`}
      className={`rounded-md border bg-card p-3 text-sm ${card.late ? 'border-destructive' : 'border-border'}`}
    >
      <div className="flex items-start gap-2">
        <input id={checkboxId} type="checkbox" name="orderId" value={card.id} className="mt-1 size-4 accent-primary" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={checkboxId} className="font-semibold">
            <span className="sr-only">Sélectionner la commande </span>
            {card.number}
          </label>
          <p>{card.customer || 'Client sans nom'}</p>
          <p className="text-muted-foreground">{countedItemsSummary(card.items)}</p>
          {card.copy ? <CopyWorkSummary work={card.copy} /> : null}
          <p>{card.dueAt ? `Pour le ${formatDateFr(card.dueAt)}` : 'Pas encore reçue'}</p>
          {card.notBefore ? (
            <p className="font-medium">{EARLY_START_TEXT.notBefore(new Date(card.notBefore))}</p>
          ) : null}
          <div className="flex flex-wrap gap-1">
            {card.late ? <Badge variant="danger">En retard</Badge> : null}
            {card.express ? <Badge variant="info">Express</Badge> : null}
            {card.rework ? <Badge variant="warning">À refaire</Badge> : null}
            {card.paid ? null : <Badge variant="warning">Non payée</Badge>}
          </div>
          <div className="flex flex-wrap gap-3">
            <Link className="underline" to={`/admin?commande=${card.id}`}>
              Détails<span className="sr-only"> de la commande {card.number}</span>
            </Link>
            <a
              className="inline-flex items-center gap-1 underline"
              href={`/admin/commandes/${card.id}/fiche-atelier.pdf`}
            >
              <FileTextIcon className="size-3.5" aria-hidden="true" />
              Fiche atelier<span className="sr-only"> de la commande {card.number}</span>
            </a>
          </div>
        </div>
      </div>
    </article>
  );
}
