import { useEffect } from 'react';
import { useFetcher } from 'react-router';
import { toast } from 'sonner';
import { FormAlert } from '~/components/auth/form-alert';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Textarea } from '~/components/ui/textarea';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import { MAX_COUNT, MAX_REMARK_LENGTH } from '~/domain/orders/reception';
import type { loader as receptionLoader } from '~/routes/admin/api/reception';

/*
 * « Colis reçu » in the order dialog (issue 15): while the originals are awaited, the form (date,
 * counted quantity per line prefilled with what was ordered, remarks per support, photos); once
 * received, what was counted, the remarks, the photos and the supplement or reduction, with the
 * customer's refusal the staff can record for them.
 */

type PanelData = Awaited<ReturnType<typeof receptionLoader>>['data'];
type ActionData =
  | { ok: true; outcome: string; differenceCents: number; refundError: string | null }
  | { ok: false; error: string };

const OUTCOME_MESSAGES: Record<string, (cents: number) => string> = {
  equal: () => 'Colis reçu : les quantités correspondent à la commande.',
  supplement: (cents) => `Colis reçu : un supplément de ${formatEurosFromCents(cents)} est demandé au client.`,
  reduction: (cents) => `Colis reçu : ${formatEurosFromCents(-cents)} sont remboursés au client.`,
};

const ADJUSTMENT_STATUS: Record<string, string> = {
  awaiting_customer: 'en attente du client',
  paid: 'payé',
  declined: 'refusé',
  refunded: 'remboursé',
  canceled: 'annulé',
};

function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
}

export function ReceptionPanel({ orderId }: { orderId: string }) {
  const panel = useFetcher<PanelData>();
  const submit = useFetcher<ActionData>();
  const url = `/admin/api/reception/${orderId}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per order, and again after each change
  useEffect(() => {
    if (submit.state === 'idle') panel.load(url);
  }, [url, submit.state]);

  useEffect(() => {
    const result = submit.data;
    if (submit.state !== 'idle' || !result?.ok) return;
    if ('outcome' in result) toast.success(OUTCOME_MESSAGES[result.outcome]?.(result.differenceCents) ?? 'Colis reçu.');
    if (result.refundError) toast.error(result.refundError);
  }, [submit.state, submit.data]);

  const value = panel.data;
  const error = submit.data && !submit.data.ok ? submit.data.error : null;
  return (
    <section aria-labelledby="commande-reception" className="flex flex-col gap-3 rounded-lg border border-border p-4">
      <h3 id="commande-reception" className="font-semibold">
        Réception des originaux
      </h3>
      {!value ? <p className="text-muted-foreground text-sm">Chargement…</p> : null}
      {value?.form ? (
        <submit.Form method="post" action={url} encType="multipart/form-data" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="receive" />
          <div className="flex flex-col gap-1">
            <Label htmlFor="reception-date">Date de réception</Label>
            <Input
              id="reception-date"
              name="date"
              type="date"
              defaultValue={today()}
              max={today()}
              required
              className="w-fit"
            />
          </div>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 font-medium text-sm">Quantités comptées</legend>
            {value.form.lines.map((line) => (
              <div key={line.key} className="flex flex-wrap items-center gap-2">
                <Label htmlFor={`count-${line.key}`} className="min-w-48 flex-1">
                  {line.label} <span className="text-muted-foreground">(commandé : {line.ordered})</span>
                </Label>
                <Input
                  id={`count-${line.key}`}
                  name={`count-${line.key}`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={MAX_COUNT}
                  step={1}
                  defaultValue={line.ordered}
                  required
                  className="w-28"
                />
              </div>
            ))}
          </fieldset>
          {value.form.groups.map((group) => (
            <div key={group.group} className="flex flex-col gap-1">
              <Label htmlFor={`remark-${group.group}`}>Remarques — {group.label}</Label>
              <Textarea
                id={`remark-${group.group}`}
                name={`remark-${group.group}`}
                rows={2}
                maxLength={MAX_REMARK_LENGTH}
                placeholder="Moisissures, cassette cassée…"
              />
            </div>
          ))}
          <div className="flex flex-col gap-1">
            <Label htmlFor="reception-photos">Photos du contenu (JPEG, PNG ou WebP, 8 Mo et 10 photos au plus)</Label>
            <Input id="reception-photos" name="photos" type="file" accept="image/jpeg,image/png,image/webp" multiple />
          </div>
          <FormAlert errors={error ? [error] : null} />
          <Button type="submit" className="w-fit" disabled={submit.state !== 'idle'}>
            {submit.state !== 'idle' ? 'Enregistrement…' : 'Colis reçu'}
          </Button>
        </submit.Form>
      ) : null}
      {value?.reception ? (
        <div className="flex flex-col gap-2 text-sm">
          <p>
            Reçu le {formatDateFr(value.reception.receivedAt)} par {value.reception.receivedByName}.
          </p>
          <ul className="flex flex-col gap-1">
            {value.reception.counts.map((line) => (
              <li key={line.label}>
                {line.label} : {line.counted} reçus pour {line.ordered} commandés
              </li>
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
                <submit.Form method="post" action={url} className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="intent" value="decline" />
                  <input type="hidden" name="adjustmentId" value={adjustment.id} />
                  <div className="flex flex-col gap-1">
                    <Label htmlFor={`decision-${adjustment.id}`}>Refus du client</Label>
                    <select
                      id={`decision-${adjustment.id}`}
                      name="decision"
                      className="h-9 rounded-md border border-input bg-background px-2"
                    >
                      <option value="digitise_paid">Numériser seulement ce qui est payé</option>
                      <option value="return_extra">Retourner les originaux en plus</option>
                    </select>
                  </div>
                  <Button type="submit" variant="outline" size="sm" disabled={submit.state !== 'idle'}>
                    Enregistrer le refus
                  </Button>
                </submit.Form>
              ) : null}
            </div>
          ))}
        </div>
      ) : null}
      {value && !value.form && !value.reception ? (
        <p className="text-muted-foreground text-sm">Aucune réception enregistrée.</p>
      ) : null}
    </section>
  );
}
