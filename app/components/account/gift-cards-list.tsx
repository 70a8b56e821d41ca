import { DownloadIcon, GiftIcon } from 'lucide-react';
import { Button } from '~/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import type { StatusTone } from '~/domain/order-status';
import { GIFT_CARD_STATE_LABELS, type GiftCardState } from '~/domain/vouchers/gift-cards';
import { ToneBadge } from './status-badges';

/*
 * « Mes cartes cadeaux » (decision 037): the cards the signed-in buyer bought, each with its
 * recipient, amount, balance, state, validity, how it goes (by e-mail on a day, or printed), its
 * code masked as the account shows it, and the printable card to download again. A table on wide
 * screens, cards on phones, as the account's other lists.
 */

export interface GiftCardRow {
  id: string;
  saleOrderNumber: string;
  maskedCode: string;
  initialCents: number;
  balanceCents: number;
  state: GiftCardState;
  expiresAt: Date | string;
  recipientName: string;
  recipientEmail: string;
  /** When its e-mail leaves for the recipient; null for a card to print. */
  sendsAt: Date | string | null;
  pdfHref: string | null;
}

const STATE_TONES: Readonly<Record<GiftCardState, StatusTone>> = {
  active: 'success',
  spent: 'neutral',
  expired: 'warning',
  canceled: 'danger',
};

function State({ state }: { state: GiftCardState }) {
  return <ToneBadge tone={STATE_TONES[state]}>{GIFT_CARD_STATE_LABELS[state]}</ToneBadge>;
}

/** « Par e-mail le 21/12/2026 » to its recipient's address, or « À imprimer ». */
function Sending({ row }: { row: GiftCardRow }) {
  if (!row.sendsAt) return <span>À imprimer</span>;
  return (
    <span className="flex flex-col">
      <span>Par e-mail le {formatDateFr(row.sendsAt)}</span>
      <span className="break-all text-muted-foreground text-xs">{row.recipientEmail}</span>
    </span>
  );
}

function Code({ row }: { row: GiftCardRow }) {
  return (
    <span className="flex flex-col">
      {/* Twelve dots say nothing read aloud: the code's last four symbols do. */}
      <span className="font-mono" aria-hidden="true">
        {row.maskedCode}
      </span>
      <span className="sr-only">Code se terminant par {row.maskedCode.slice(-4)}</span>
      <span className="font-normal text-muted-foreground text-xs">commande {row.saleOrderNumber}</span>
    </span>
  );
}

function Download({ row }: { row: GiftCardRow }) {
  if (!row.pdfHref) return null;
  return (
    <Button asChild variant="outline" size="sm">
      <a href={row.pdfHref} download aria-label={`Télécharger la carte cadeau pour ${row.recipientName} en PDF`}>
        <DownloadIcon aria-hidden="true" />
        PDF
      </a>
    </Button>
  );
}

export function GiftCardsList({ rows }: { rows: GiftCardRow[] }) {
  if (rows.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-border border-dashed px-6 py-12 text-center">
        <GiftIcon className="size-10 text-muted-foreground" aria-hidden="true" />
        <p className="font-medium">Aucune carte cadeau pour le moment.</p>
        <p className="max-w-sm text-muted-foreground text-sm">
          Les cartes cadeaux que vous offrez apparaissent ici dès leur paiement, avec leur solde.
        </p>
      </div>
    );
  }
  return (
    <>
      <div className="hidden md:block">
        <Table>
          <caption className="sr-only">Vos cartes cadeaux, de la plus récente à la plus ancienne</caption>
          <TableHeader>
            <TableRow>
              <TableHead>Carte</TableHead>
              <TableHead>Pour</TableHead>
              <TableHead className="text-right">Montant</TableHead>
              <TableHead className="text-right">Solde</TableHead>
              <TableHead>État</TableHead>
              <TableHead>Validité</TableHead>
              <TableHead>Envoi</TableHead>
              <TableHead>Téléchargement</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell className="whitespace-nowrap font-medium">
                  <Code row={row} />
                </TableCell>
                <TableCell>{row.recipientName}</TableCell>
                <TableCell className="whitespace-nowrap text-right">{formatEurosFromCents(row.initialCents)}</TableCell>
                <TableCell className="whitespace-nowrap text-right">{formatEurosFromCents(row.balanceCents)}</TableCell>
                <TableCell>
                  <State state={row.state} />
                </TableCell>
                <TableCell className="whitespace-nowrap">jusqu’au {formatDateFr(row.expiresAt)}</TableCell>
                <TableCell>
                  <Sending row={row} />
                </TableCell>
                <TableCell>
                  <Download row={row} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="flex flex-col gap-3 md:hidden">
        {rows.map((row) => (
          <li key={row.id} className="flex flex-col gap-2 rounded-lg border border-border bg-card p-4">
            <div className="flex items-start justify-between gap-3">
              <div className="flex flex-col">
                <span className="font-semibold">Pour {row.recipientName}</span>
                <Code row={row} />
              </div>
              <State state={row.state} />
            </div>
            <p className="text-sm">
              <span className="font-semibold">{formatEurosFromCents(row.balanceCents)}</span> restants sur{' '}
              {formatEurosFromCents(row.initialCents)}, valable jusqu’au {formatDateFr(row.expiresAt)}
            </p>
            <div className="text-sm">
              <Sending row={row} />
            </div>
            <Download row={row} />
          </li>
        ))}
      </ul>
    </>
  );
}
