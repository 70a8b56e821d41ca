import { useFetcher } from 'react-router';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import type { BuyerCorrectionField } from '~/domain/einvoicing/buyer-correction';
import { formatDateTimeFr, NBSP } from '~/domain/format';

/*
 * The order dialog's « Facture électronique » section (docs/plateforme-agreee.md): each business
 * document's deposit on the plateforme agréée and the latest status it reported; a rejected
 * invoice shows the reason and the correction form (« Corriger et réémettre »); a failed deposit
 * can be retried; « Relever les statuts » reads them now. Plain forms posted to the orders tab's
 * action (they work before the JavaScript).
 */

export interface EinvoicingView {
  flows: Array<{
    id: string;
    kind: 'invoice' | 'credit_note' | 'status';
    documentNumber: string;
    state: 'queued' | 'deposited' | 'failed';
    attempts: number;
    lastError: string | null;
    depositedAt: string | null;
    statusCode: number | null;
    paStatus: number | null;
    paStatusLabel: string | null;
    paReason: string | null;
    canReissue: boolean;
  }>;
  business: (Record<BuyerCorrectionField, string> & { publicBody: boolean }) | null;
}

export type EinvoiceActionData =
  | { intent: 'einvoice'; ok: true; message: string }
  | { intent: 'einvoice'; ok: false; error: string; fieldErrors?: Record<string, string> };

const KIND_LABELS = { invoice: 'Facture', credit_note: 'Avoir', status: 'Statut «\u00a0Encaissée\u00a0»' } as const;

function stateText(flow: EinvoicingView['flows'][number]): string {
  if (flow.state === 'queued')
    return flow.attempts > 0 ? `En attente de dépôt (${flow.attempts} essai(s))` : 'En attente de dépôt';
  if (flow.state === 'failed') return 'Dépôt abandonné';
  return flow.paStatusLabel ?? 'Déposée';
}

export function OrderEinvoicing({
  orderId,
  view,
  canReissue,
  canWrite,
}: {
  orderId: string;
  view: EinvoicingView;
  canReissue: boolean;
  canWrite: boolean;
}) {
  const fetcher = useFetcher<EinvoiceActionData>();
  const result = fetcher.data?.intent === 'einvoice' ? fetcher.data : null;
  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  return (
    <section aria-labelledby="commande-einvoice" className="flex flex-col gap-2 rounded-lg border border-border p-4">
      <h3 id="commande-einvoice" className="font-semibold">
        Facture électronique (plateforme agréée)
      </h3>
      {result ? (
        <Alert variant={result.ok ? 'success' : 'danger'} role="status">
          {result.ok ? result.message : result.error}
        </Alert>
      ) : null}
      <ul className="flex flex-col gap-3 text-sm" data-testid="einvoice-flows">
        {view.flows.map((flow) => (
          <li key={flow.id} className="flex flex-col gap-1" data-testid="einvoice-flow">
            <p>
              <span className="font-medium">
                {KIND_LABELS[flow.kind]} {flow.documentNumber}
              </span>
              {NBSP}: <span data-testid="einvoice-state">{stateText(flow)}</span>
              {flow.depositedAt ? (
                <span className="text-muted-foreground"> · déposé le {formatDateTimeFr(flow.depositedAt)}</span>
              ) : null}
            </p>
            {flow.paReason ? (
              <p className="text-danger">
                Motif{NBSP}: {flow.paReason}
              </p>
            ) : null}
            {flow.lastError && flow.state !== 'deposited' ? (
              <p className="text-muted-foreground">
                Dernière erreur{NBSP}: {flow.lastError}
              </p>
            ) : null}
            {flow.state === 'failed' && canWrite ? (
              <fetcher.Form method="post">
                <input type="hidden" name="intent" value="einvoice-retry" />
                <input type="hidden" name="orderId" value={orderId} />
                <input type="hidden" name="paFlowId" value={flow.id} />
                <Button type="submit" size="sm" variant="outline">
                  Réessayer le dépôt
                </Button>
              </fetcher.Form>
            ) : null}
            {flow.canReissue && canReissue && view.business ? (
              <fetcher.Form method="post" className="flex flex-col gap-2 rounded-md bg-muted p-3" noValidate>
                <p>
                  Corrigez l’acheteur (la cause du rejet), puis réémettez{NBSP}: la facture {flow.documentNumber} est
                  annulée par un avoir et une nouvelle facture est émise et déposée.
                </p>
                <input type="hidden" name="intent" value="einvoice-reissue" />
                <input type="hidden" name="orderId" value={orderId} />
                <input type="hidden" name="paFlowId" value={flow.id} />
                <div className="grid gap-2 sm:grid-cols-2">
                  {(
                    [
                      ['companyName', 'Raison sociale'],
                      ['siren', 'SIREN'],
                      ['vatNumber', 'Numéro de TVA intracommunautaire'],
                      ['siret', 'SIRET de l’établissement (Chorus Pro)'],
                      ['chorusServiceCode', 'Code service (Chorus Pro)'],
                    ] as const
                  )
                    // A public body's establishment only: a company has none to correct.
                    .filter(([field]) => field !== 'siret' || view.business?.publicBody)
                    .map(([field, label]) => (
                      <div key={field} className="flex flex-col gap-1">
                        <Label htmlFor={`einvoice-${field}`}>{label}</Label>
                        <Input
                          id={`einvoice-${field}`}
                          name={field}
                          defaultValue={view.business?.[field] ?? ''}
                          aria-invalid={errors[field] ? true : undefined}
                          aria-describedby={errors[field] ? `einvoice-${field}-error` : undefined}
                        />
                        {errors[field] ? (
                          <p id={`einvoice-${field}-error`} className="text-danger text-xs">
                            {errors[field]}
                          </p>
                        ) : null}
                      </div>
                    ))}
                </div>
                <Button type="submit" size="sm" disabled={fetcher.state !== 'idle'}>
                  Corriger et réémettre
                </Button>
              </fetcher.Form>
            ) : null}
          </li>
        ))}
      </ul>
      {canWrite ? (
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="einvoice-poll" />
          <input type="hidden" name="orderId" value={orderId} />
          <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
            Relever les statuts maintenant
          </Button>
        </fetcher.Form>
      ) : null}
    </section>
  );
}
