import { getFormProps, useForm } from '@conform-to/react';
import type { FetcherWithComponents } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { TextareaField } from '~/components/forms/field';
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
import {
  MAX_REJECTION_REASON_LENGTH,
  type PaymentDecision,
  paymentDecisionSummary,
  paymentDescription,
} from '~/domain/admin/payment-decision';
import { firstFormError } from '~/domain/form-errors';
import { NNBSP } from '~/domain/format';
import type { PaymentDecisionAnswer } from './payment-validation';

export interface PendingDecision {
  decision: PaymentDecision;
  payments: ReadonlyArray<{
    id: string;
    reference: string;
    orderNumber: string;
    customer: string;
    amountCents: number;
  }>;
  /** A row's own ✓ or ✗ (one payment), rather than the selection's buttons. */
  single?: boolean;
}

const TITLES: Record<PaymentDecision, { one: string; selection: string }> = {
  validate: { one: `Valider le paiement${NNBSP}?`, selection: `Valider la sélection${NNBSP}?` },
  reject: { one: `Rejeter le paiement${NNBSP}?`, selection: `Rejeter la sélection${NNBSP}?` },
};

const CONSEQUENCES: Record<PaymentDecision, string> = {
  validate: 'La facture de chaque commande est émise et le client prévenu par e-mail.',
  reject: 'Les commandes restent à payer ; chaque client reçoit l’e-mail « Paiement non validé » avec ce motif.',
};

/**
 * Every decision asks first (a mis-click on a row's ✗ rejected a payment and e-mailed the
 * customer): the dialog names the payment (order, customer, amount) or the selection (references
 * and total), and only its own button posts them, as a Conform form with the decision and the ids
 * as hidden fields. A rejection asks for its reason, which the customer reads in their e-mail; the
 * server's refusals (an empty reason) show under the field or in the alert. « Annuler » changes nothing.
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
  const [form, fields] = useForm<{ decision: string; id: string[]; reason: string }>({
    id: 'decision-paiements',
    lastResult: answer?.submission,
  });
  const reasonError = fields.reason.errors?.length ? fields.reason.errors : null;
  const refusal = answer && 'error' in answer && !reasonError ? firstFormError(form.allErrors, answer.error) : null;
  const busy = fetcher.state !== 'idle';
  const count = pending?.payments.length ?? 0;
  const one = pending?.single && pending.payments[0] ? pending.payments[0] : null;
  return (
    <Dialog open={pending !== null} onOpenChange={(open) => (open || busy ? undefined : onClose())}>
      <DialogContent>
        {pending ? (
          <fetcher.Form method="post" action={action} className="flex flex-col gap-4" {...getFormProps(form)}>
            <DialogHeader>
              <DialogTitle>{one ? TITLES[pending.decision].one : TITLES[pending.decision].selection}</DialogTitle>
              <DialogDescription>
                {one ? paymentDescription(one) : paymentDecisionSummary(pending.decision, pending.payments)}
              </DialogDescription>
            </DialogHeader>
            <p className="text-sm">{CONSEQUENCES[pending.decision]}</p>
            <input type="hidden" name="decision" value={pending.decision} />
            {pending.payments.map((payment) => (
              <input key={payment.id} type="hidden" name="id" value={payment.id} />
            ))}
            {pending.decision === 'reject' ? (
              <TextareaField
                meta={fields.reason}
                label="Motif du rejet (envoyé au client)"
                rows={3}
                maxLength={MAX_REJECTION_REASON_LENGTH}
              />
            ) : null}
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
