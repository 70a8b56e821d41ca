import { ReceiptTextIcon } from 'lucide-react';
import { Link } from 'react-router';
import type { OrderCreditNoteLink } from '~/domain/account/account-rows';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';

/** « Avoirs »: an order's credit notes (money given back), each linked to its page. */
export function CreditNotesLinks({ notes, headingId }: { notes: OrderCreditNoteLink[]; headingId: string }) {
  if (notes.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h2 id={headingId} className="font-semibold text-lg">
        {notes.length > 1 ? 'Avoirs' : 'Avoir'}
      </h2>
      <ul className="flex flex-col gap-1 text-sm">
        {notes.map((note) => (
          <li key={note.number} className="flex flex-wrap items-center gap-2">
            <ReceiptTextIcon className="size-4 text-muted-foreground" aria-hidden="true" />
            <Link to={note.href} className="font-medium text-primary underline-offset-4 hover:underline">
              Voir l’avoir {note.number}
            </Link>
            <span className="text-muted-foreground">
              du {formatDateFr(note.issuedAt)} · {formatEurosFromCents(note.amountCents)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
