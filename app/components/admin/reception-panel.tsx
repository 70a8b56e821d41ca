import { type FieldMetadata, getFormProps, useForm } from '@conform-to/react';
import { useEffect } from 'react';
import { type FetcherWithComponents, useFetcher } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { Field, SelectField, TextareaField } from '~/components/forms/field';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { toast } from '~/components/ui/toaster';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import {
  MAX_COUNT,
  MAX_REMARK_LENGTH,
  receivedCountText,
  SUPPLEMENT_REFUSALS,
  type SupplementRefusalInput,
} from '~/domain/orders/reception';
import type { ReceptionActionData, loader as receptionLoader } from '~/routes/admin/api/reception';

/*
 * « Colis reçu » in the order dialog: while the originals are awaited, the form (date,
 * counted quantity per line prefilled with what was ordered, remarks per support, photos); once
 * received, what was counted, the remarks, the photos and the supplement or reduction, with the
 * customer's refusal the staff can record for them.
 */

type PanelData = Awaited<ReturnType<typeof receptionLoader>>['data'];
type ReceptionFormView = NonNullable<PanelData['form']>;
type SubmitFetcher = FetcherWithComponents<ReceptionActionData>;
/** `date`, then `count-<line>` and `remark-<support>` (the order's own lines and supports). */
type ReceptionFields = { date: string; [name: string]: string };

const OUTCOME_MESSAGES: Record<string, (cents: number) => string> = {
  equal: () => 'Colis reçu : les quantités correspondent à la commande.',
  supplement: (cents) => `Colis reçu : un supplément de ${formatEurosFromCents(cents)} est demandé au client.`,
  reduction: (cents) => `Colis reçu : ${formatEurosFromCents(-cents)} de moins que la commande.`,
};

const ADJUSTMENT_STATUS: Record<string, string> = {
  awaiting_customer: 'en attente du client',
  paid: 'payé',
  declined: 'refusé',
  refund_due: 'à rembourser',
  refunded: 'remboursé',
  canceled: 'annulé',
};

function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
}

/** The submission of the form that posted last, for that form only (both share the panel's fetcher). */
function lastResultOf(fetcher: SubmitFetcher, intent: 'receive' | 'decline') {
  return fetcher.data?.intent === intent ? fetcher.data.submission : undefined;
}

/**
 * « Colis reçu »: the date, the counted quantities and the remarks go through Conform (validated on
 * the server with the domain's schema, each message under its field); the photos are the same
 * multipart post, checked by the server (their refusal in the form's alert).
 */
function ReceiveForm({
  orderId,
  form: view,
  url,
  fetcher,
}: {
  orderId: string;
  form: ReceptionFormView;
  url: string;
  fetcher: SubmitFetcher;
}) {
  const [form, fields] = useForm<ReceptionFields>({
    id: `reception-${orderId}`,
    lastResult: lastResultOf(fetcher, 'receive'),
    defaultValue: {
      date: today(),
      ...Object.fromEntries(view.lines.map((line) => [`count-${line.key}`, String(line.ordered)])),
    },
    shouldRevalidate: 'onInput',
  });
  // A count below the order by someone who may refund: the server previewed the refund; confirming
  // posts the amount seen (another count is previewed again).
  const previewed =
    fetcher.data?.intent === 'receive' && !fetcher.data.ok ? fetcher.data.confirmRefundCents : undefined;
  return (
    <fetcher.Form
      method="post"
      action={url}
      encType="multipart/form-data"
      className="flex flex-col gap-3"
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value="receive" />
      <Field
        meta={fields.date}
        label="Date de réception"
        type="date"
        max={today()}
        className="flex w-fit flex-col gap-1"
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium text-sm">Quantités comptées</legend>
        {view.lines.map((line) => (
          <Field
            key={line.key}
            meta={fields[`count-${line.key}`] as FieldMetadata<string>}
            label={
              <>
                {line.label} <span className="text-muted-foreground">(commandé : {line.ordered})</span>
              </>
            }
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_COUNT}
            step={1}
            className="flex flex-col gap-1"
          />
        ))}
      </fieldset>
      {view.groups.map((group) => (
        <TextareaField
          key={group.group}
          meta={fields[`remark-${group.group}`] as FieldMetadata<string>}
          label={`Remarques — ${group.label}`}
          rows={2}
          maxLength={MAX_REMARK_LENGTH}
          placeholder="Moisissures, cassette cassée…"
          className="flex flex-col gap-1"
        />
      ))}
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${form.id}-photos`}>Photos du contenu (JPEG, PNG ou WebP, 8 Mo et 10 photos au plus)</Label>
        <Input id={`${form.id}-photos`} name="photos" type="file" accept="image/jpeg,image/png,image/webp" multiple />
      </div>
      <FormAlert id={form.errorId} errors={form.errors} />
      {previewed ? <input type="hidden" name="confirmedRefundCents" value={previewed} /> : null}
      <Button type="submit" className="w-fit" disabled={fetcher.state !== 'idle'}>
        {fetcher.state !== 'idle'
          ? 'Enregistrement…'
          : previewed
            ? `Confirmer et rembourser ${formatEurosFromCents(previewed)}`
            : 'Colis reçu'}
      </Button>
    </fetcher.Form>
  );
}

/** « Refus du client »: the customer's refusal of the open supplement, recorded for them. */
function RefusalForm({ adjustmentId, url, fetcher }: { adjustmentId: string; url: string; fetcher: SubmitFetcher }) {
  const [form, fields] = useForm<SupplementRefusalInput>({
    id: `refus-${adjustmentId}`,
    lastResult: lastResultOf(fetcher, 'decline'),
    defaultValue: { adjustmentId, decision: 'digitise_paid' },
  });
  return (
    <fetcher.Form method="post" action={url} className="flex flex-col gap-2" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="decline" />
      <input type="hidden" name="adjustmentId" value={adjustmentId} />
      <div className="flex flex-wrap items-end gap-2">
        <SelectField
          meta={fields.decision}
          label="Refus du client"
          options={SUPPLEMENT_REFUSALS}
          className="flex flex-col gap-1"
        />
        <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== 'idle'}>
          Enregistrer le refus
        </Button>
      </div>
      <FormAlert id={form.errorId} errors={form.errors} />
    </fetcher.Form>
  );
}

export function ReceptionPanel({ orderId }: { orderId: string }) {
  const panel = useFetcher<PanelData>();
  const submit = useFetcher<ReceptionActionData>();
  const url = `/admin/api/reception/${orderId}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per order, and again after each change
  useEffect(() => {
    if (submit.state === 'idle') panel.load(url);
  }, [url, submit.state]);

  useEffect(() => {
    const result = submit.data;
    if (submit.state !== 'idle' || !result?.ok || result.intent !== 'receive') return;
    toast.success(OUTCOME_MESSAGES[result.outcome]?.(result.differenceCents) ?? 'Colis reçu.');
    if (result.refundError) toast.error(result.refundError);
    if (result.toApproveCents) {
      toast.info(
        `${formatEurosFromCents(result.toApproveCents)} à rembourser : en attente d’approbation par la comptabilité.`,
      );
    }
  }, [submit.state, submit.data]);

  const value = panel.data;
  return (
    <section aria-labelledby="commande-reception" className="flex flex-col gap-3 rounded-lg border border-border p-4">
      <h3 id="commande-reception" className="font-semibold">
        Réception des originaux
      </h3>
      {!value ? <p className="text-muted-foreground text-sm">Chargement…</p> : null}
      {value?.form ? <ReceiveForm orderId={orderId} form={value.form} url={url} fetcher={submit} /> : null}
      {value?.reception ? (
        <div className="flex flex-col gap-2 text-sm">
          <p>
            Reçu le {formatDateFr(value.reception.receivedAt)} par {value.reception.receivedByName}.
          </p>
          <ul className="flex flex-col gap-1">
            {value.reception.counts.map((line) => (
              <li key={line.label}>{receivedCountText(line)}</li>
            ))}
          </ul>
          {value.reception.remarks.map((remark) => (
            <p key={remark.group}>
              <span className="font-medium">{remark.group} :</span> {remark.text}
            </p>
          ))}
          {value.reception.photos.length > 0 ? (
            <ul className="flex flex-wrap gap-2" aria-label="Photos du contenu">
              {value.reception.photos.map((photo) => (
                <li key={photo.id}>
                  <a href={`/admin/api/reception-photo/${photo.id}`} target="_blank" rel="noreferrer">
                    <img
                      src={`/admin/api/reception-photo/${photo.id}`}
                      alt={`Contenu du colis : ${photo.name}`}
                      className="size-20 rounded border border-border object-cover"
                    />
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          {value.reception.adjustments.map((adjustment) => (
            <div key={adjustment.id} className="flex flex-col gap-2">
              <p>
                {adjustment.kind === 'supplement' ? 'Supplément' : 'Réduction'} de{' '}
                {formatEurosFromCents(adjustment.amountCents)} :{' '}
                {ADJUSTMENT_STATUS[adjustment.status] ?? adjustment.status}
              </p>
              {adjustment.status === 'awaiting_customer' ? (
                <RefusalForm adjustmentId={adjustment.id} url={url} fetcher={submit} />
              ) : null}
            </div>
          ))}
        </div>
      ) : null}
      {value && !value.form && !value.reception ? (
        <p className="text-muted-foreground text-sm">
          {value.closed ? `Aucune réception enregistrée. ${value.closed}` : 'Aucune réception enregistrée.'}
        </p>
      ) : null}
    </section>
  );
}
