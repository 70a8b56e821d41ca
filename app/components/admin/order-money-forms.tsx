import { useEffect, useId, useRef } from 'react';
import { type FetcherWithComponents, useFetcher } from 'react-router';
import { toast } from 'sonner';
import type { OrderDetails } from '~/domain/admin/views';
import { formatDateTimeFr, formatEurosFromCents } from '~/domain/format';
import { REFUND_METHOD_LABELS, REFUND_METHODS, type RefundMethodChoice } from '~/domain/orders/refund-form';
import { Button } from '../ui/button';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { Textarea } from '../ui/textarea';

/*
 * The money actions of the order dialog: refund (part or all of what was paid, through the gateway
 * that took it or recorded as made by hand), the refund that goes with a cancellation, and the
 * settlement of a withdrawal after the work started (the proportionate amount kept). The server
 * (routes/admin/orders.tsx → the order lifecycle) checks every amount again.
 */

export type MoneyActionData =
  | { intent: 'refund' | 'settle-withdrawal'; ok: true; message: string }
  | { intent: 'refund' | 'settle-withdrawal'; ok: false; error: string; fieldErrors?: Record<string, string> };

const REFUND_STATUS_LABELS: Record<string, string> = {
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

function MethodChoice({ order, name = 'method' }: { order: OrderDetails; name?: string }) {
  const id = useId();
  const choices = methods(order);
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1 font-medium text-sm">Comment rembourser</legend>
      {choices.map((method, index) => (
        <label key={method} htmlFor={`${id}-${method}`} className="flex items-center gap-2 text-sm">
          <input id={`${id}-${method}`} type="radio" name={name} value={method} defaultChecked={index === 0} />
          {method === 'gateway' && order.money.gateway
            ? `Par ${order.money.gateway} (sur le moyen de paiement du client)`
            : REFUND_METHOD_LABELS[method]}
        </label>
      ))}
    </fieldset>
  );
}

/** The refund fields a cancellation of a paid order carries (inside the status form). */
export function CancelRefundFields({ order }: { order: OrderDetails }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-3 rounded-md border border-border bg-muted/40 p-3">
      <p className="text-sm">
        Cette commande a été payée : indiquez ce qui est remboursé avec l’annulation (jusqu’à{' '}
        {formatEurosFromCents(order.money.refundableCents)}, 0 pour ne rien rembourser). Un avoir est émis pour le
        montant remboursé.
      </p>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-amount`}>Montant remboursé (€)</Label>
        <Input
          id={`${id}-amount`}
          name="refundAmount"
          inputMode="decimal"
          defaultValue={euroInput(order.money.refundableCents)}
          required
        />
      </div>
      <MethodChoice order={order} name="refundMethod" />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-reason`}>Motif</Label>
        <Input id={`${id}-reason`} name="refundReason" defaultValue="Commande annulée" required maxLength={500} />
      </div>
    </div>
  );
}

function useMoneyFetcher(onDone?: () => void) {
  const fetcher = useFetcher<MoneyActionData>();
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      toast.success(result.message);
      onDone?.();
    } else {
      toast.error(result.error);
    }
  }, [fetcher.state, fetcher.data, onDone]);
  return fetcher;
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="text-destructive text-sm">
      {message}
    </p>
  ) : null;
}

type MoneyFetcher = FetcherWithComponents<MoneyActionData>;

function RefundForm({
  order,
  fetcher,
  form,
}: {
  order: OrderDetails;
  fetcher: MoneyFetcher;
  form: React.RefObject<HTMLFormElement | null>;
}) {
  const id = useId();
  const errors = fetcher.data && !fetcher.data.ok ? (fetcher.data.fieldErrors ?? {}) : {};
  return (
    <fetcher.Form ref={form} method="post" className="flex flex-col gap-3" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`} className="font-semibold text-sm">
        Rembourser
      </h4>
      <input type="hidden" name="intent" value="refund" />
      <input type="hidden" name="orderId" value={order.id} />
      <p className="text-muted-foreground text-sm">
        Jusqu’à {formatEurosFromCents(order.money.refundableCents)} (payé moins déjà remboursé). Un avoir est émis et
        envoyé au client.
      </p>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-amount`}>Montant à rembourser (€)</Label>
        <Input
          id={`${id}-amount`}
          name="amount"
          inputMode="decimal"
          required
          aria-invalid={Boolean(errors.amount)}
          aria-describedby={errors.amount ? `${id}-amount-error` : undefined}
        />
        <FieldError id={`${id}-amount-error`} message={errors.amount} />
      </div>
      <MethodChoice order={order} />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-reason`}>Motif du remboursement</Label>
        <Textarea
          id={`${id}-reason`}
          name="reason"
          required
          maxLength={500}
          rows={2}
          aria-invalid={Boolean(errors.reason)}
          aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
        />
        <FieldError id={`${id}-reason-error`} message={errors.reason} />
      </div>
      <Button type="submit" variant="outline" className="w-fit" disabled={fetcher.state !== 'idle'}>
        {fetcher.state !== 'idle' ? 'Remboursement…' : 'Rembourser'}
      </Button>
    </fetcher.Form>
  );
}

function WithdrawalSettlementForm({ order, fetcher }: { order: OrderDetails; fetcher: MoneyFetcher }) {
  const id = useId();
  const errors = fetcher.data && !fetcher.data.ok ? (fetcher.data.fieldErrors ?? {}) : {};
  return (
    <fetcher.Form method="post" className="flex flex-col gap-3" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`} className="font-semibold text-sm">
        Régler la rétractation
      </h4>
      <input type="hidden" name="intent" value="settle-withdrawal" />
      <input type="hidden" name="orderId" value={order.id} />
      <p className="text-muted-foreground text-sm">
        Le client s’est rétracté après le début de la prestation, commencée à sa demande expresse. Indiquez le montant
        conservé, proportionnel au travail déjà fait ; le reste ({formatEurosFromCents(order.money.refundableCents)} au
        plus) lui est remboursé et la commande est annulée.
      </p>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-kept`}>Montant conservé (€)</Label>
        <Input
          id={`${id}-kept`}
          name="kept"
          inputMode="decimal"
          required
          aria-invalid={Boolean(errors.kept)}
          aria-describedby={errors.kept ? `${id}-kept-error` : undefined}
        />
        <FieldError id={`${id}-kept-error`} message={errors.kept} />
      </div>
      <MethodChoice order={order} />
      <Button type="submit" variant="outline" className="w-fit" disabled={fetcher.state !== 'idle'}>
        {fetcher.state !== 'idle' ? 'Enregistrement…' : 'Régler et rembourser'}
      </Button>
    </fetcher.Form>
  );
}

export function OrderMoneyActions({ order }: { order: OrderDetails }) {
  // The fetchers live here, not in the forms: a refund of all that remains (or a settlement) removes
  // its form when the dialog's data comes back, and its confirmation must still be shown.
  const refundForm = useRef<HTMLFormElement>(null);
  const refundFetcher = useMoneyFetcher(() => refundForm.current?.reset());
  const settleFetcher = useMoneyFetcher();
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
      {canRefund ? <RefundForm order={order} fetcher={refundFetcher} form={refundForm} /> : null}
    </section>
  );
}
