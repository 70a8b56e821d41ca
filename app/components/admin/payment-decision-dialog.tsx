import { getFormProps, useForm } from '@conform-to/react';
import type { FetcherWithComponents } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { Button } from '~/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog';
import { type PaymentDecision, paymentDecisionSummary } from '~/domain/admin/payment-decision';
import { firstFormError } from '~/domain/form-errors';
import { NNBSP } from '~/domain/format';
import type { PaymentDecisionAnswer } from './payment-validation';

export interface PendingDecision {
  decision: PaymentDecision;
  payments: ReadonlyArray<{ id: string; reference: string; amountCents: number }>;
}

const TITLES: Record<PaymentDecision, string> = {
  validate: `Valider la sélection${NNBSP}?`,
  reject: `Rejeter la sélection${NNBSP}?`,
};

const CONSEQUENCES: Record<PaymentDecision, string> = {
  validate: 'La facture de chaque commande est émise et le client prévenu par e-mail.',
  reject: 'Les commandes restent à payer.',
};

/**
 * « Valider la sélection » / « Rejeter la sélection » ask first: the dialog says which payments and
 * what total, and only its own button posts them (the decision and the ids as hidden fields of a
 * Conform form; a refusal of the server shows in its alert). « Annuler » changes nothing.
 */
export function PaymentDecisionDialog({
  pending,
  fetcher,
  action,
  onClose,
}: {
  pending: PendingDecision | null;
  fetcher: FetcherWithComponents<PaymentDecisionAnswer>;
  action: string;
  onClose: () => void;
}) {
  const answer = fetcher.data;
  const [form] = useForm({ id: 'decision-paiements', lastResult: answer?.submission });
  const refusal = answer && 'error' in answer ? firstFormError(form.allErrors, answer.error) : null;
  const busy = fetcher.state !== 'idle';
  const count = pending?.payments.length ?? 0;
  return (
    <Dialog open={pending !== null} onOpenChange={(open) => (open || busy ? undefined : onClose())}>
      <DialogContent>
        {pending ? (
          <fetcher.Form method="post" action={action} className="flex flex-col gap-4" {...getFormProps(form)}>
            <DialogHeader>
              <DialogTitle>{TITLES[pending.decision]}</DialogTitle>
              <DialogDescription>{paymentDecisionSummary(pending.decision, pending.payments)}</DialogDescription>
            </DialogHeader>
            <p className="text-sm">{CONSEQUENCES[pending.decision]}</p>
            <input type="hidden" name="decision" value={pending.decision} />
            {pending.payments.map((payment) => (
              <input key={payment.id} type="hidden" name="id" value={payment.id} />
            ))}
            <FormAlert id={form.errorId} errors={refusal ? [refusal] : null} />
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline" disabled={busy}>
                  Annuler
                </Button>
              </DialogClose>
              <Button type="submit" variant={pending.decision === 'reject' ? 'destructive' : 'default'} disabled={busy}>
                {pending.decision === 'validate' ? 'Valider' : 'Rejeter'}{' '}
                {count === 1 ? 'le paiement' : `les ${count} paiements`}
              </Button>
            </DialogFooter>
          </fetcher.Form>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
