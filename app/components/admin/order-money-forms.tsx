import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { type FetcherWithComponents, useFetcher } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { Field, RadioGroupField, TextareaField } from '~/components/forms/field';
import type { StatusChangeInput } from '~/domain/admin/order-dialog-forms';
import type { OrderDetails } from '~/domain/admin/views';
import { formatDateTimeFr, formatEurosFromCents } from '~/domain/format';
import {
  REFUND_METHOD_LABELS,
  REFUND_METHODS,
  type RefundFormInput,
  type RefundMethodChoice,
  type WithdrawalSettlementInput,
} from '~/domain/orders/refund-form';
import { Button } from '../ui/button';
import { RefundIbanPanel } from './refund-iban-panel';
import { useResultToast } from './use-result-toast';

/*
 * The money actions of the order dialog: refund (part or all of what was paid, through the gateway
 * that took it or recorded as made by hand), the refund that goes with a cancellation, and the
 * settlement of a withdrawal after the work started (the proportionate amount kept). The server
 * (routes/admin/orders.tsx → the order lifecycle) checks every amount again.
 */

export type MoneyActionData = {
  intent: 'refund' | 'settle-withdrawal' | 'approve-refund';
  submission: SubmissionResult<string[]>;
} & ({ ok: true; message: string } | { ok: false; error: string });

/** The status form's fields (its cancellation carries the refund fields rendered here). */
type StatusFormFields = ReturnType<typeof useForm<StatusChangeInput>>[1];

const REFUND_STATUS_LABELS: Record<string, string> = {
  due: 'À rembourser',
  pending: 'En cours',
  succeeded: 'Effectué',
  failed: 'Échec',
};

const METHOD_WORDS: Record<string, string> = {
  gateway: 'par la plateforme de paiement',
  transfer: 'par virement',
  cheque: 'par chèque',
};

/** « 12,50 » for an amount field's starting value. */
function euroInput(cents: number): string {
  return (cents / 100).toFixed(2).replace('.', ',');
}

function methods(order: OrderDetails): RefundMethodChoice[] {
  return REFUND_METHODS.filter((m) => m !== 'gateway' || order.money.gateway !== null);
}

/** The refund choices' labels, the gateway named after the one that took the payment. */
function methodOptions(order: OrderDetails, choices: RefundMethodChoice[]) {
  return choices.map((method) => ({
    value: method,
    label:
      method === 'gateway' && order.money.gateway
        ? `Par ${order.money.gateway} (sur le moyen de paiement du client)`
        : REFUND_METHOD_LABELS[method],
  }));
}

/** The cancellation's refund fields start with all that can be refunded, the first way, a reason. */
export function cancelRefundDefaults(order: OrderDetails) {
  return {
    refundAmount: euroInput(order.money.refundableCents),
    refundMethod: methods(order)[0],
    refundReason: 'Commande annulée',
  };
}

/**
 * « À rembourser »: money the order owes back and that was not given yet (a reduction at reception,
 * a cancellation by the workshop, a refund the gateway refused). Every staff member sees it; who
 * holds the refund right approves it (then the refund and its credit notes are made).
 */
export function DueRefunds({ order, canApprove }: { order: OrderDetails; canApprove: boolean }) {
  const fetcher = useFetcher<MoneyActionData>();
  useResultToast(fetcher);
  const due = order.money.refunds.filter((refund) => refund.status === 'due');
  if (due.length === 0) return null;
  return (
    <section
      aria-labelledby={`due-refunds-${order.id}`}
      className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm"
    >
      <h3 id={`due-refunds-${order.id}`} className="font-semibold">
        À rembourser
      </h3>
      <RefundIbanPanel order={order} canPay={canApprove} />
      {due.map((refund) => (
        <fetcher.Form key={refund.id} method="post" className="flex flex-col gap-2">
          <p>
            {formatEurosFromCents(refund.amountCents)} — {refund.reason}
            {refund.lastError ? ` (dernier essai : ${refund.lastError})` : ''}
          </p>
          {canApprove ? (
            <div className="flex flex-wrap items-center gap-2">
              <input type="hidden" name="intent" value="approve-refund" />
              <input type="hidden" name="orderId" value={order.id} />
              <input type="hidden" name="refundId" value={refund.id} />
              <select
                name="method"
                aria-label="Comment rembourser"
                defaultValue={methods(order)[0]}
                className="h-9 rounded-md border border-border bg-background px-2"
              >
                {methodOptions(order, methods(order)).map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
              <Button type="submit" size="sm" disabled={fetcher.state !== 'idle'}>
                {fetcher.state !== 'idle'
                  ? 'Remboursement…'
                  : order.money.iban
                    ? 'Virement fait : marquer payé'
                    : 'Approuver le remboursement'}
              </Button>
            </div>
          ) : (
            <p className="text-muted-foreground">
              En attente d’approbation par une personne habilitée aux remboursements.
            </p>
          )}
        </fetcher.Form>
      ))}
    </section>
  );
}

/** Without the refund right, cancelling a paid order leaves what was paid « à rembourser ». */
export function CancelOwedNotice({ order }: { order: OrderDetails }) {
  return (
    <p className="rounded-md border border-border bg-muted/40 p-3 text-sm">
      Cette commande a été payée : l’annulation laisse {formatEurosFromCents(order.money.refundableCents)} « à
      rembourser », que la comptabilité approuvera (remboursement et avoir).
    </p>
  );
}

/** The refund fields a cancellation of a paid order carries (inside the status form, bound to it). */
export function CancelRefundFields({ order, fields }: { order: OrderDetails; fields: StatusFormFields }) {
  return (
    <div className="flex flex-col gap-3 rounded-md border border-border bg-muted/40 p-3">
      <input type="hidden" name="withRefund" value="on" />
      <p className="text-sm">
        Cette commande a été payée : indiquez ce qui est remboursé avec l’annulation (jusqu’à{' '}
        {formatEurosFromCents(order.money.refundableCents)}, 0 pour ne rien rembourser). Un avoir est émis pour le
        montant remboursé.
      </p>
      <Field meta={fields.refundAmount} label="Montant remboursé (€)" inputMode="decimal" />
      <RadioGroupField
        meta={fields.refundMethod}
        legend="Comment rembourser"
        options={methodOptions(order, methods(order))}
      />
      <Field meta={fields.refundReason} label="Motif" maxLength={500} />
    </div>
  );
}

type MoneyFetcher = FetcherWithComponents<MoneyActionData>;

function RefundForm({ order, fetcher }: { order: OrderDetails; fetcher: MoneyFetcher }) {
  const choices = methods(order);
  // Validated on the server (routes/admin/orders.tsx, parseWithZod with the domain's schema); a
  // success answers with the form reset, ready for the next refund.
  const [form, fields] = useForm<RefundFormInput>({
    id: `refund-${order.id}`,
    lastResult: fetcher.data?.submission,
    defaultValue: { method: choices[0] },
    shouldRevalidate: 'onInput',
  });
  const titleId = `${form.id}-title`;
  return (
    <fetcher.Form method="post" className="flex flex-col gap-3" aria-labelledby={titleId} {...getFormProps(form)}>
      <h4 id={titleId} className="font-semibold text-sm">
        Rembourser
      </h4>
      <input type="hidden" name="intent" value="refund" />
      <input type="hidden" name="orderId" value={order.id} />
      <p className="text-muted-foreground text-sm">
        Jusqu’à {formatEurosFromCents(order.money.refundableCents)} (payé moins déjà remboursé). Un avoir est émis et
        envoyé au client.
      </p>
      <Field meta={fields.amount} label="Montant à rembourser (€)" inputMode="decimal" />
      <RadioGroupField meta={fields.method} legend="Comment rembourser" options={methodOptions(order, choices)} />
      <TextareaField meta={fields.reason} label="Motif du remboursement" maxLength={500} rows={2} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <Button type="submit" variant="outline" className="w-fit" disabled={fetcher.state !== 'idle'}>
        {fetcher.state !== 'idle' ? 'Remboursement…' : 'Rembourser'}
      </Button>
    </fetcher.Form>
  );
}

function WithdrawalSettlementForm({ order, fetcher }: { order: OrderDetails; fetcher: MoneyFetcher }) {
  const choices = methods(order);
  const [form, fields] = useForm<WithdrawalSettlementInput>({
    id: `settle-withdrawal-${order.id}`,
    lastResult: fetcher.data?.submission,
    defaultValue: { method: choices[0] },
    shouldRevalidate: 'onInput',
  });
  const titleId = `${form.id}-title`;
  return (
    <fetcher.Form method="post" className="flex flex-col gap-3" aria-labelledby={titleId} {...getFormProps(form)}>
      <h4 id={titleId} className="font-semibold text-sm">
        Régler la rétractation
      </h4>
      <input type="hidden" name="intent" value="settle-withdrawal" />
      <input type="hidden" name="orderId" value={order.id} />
      <p className="text-muted-foreground text-sm">
        Le client s’est rétracté après le début de la prestation, commencée à sa demande expresse. Indiquez le montant
        conservé, proportionnel au travail déjà fait ; le reste ({formatEurosFromCents(order.money.refundableCents)} au
        plus) lui est remboursé et la commande est annulée.
      </p>
      <Field meta={fields.kept} label="Montant conservé (€)" inputMode="decimal" />
      <RadioGroupField meta={fields.method} legend="Comment rembourser" options={methodOptions(order, choices)} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <Button type="submit" variant="outline" className="w-fit" disabled={fetcher.state !== 'idle'}>
        {fetcher.state !== 'idle' ? 'Enregistrement…' : 'Régler et rembourser'}
      </Button>
    </fetcher.Form>
  );
}

export function OrderMoneyActions({ order }: { order: OrderDetails }) {
  // The fetchers live here, not in the forms: a refund of all that remains (or a settlement) removes
  // its form when the dialog's data comes back, and its confirmation must still be shown.
  const refundFetcher = useFetcher<MoneyActionData>();
  const settleFetcher = useFetcher<MoneyActionData>();
  useResultToast(refundFetcher);
  useResultToast(settleFetcher);
  const settleWithdrawal = order.withdrawnAt !== null && order.status !== 'canceled' && order.money.refundableCents > 0;
  const canRefund = order.money.refundableCents > 0 && !settleWithdrawal;
  if (!canRefund && !settleWithdrawal && order.money.refunds.length === 0) return null;
  return (
    <section aria-labelledby="order-money-title" className="flex flex-col gap-4">
      <h3 id="order-money-title" className="font-semibold">
        Remboursements
      </h3>
      {order.money.refunds.length > 0 ? (
        <ul className="flex flex-col gap-1 text-sm">
          {order.money.refunds.map((refund) => (
            <li key={refund.id}>
              {formatDateTimeFr(refund.createdAt)} — {formatEurosFromCents(refund.amountCents)}{' '}
              {METHOD_WORDS[refund.method] ?? ''} · {REFUND_STATUS_LABELS[refund.status] ?? refund.status} ·{' '}
              {refund.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {settleWithdrawal ? <WithdrawalSettlementForm order={order} fetcher={settleFetcher} /> : null}
      {canRefund ? <RefundForm order={order} fetcher={refundFetcher} /> : null}
    </section>
  );
}
