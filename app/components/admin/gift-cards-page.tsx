import type { ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { Alert } from '~/components/ui/alert';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Pagination } from '~/components/ui/pagination';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { countLabel, type ListPage } from '~/domain/admin/paging';
import { addDays, dayKey, parisDay } from '~/domain/calendar';
import { formatDateFr, formatDateTimeFr, formatEurosFromCents, NBSP } from '~/domain/format';
import {
  GIFT_CARD_ENTRY_LABELS,
  GIFT_CARD_MAX_VALIDITY_MONTHS,
  type GiftCardActionData,
  type GiftCardOfficeRow,
} from '~/domain/vouchers/gift-card-office';
import { GIFT_CARD_ENTRY_DIRECTION, GIFT_CARD_STATE_LABELS, type GiftCardState } from '~/domain/vouchers/gift-cards';
import { usePageHref } from './use-page-href';

const PATH = '/admin/cartes-cadeaux';

const STATE_TONES: Readonly<Record<GiftCardState, 'success' | 'neutral' | 'warning' | 'danger'>> = {
  active: 'success',
  spent: 'neutral',
  expired: 'warning',
  canceled: 'danger',
};

/** `2027-11-29` (Paris) of an ISO instant, as a date field takes it. */
const dayOf = (iso: string, plusDays = 0) => dayKey(addDays(parisDay(new Date(iso)), plusDays));

/** `+50,00 €` / `−15,00 €`: what an entry did to the balance. */
function signedAmount(entry: GiftCardOfficeRow['entries'][number]): string {
  return `${GIFT_CARD_ENTRY_DIRECTION[entry.kind] > 0 ? '+' : '−'}${formatEurosFromCents(entry.amountCents)}`;
}

/** « Cartes cadeaux »: the search, the cards found (each with its ledger and its actions), the pages. */
export function GiftCardsPage({
  q,
  cardId,
  search,
  list,
  mayRefund,
  actionData,
}: {
  q: string;
  cardId: string | null;
  search: string;
  list: { page: ListPage<GiftCardOfficeRow>; problem: string | null };
  /** The refund right: « Annuler et rembourser » is offered only with it. */
  mayRefund: boolean;
  actionData: GiftCardActionData | null;
}) {
  const pageHref = usePageHref();
  const { page } = list;
  // An answer about a card shown below goes under that card; any other (the search's) here.
  const general = actionData && !page.rows.some((row) => row.id === actionData.cardId) ? actionData : null;
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h2 className="font-heading font-semibold text-xl">Cartes cadeaux</h2>
        <p className="text-muted-foreground text-sm">
          Cherchez une carte par son code (entier, tel qu’il est écrit sur la carte), par ses 4 derniers symboles, ou
          par le nom ou l’e-mail du destinataire ou de l’acheteur.
        </p>
      </div>
      <Form method="post" role="search" aria-label="Rechercher une carte cadeau" className="flex gap-2">
        <input type="hidden" name="intent" value="search" />
        <label htmlFor="recherche-cartes" className="sr-only">
          Code de la carte, ses 4 derniers symboles, nom ou e-mail
        </label>
        <Input
          id="recherche-cartes"
          name="q"
          type="search"
          autoComplete="off"
          defaultValue={q}
          key={search}
          placeholder="Code, 4 derniers symboles, nom ou e-mail…"
        />
        <Button type="submit" variant="outline">
          Rechercher
        </Button>
      </Form>
      {general ? <Alert variant={general.ok ? 'success' : 'danger'}>{general.message}</Alert> : null}
      {list.problem ? <Alert variant="warning">{list.problem}</Alert> : null}
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-muted-foreground text-sm" aria-live="polite">
          {cardId
            ? 'La carte de ce code.'
            : `${countLabel(page, { one: 'carte', many: 'cartes', none: 'Aucune carte cadeau' })}${
                q ? ` pour «${NBSP}${q}${NBSP}»` : ''
              }.`}
        </p>
        {cardId || q ? (
          <Link to={PATH} className="text-primary text-sm underline">
            Voir toutes les cartes
          </Link>
        ) : null}
      </div>
      <ul className="flex flex-col gap-4">
        {page.rows.map((card) => (
          <GiftCardItem
            key={card.id}
            card={card}
            mayRefund={mayRefund}
            answer={actionData?.cardId === card.id ? actionData : null}
          />
        ))}
      </ul>
      <Pagination page={page.page} pageCount={page.pageCount} hrefFor={pageHref} label="Pages des cartes cadeaux" />
    </div>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

function GiftCardItem({
  card,
  mayRefund,
  answer,
}: {
  card: GiftCardOfficeRow;
  mayRefund: boolean;
  answer: GiftCardActionData | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('cardId') === card.id;
  const headingId = `carte-${card.id}`;
  const hidden = <span className="sr-only"> {card.maskedCode}</span>;
  return (
    <li>
      <article aria-labelledby={headingId} className="flex flex-col gap-4 rounded-lg border bg-card p-4">
        <div className="flex flex-wrap items-center gap-3">
          <h3 id={headingId} className="font-mono font-semibold text-lg">
            Carte {card.maskedCode}
          </h3>
          <Badge variant={STATE_TONES[card.state]}>{GIFT_CARD_STATE_LABELS[card.state]}</Badge>
        </div>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <Detail term="Montant">{formatEurosFromCents(card.initialCents)}</Detail>
          <Detail term="Solde">{formatEurosFromCents(card.balanceCents)}</Detail>
          <Detail term="Émise le">{formatDateFr(card.issuedAt)}</Detail>
          <Detail term="Valable jusqu’au">{formatDateFr(card.expiresAt)}</Detail>
          <Detail term="Vendue par la commande">
            <Link className="text-primary underline" to={`/admin?commande=${card.saleOrderId}`}>
              {card.saleOrderNumber}
            </Link>
          </Detail>
          <Detail term="Destinataire">
            {card.recipientName}
            <span className="block break-all font-normal text-muted-foreground">{card.recipientEmail}</span>
          </Detail>
          <Detail term="Acheteur">
            {card.buyerName}
            {card.buyerEmail ? (
              <span className="block break-all font-normal text-muted-foreground">{card.buyerEmail}</span>
            ) : null}
          </Detail>
          <Detail term="Remise">
            {card.delivery === 'email' && card.sendOn
              ? `Par e-mail, le ${formatDateFr(`${card.sendOn}T12:00:00Z`)}`
              : 'Imprimée par l’acheteur'}
            {card.reminderSentAt ? (
              <span className="block font-normal text-muted-foreground">
                Rappel d’expiration envoyé le {formatDateFr(card.reminderSentAt)}
              </span>
            ) : null}
          </Detail>
        </dl>
        <div className="rounded-md border">
          <Table>
            <caption className="sr-only">Mouvements de la carte {card.maskedCode}</caption>
            <TableHeader>
              <TableRow>
                <TableHead>Date</TableHead>
                <TableHead>Mouvement</TableHead>
                <TableHead className="text-right">Montant</TableHead>
                <TableHead>Commande</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {card.entries.map((entry) => (
                <TableRow key={`${entry.at}-${entry.kind}-${entry.amountCents}`}>
                  <TableCell className="whitespace-nowrap">{formatDateTimeFr(entry.at)}</TableCell>
                  <TableCell>{GIFT_CARD_ENTRY_LABELS[entry.kind]}</TableCell>
                  <TableCell className="whitespace-nowrap text-right tabular-nums">{signedAmount(entry)}</TableCell>
                  <TableCell>
                    {entry.orderId && entry.orderNumber ? (
                      <Link className="text-primary underline" to={`/admin?commande=${entry.orderId}`}>
                        {entry.orderNumber}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
        {answer ? <Alert variant={answer.ok ? 'success' : 'danger'}>{answer.message}</Alert> : null}
        <div className="flex flex-wrap items-end gap-6">
          {card.canResend ? (
            <Form method="post">
              <input type="hidden" name="intent" value="resend" />
              <input type="hidden" name="cardId" value={card.id} />
              <Button type="submit" variant="outline" disabled={busy}>
                Renvoyer la carte{hidden}
              </Button>
            </Form>
          ) : null}
          {card.canExtend ? (
            <Form method="post" className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="intent" value="extend" />
              <input type="hidden" name="cardId" value={card.id} />
              <div className="flex flex-col gap-1.5">
                <label htmlFor={`prolonger-${card.id}`} className="font-medium text-sm">
                  Nouvelle fin de validité
                </label>
                <Input
                  id={`prolonger-${card.id}`}
                  name="expiresOn"
                  type="date"
                  required
                  min={dayOf(card.expiresAt, 1)}
                  max={dayOf(card.latestExpiresAt)}
                  aria-describedby={`prolonger-${card.id}-aide`}
                  className="w-44"
                />
                <p id={`prolonger-${card.id}-aide`} className="text-muted-foreground text-xs">
                  Au plus tard le {formatDateFr(card.latestExpiresAt)} ({GIFT_CARD_MAX_VALIDITY_MONTHS}
                  {NBSP}mois après l’émission).
                </p>
              </div>
              <Button type="submit" variant="outline" disabled={busy}>
                Prolonger{hidden}
              </Button>
            </Form>
          ) : null}
          {mayRefund && card.canCancel ? (
            <Form method="post" className="flex flex-col gap-2">
              <input type="hidden" name="intent" value="cancel" />
              <input type="hidden" name="cardId" value={card.id} />
              <label className="flex max-w-md items-start gap-2 text-sm">
                <input type="checkbox" name="confirmed" value="1" required className="mt-0.5 size-4 accent-primary" />
                <span>
                  J’annule cette carte et rembourse {formatEurosFromCents(card.balanceCents)} à l’acheteur (commande{' '}
                  {card.saleOrderNumber} annulée).
                </span>
              </label>
              <Button type="submit" variant="destructive" disabled={busy} className="w-fit">
                Annuler et rembourser{hidden}
              </Button>
            </Form>
          ) : null}
        </div>
      </article>
    </li>
  );
}
