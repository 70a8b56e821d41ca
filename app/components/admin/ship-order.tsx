import { getFormProps, useForm } from '@conform-to/react';
import { DownloadIcon, TruckIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { Field, RadioGroupField } from '~/components/forms/field';
import { Button } from '~/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog';
import { toast } from '~/components/ui/toaster';
import { formatEurosFromCents, NNBSP } from '~/domain/format';
import type { ShipFormInput } from '~/domain/shipping/ship-form';
import type { ShipmentSummary, ShippingFacts } from '~/domain/shipping/shipments';
import { trackingUrl } from '~/domain/shipping/tracking';
import type { ShipAnswer } from '~/routes/admin/api/shipping';

/*
 * The order's parcels in its dialog (the prepaid sending label, the return) and « Expédier »: a
 * dialog that ships the order with a Colissimo return label or a typed tracking number. The data
 * and the action are /admin/api/expedition (routes/admin/api/shipping.ts).
 */

export const SHIPPING_PATH = '/admin/api/expedition';

// The dialog's loader answers ShippingFacts as JSON: the parcels' dates, which it does not show, are strings there.
type ShipmentView = Omit<ShipmentSummary, 'createdAt'>;
type ShippingView = Omit<ShippingFacts, 'shipments'> & { shipments: ShipmentView[] };

function labelHref(orderId: string, direction: ShipmentView['direction']): string {
  return `${SHIPPING_PATH}?${new URLSearchParams({ orderId, etiquette: direction === 'inbound' ? 'envoi' : 'retour' })}`;
}

function Parcel({
  orderId,
  shipment,
  onCorrect,
}: {
  orderId: string;
  shipment: ShipmentView;
  /** Offered for a number typed at shipping (a label's own number is never mistyped). */
  onCorrect: (() => void) | null;
}) {
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <span className="font-medium">{shipment.direction === 'inbound' ? 'Envoi des originaux' : 'Retour'}</span>
      {shipment.carrier === 'colissimo' ? (
        <a
          href={trackingUrl(shipment.parcelNumber)}
          target="_blank"
          rel="noreferrer"
          className="text-primary underline underline-offset-4"
        >
          Suivi {shipment.parcelNumber}
        </a>
      ) : (
        <span>Suivi {shipment.parcelNumber}</span>
      )}
      <span className="text-muted-foreground">
        {shipment.carrier === 'colissimo' ? 'Colissimo' : 'Autre transporteur'}
      </span>
      {shipment.hasLabel ? (
        <a
          href={labelHref(orderId, shipment.direction)}
          className="inline-flex items-center gap-1 text-primary underline underline-offset-4"
        >
          <DownloadIcon className="size-3" aria-hidden="true" />
          Étiquette {shipment.direction === 'inbound' ? 'd’envoi' : 'de retour'} (PDF)
        </a>
      ) : null}
      {onCorrect ? (
        <Button type="button" size="sm" variant="outline" onClick={onCorrect}>
          Corriger le numéro de suivi
        </Button>
      ) : null}
    </li>
  );
}

const LA_POSTE_NUMBER = 'Saisir un numéro de suivi Colissimo ou La Poste';
const OTHER_CARRIER = `Saisir un numéro de suivi (transporteur «${NNBSP}Autre${NNBSP}»)`;
const TYPED_MODES = [
  { value: 'laposte', label: LA_POSTE_NUMBER },
  { value: 'other', label: OTHER_CARRIER },
];

/** « Expédier », or (`correcting`) « Corriger le numéro de suivi » of the parcel already sent. */
function ShipDialog({
  orderId,
  view,
  onClose,
  correcting = false,
}: {
  orderId: string;
  view: ShippingView;
  onClose: () => void;
  correcting?: boolean;
}) {
  const fetcher = useFetcher<ShipAnswer>();
  const handled = useRef<unknown>(null);
  const answer = fetcher.data;
  useEffect(() => {
    if (fetcher.state !== 'idle' || !answer || handled.current === answer) return;
    handled.current = answer;
    if (answer.ok) {
      toast.success(correcting ? 'Numéro de suivi corrigé' : 'Commande expédiée', {
        description: `Commande ${answer.orderNumber} : colis ${answer.parcelNumber}`,
      });
      onClose();
    }
  }, [fetcher.state, answer, onClose, correcting]);
  // Validated on the server (routes/admin/api/shipping.ts, parseWithZod with the domain's schema):
  // the tracking number's message under its field, a carrier's refusal in the form's alert.
  const [form, fields] = useForm<ShipFormInput>({
    id: `${correcting ? 'correct' : 'ship'}-${orderId}`,
    lastResult: answer?.submission,
    defaultValue: { mode: view.returnLabel && !correcting ? 'colissimo' : 'laposte' },
    shouldRevalidate: 'onInput',
  });
  const modes = [
    ...(view.returnLabel && !correcting
      ? [{ value: 'colissimo', label: 'Générer une étiquette de retour Colissimo' }]
      : []),
    ...TYPED_MODES,
  ];
  const typed = fields.mode.value === 'laposte' || fields.mode.value === 'other';
  const busy = fetcher.state !== 'idle';
  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>
            {correcting ? 'Corriger le numéro de suivi de la commande' : 'Expédier la commande'} {view.orderNumber}
          </DialogTitle>
          <DialogDescription>
            Valeur assurée{'\u00A0'}:{' '}
            {view.insuredValueCents > 0 ? formatEurosFromCents(view.insuredValueCents) : 'aucune (envoi non assuré)'}
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" action={SHIPPING_PATH} className="flex flex-col gap-4" {...getFormProps(form)}>
          <input type="hidden" name="orderId" value={orderId} />
          {correcting ? <input type="hidden" name="intent" value="correct" /> : null}
          <RadioGroupField
            meta={fields.mode}
            legend="Mode d’expédition"
            options={modes}
            className="flex flex-col gap-2"
          />
          {typed ? (
            <Field meta={fields.parcelNumber} label="Numéro de suivi" maxLength={60} autoComplete="off" />
          ) : null}
          <FormAlert id={form.errorId} errors={form.errors} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Annuler
            </Button>
            <Button type="submit" disabled={busy}>
              <TruckIcon aria-hidden="true" />
              {correcting ? (busy ? 'Correction…' : 'Corriger') : busy ? 'Expédition…' : 'Expédier'}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}

/** The order's parcels and the « Expédier » button (when the rule book allows shipping now). */
export function OrderShipping({ orderId, status }: { orderId: string; status: string }) {
  const loader = useFetcher<ShippingView>();
  const [open, setOpen] = useState<'ship' | 'correct' | null>(null);
  const { load } = loader;
  const url = `${SHIPPING_PATH}?${new URLSearchParams({ orderId, statut: status })}`;
  // Loaded again when the order's status changes (shipped here or elsewhere in the dialog).
  useEffect(() => {
    void load(url);
  }, [load, url]);
  const view = loader.data;
  if (!view) return null;
  return (
    <section aria-labelledby="commande-expedition" className="flex flex-col gap-2 rounded-lg border border-border p-4">
      <h3 id="commande-expedition" className="font-semibold">
        Expédition
      </h3>
      {view.shipments.length > 0 ? (
        <ul className="flex flex-col gap-1">
          {view.shipments.map((shipment) => (
            <Parcel
              key={shipment.direction}
              orderId={orderId}
              shipment={shipment}
              onCorrect={
                shipment.direction === 'outbound' && !shipment.hasLabel && status === 'shipped'
                  ? () => setOpen('correct')
                  : null
              }
            />
          ))}
        </ul>
      ) : (
        <p className="text-muted-foreground text-sm">Aucun colis enregistré.</p>
      )}
      {view.refusal === null ? (
        <Button type="button" className="w-fit" onClick={() => setOpen('ship')}>
          <TruckIcon aria-hidden="true" />
          Expédier
        </Button>
      ) : null}
      {open ? (
        <ShipDialog
          orderId={orderId}
          view={view}
          correcting={open === 'correct'}
          onClose={() => {
            // A correction leaves the status as it is: the parcels are read again.
            if (open === 'correct') void load(url);
            setOpen(null);
          }}
        />
      ) : null}
    </section>
  );
}
