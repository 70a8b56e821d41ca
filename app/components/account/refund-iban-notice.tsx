import { LandmarkIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Alert } from '~/components/ui/alert';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import { ibanRequestSentence } from '~/domain/orders/iban';

/*
 * On the customer's order page: money owed back by transfer (decision 025). Before the IBAN is
 * given, « Indiquez-nous votre IBAN pour recevoir votre remboursement de 35,00 € » with the link to
 * the secure page; after, when it was received (masked) and what comes next.
 */

export interface RefundIbanView {
  owedCents: number;
  receivedAt: string | null;
  masked: string | null;
}

export function RefundIbanNotice({ orderId, iban }: { orderId: string; iban: RefundIbanView }) {
  if (iban.owedCents <= 0) return null;
  const page = `/remboursement/${orderId}`;
  if (iban.receivedAt && iban.masked) {
    return (
      <Alert title={`Remboursement de ${formatEurosFromCents(iban.owedCents)} par virement`}>
        <p>
          IBAN reçu le {formatDateFr(iban.receivedAt)} ({iban.masked}) : nous faisons le virement et vous envoyons votre
          avoir par e-mail. <Link to={page}>Corriger mon IBAN</Link>
        </p>
      </Alert>
    );
  }
  return (
    <Alert variant="warning" title={`${ibanRequestSentence(iban.owedCents, formatEurosFromCents)}.`}>
      <p className="flex flex-wrap items-center gap-2">
        <LandmarkIcon className="size-4" aria-hidden="true" />
        <Link to={page} className="font-medium underline underline-offset-4">
          Indiquer mon IBAN
        </Link>
      </p>
    </Alert>
  );
}
