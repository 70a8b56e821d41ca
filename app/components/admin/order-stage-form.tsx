import { ArrowRightIcon } from 'lucide-react';
import { useFetcher } from 'react-router';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import type { OrderDetails } from '~/domain/admin/views';
import { formatDateFr } from '~/domain/format';
import { WORKSHOP_STAGE_LABELS } from '~/domain/order-status';
import { useResultToast } from './use-result-toast';

export type StageActionData =
  | { intent: 'stage'; ok: true; message: string }
  | { intent: 'stage'; ok: false; error: string };

/**
 * The order's workshop section in the details dialog: its stage, due date and turnaround, and the
 * button that moves it to the next stage (a lifecycle transition, refused in French when it may not).
 * The button is the whole form (no field to validate): its answer is a toast, as the dialog's others.
 */
export function OrderWorkshop({ order, canMove }: { order: OrderDetails; canMove: boolean }) {
  const fetcher = useFetcher<StageActionData>();
  const { stage, dueAt, late, express, nextStage } = order.workshop;
  // The button is offered only when the lifecycle allows the move; otherwise its reason is shown.
  const move = nextStage ? order.allowed.stage[nextStage as keyof typeof order.allowed.stage] : undefined;
  useResultToast(fetcher);
  return (
    <section aria-labelledby="commande-atelier" className="flex flex-col gap-2 rounded-lg border border-border p-4">
      <h3 id="commande-atelier" className="font-semibold">
        Atelier
      </h3>
      <dl className="grid gap-2 sm:grid-cols-3">
        <div className="flex flex-col">
          <dt className="text-muted-foreground text-xs">Étape</dt>
          <dd className="text-sm">{WORKSHOP_STAGE_LABELS[stage]}</dd>
        </div>
        <div className="flex flex-col">
          <dt className="text-muted-foreground text-xs">Échéance</dt>
          <dd className="flex flex-wrap items-center gap-2 text-sm">
            {dueAt ? formatDateFr(dueAt) : 'Après la réception du colis'}
            {late ? <Badge variant="danger">En retard</Badge> : null}
          </dd>
        </div>
        <div className="flex flex-col">
          <dt className="text-muted-foreground text-xs">Délai</dt>
          <dd className="text-sm">{express ? 'Express' : 'Standard'}</dd>
        </div>
      </dl>
      {nextStage && canMove && move && !move.allowed ? (
        <p className="text-muted-foreground text-sm">{move.reason}</p>
      ) : null}
      {nextStage && canMove && move?.allowed ? (
        <fetcher.Form method="post" className="flex justify-end">
          <input type="hidden" name="intent" value="stage" />
          <input type="hidden" name="orderId" value={order.id} />
          <Button type="submit" size="sm" disabled={fetcher.state !== 'idle'}>
            <ArrowRightIcon aria-hidden="true" />
            Passer à l’étape « {WORKSHOP_STAGE_LABELS[nextStage]} »
          </Button>
        </fetcher.Form>
      ) : null}
    </section>
  );
}
