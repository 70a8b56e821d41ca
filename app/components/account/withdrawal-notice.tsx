import { Undo2Icon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '~/components/ui/button';
import { WITHDRAWAL_MESSAGES, WITHDRAWAL_PERIOD_DAYS } from '~/domain/account/withdrawal';
import { formatDateFr, formatDateTimeFr } from '~/domain/format';
import { WITHDRAW_LINK_LABEL } from './orders-list';
import type { WithdrawalView } from './withdrawal-view';

/** The order's right of withdrawal, in words, with the link while it is open. */
export function WithdrawalNotice({ orderId, withdrawal }: { orderId: string; withdrawal: WithdrawalView }) {
  return (
    <section
      aria-labelledby="withdrawal-title"
      className="flex flex-col gap-2 rounded-lg border border-border bg-card p-5"
    >
      <h2 id="withdrawal-title" className="font-semibold text-lg">
        Droit de rétractation
      </h2>
      {withdrawal.kind === 'open' ? (
        <>
          <p className="text-sm">
            Vous disposez de {WITHDRAWAL_PERIOD_DAYS} jours pour renoncer à cette commande, jusqu’au{' '}
            <strong>{formatDateFr(withdrawal.lastDay)}</strong> inclus.
          </p>
          <Button asChild variant="outline" size="sm" className="w-fit">
            <Link to={`/retractation/${orderId}`}>
              <Undo2Icon aria-hidden="true" />
              {WITHDRAW_LINK_LABEL}
            </Link>
          </Button>
        </>
      ) : null}
      {withdrawal.kind === 'withdrawn' ? (
        <p className="text-sm">
          Votre rétractation a été enregistrée le <strong>{formatDateTimeFr(withdrawal.withdrawnAt)}</strong>. Un accusé
          de réception vous a été envoyé par email.
        </p>
      ) : null}
      {withdrawal.kind === 'withdrawn' && withdrawal.words ? (
        <>
          <p className="text-sm">{withdrawal.words.money}</p>
          <p className="text-sm">{withdrawal.words.originals}</p>
        </>
      ) : null}
      {withdrawal.kind === 'draft' ? (
        <p className="text-muted-foreground text-sm">{WITHDRAWAL_MESSAGES.draft}</p>
      ) : null}
      {withdrawal.kind === 'expired' ? (
        <p className="text-muted-foreground text-sm">
          Le délai de rétractation a pris fin le {formatDateFr(withdrawal.lastDay)}.
        </p>
      ) : null}
      {withdrawal.kind === 'performed' ? (
        <p className="text-muted-foreground text-sm">{WITHDRAWAL_MESSAGES.performed}</p>
      ) : null}
      {withdrawal.kind === 'canceled' ? (
        <p className="text-muted-foreground text-sm">Cette commande est annulée.</p>
      ) : null}
    </section>
  );
}
