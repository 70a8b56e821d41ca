import { CopyIcon, EyeIcon } from 'lucide-react';
import { useState } from 'react';
import { useFetcher } from 'react-router';
import type { OrderDetails } from '~/domain/admin/views';
import { formatDateFr } from '~/domain/format';
import { Button } from '../ui/button';
import { toast } from '../ui/toaster';

/*
 * The customer's IBAN in « À rembourser » (decision 025): whether it was given (« IBAN reçu le … »,
 * masked) or is awaited; whoever holds the refund right shows it in full to pay the transfer
 * (journaled by the server: `reveal-iban`) and copies it. The full value lives only in this
 * component's state, never in the dialog's loader data.
 */

export type RevealIbanData =
  | {
      intent: 'reveal-iban';
      ok: true;
      iban: { holder: string; formatted: string; compact: string; bic: string | null };
    }
  | { intent: 'reveal-iban'; ok: false; error: string };

export function RefundIbanPanel({ order, canPay }: { order: OrderDetails; canPay: boolean }) {
  const fetcher = useFetcher<RevealIbanData>();
  const [copied, setCopied] = useState(false);
  const iban = order.money.iban;
  if (!iban) return null;
  const revealed = fetcher.data?.ok ? fetcher.data.iban : null;
  const copy = async (value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success('IBAN copié.');
    } catch {
      toast.error('La copie a échoué : sélectionnez l’IBAN et copiez-le.');
    }
  };
  return (
    <div className="flex flex-col gap-2 rounded-md border border-amber-300 bg-background p-3" data-testid="refund-iban">
      {iban.receivedAt ? (
        <p>
          <strong>IBAN reçu le {formatDateFr(iban.receivedAt)}</strong> : {iban.masked}
        </p>
      ) : (
        <p>
          <strong>En attente de l’IBAN du client</strong> (demandé par e-mail le {formatDateFr(iban.requestedAt)}).
        </p>
      )}
      {iban.receivedAt && canPay ? (
        revealed ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-muted-foreground">Titulaire</dt>
            <dd>{revealed.holder}</dd>
            <dt className="text-muted-foreground">IBAN</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span className="font-mono" data-testid="refund-iban-full">
                {revealed.formatted}
              </span>
              <Button type="button" size="sm" variant="outline" onClick={() => copy(revealed.compact)}>
                <CopyIcon className="size-4" aria-hidden="true" />
                {copied ? 'Copié' : 'Copier l’IBAN'}
              </Button>
            </dd>
            {revealed.bic ? (
              <>
                <dt className="text-muted-foreground">BIC</dt>
                <dd className="font-mono">{revealed.bic}</dd>
              </>
            ) : null}
          </dl>
        ) : (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="reveal-iban" />
            <input type="hidden" name="orderId" value={order.id} />
            <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
              <EyeIcon className="size-4" aria-hidden="true" />
              Afficher l’IBAN complet
            </Button>
            {fetcher.data && !fetcher.data.ok ? <p className="text-destructive">{fetcher.data.error}</p> : null}
          </fetcher.Form>
        )
      ) : null}
      {canPay ? (
        <p className="text-muted-foreground">
          Une fois le virement fait, choisissez « Par virement » et marquez le remboursement payé : l’avoir est émis, le
          client prévenu et son IBAN effacé.
        </p>
      ) : null}
    </div>
  );
}
