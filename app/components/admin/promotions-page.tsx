import { getCollectionProps, getFormProps, useForm } from '@conform-to/react';
import { Form, useNavigation } from 'react-router';
import { CheckboxField, Field, RadioGroupField, UnitField } from '~/components/forms/field';
import { Alert } from '~/components/ui/alert';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { NBSP } from '~/domain/format';
import type { PromotionActionData, PromotionOfficeRow } from '~/domain/vouchers/promotion-office';
import type { PromotionState } from '~/domain/vouchers/promotions';

const STATE_TONES: Readonly<Record<PromotionState, 'success' | 'neutral' | 'warning' | 'danger' | 'info'>> = {
  active: 'success',
  scheduled: 'info',
  paused: 'warning',
  ended: 'neutral',
  used_up: 'neutral',
};

const KIND_OPTIONS = [
  { value: 'percent', label: 'Pourcentage' },
  { value: 'amount', label: 'Montant en euros' },
];

type SupportOption = { value: string; label: string };

/** « Codes promo »: the codes (terms, state, figures, pause and resume), then the creation form. */
export function PromotionsPage({
  rows,
  supports,
  today,
  actionData,
}: {
  rows: PromotionOfficeRow[];
  supports: SupportOption[];
  today: string;
  actionData: PromotionActionData | null;
}) {
  const rowAnswer = actionData && actionData.intent !== 'create' ? actionData : null;
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="codes-promo-liste" className="flex flex-col gap-3">
        <div>
          <h2 id="codes-promo-liste" className="font-heading font-semibold text-xl">
            Codes promo
          </h2>
          <p className="text-muted-foreground text-sm">
            Les utilisations, la remise accordée et le chiffre d’affaires comptent les commandes passées avec le code
            (une commande annulée avant paiement rend son utilisation)&#8239;; le chiffre d’affaires, celles qui sont
            payées.
          </p>
        </div>
        {rowAnswer ? (
          <Alert variant={rowAnswer.ok ? 'success' : 'danger'} role={rowAnswer.ok ? 'status' : 'alert'}>
            {rowAnswer.message}
          </Alert>
        ) : null}
        {rows.length === 0 ? (
          <p className="text-muted-foreground">Aucun code promo pour le moment.</p>
        ) : (
          <PromotionsTable rows={rows} />
        )}
      </section>
      <CreatePromotionForm
        supports={supports}
        today={today}
        lastResult={actionData?.intent === 'create' ? actionData : null}
      />
    </div>
  );
}

function PromotionsTable({ rows }: { rows: PromotionOfficeRow[] }) {
  const navigation = useNavigation();
  // Only while the post is on its way: the list's reload after the answer leaves the buttons usable.
  const busyId = navigation.state === 'submitting' ? navigation.formData?.get('promotionId') : null;
  return (
    <div className="rounded-md border">
      <Table>
        <caption className="sr-only">Codes promo, du plus récent au plus ancien</caption>
        <TableHeader>
          <TableRow>
            <TableHead scope="col">Code</TableHead>
            <TableHead scope="col">Libellé</TableHead>
            <TableHead scope="col">Remise</TableHead>
            <TableHead scope="col">Période</TableHead>
            <TableHead scope="col">Limites</TableHead>
            <TableHead scope="col">État</TableHead>
            <TableHead scope="col" className="text-right">
              Utilisations
            </TableHead>
            <TableHead scope="col" className="text-right">
              Remise accordée
            </TableHead>
            <TableHead scope="col" className="text-right">
              Chiffre d’affaires
            </TableHead>
            <TableHead scope="col">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableHead scope="row" className="font-mono font-semibold">
                {row.code}
              </TableHead>
              <TableCell>{row.label}</TableCell>
              <TableCell>{row.discount}</TableCell>
              <TableCell className="whitespace-nowrap">{row.period}</TableCell>
              <TableCell>{row.limits}</TableCell>
              <TableCell>
                <Badge variant={STATE_TONES[row.state]}>{row.stateLabel}</Badge>
              </TableCell>
              <TableCell className="text-right tabular-nums">{row.uses}</TableCell>
              <TableCell className="whitespace-nowrap text-right tabular-nums">{row.discountGiven}</TableCell>
              <TableCell className="whitespace-nowrap text-right tabular-nums">{row.revenue}</TableCell>
              <TableCell>
                <Form method="post">
                  <input type="hidden" name="intent" value={row.paused ? 'resume' : 'pause'} />
                  <input type="hidden" name="promotionId" value={row.id} />
                  <Button type="submit" variant="outline" size="sm" disabled={busyId === row.id}>
                    {row.paused ? 'Réactiver' : 'Suspendre'}
                    <span className="sr-only"> le code {row.code}</span>
                  </Button>
                </Form>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

interface PromotionFormFields {
  code: string;
  label: string;
  kind: string;
  percent: string;
  amount: string;
  supports: string[];
  minimum: string;
  startsOn: string;
  endsOn: string;
  maxUses: string;
  maxUsesPerCustomer: string;
  firstOrderOnly: string;
  combinable: string;
}

/**
 * The creation form: checked on the server only, by the domain's schema (promotionFormSchema),
 * whose French messages come back under the fields; a plain POST, so it works without JavaScript.
 */
function CreatePromotionForm({
  supports,
  today,
  lastResult,
}: {
  supports: SupportOption[];
  today: string;
  lastResult: PromotionActionData | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'create';
  const [form, fields] = useForm<PromotionFormFields>({
    id: 'nouveau-code-promo',
    lastResult: lastResult?.submission,
    defaultValue: { kind: 'percent', startsOn: today },
    shouldRevalidate: 'onInput',
  });
  const supportsErrors = fields.supports.allErrors ? Object.values(fields.supports.allErrors).flat() : [];
  const supportsErrorId = `${fields.supports.id}-error`;
  return (
    <section aria-labelledby="codes-promo-nouveau" className="flex flex-col gap-4 rounded-lg border bg-card p-4">
      <div>
        <h2 id="codes-promo-nouveau" className="font-heading font-semibold text-xl">
          Nouveau code promo
        </h2>
        <p className="text-muted-foreground text-sm">
          Les conditions d’un code ne changent plus après sa création&#8239;; il peut être suspendu puis réactivé.
        </p>
      </div>
      {lastResult ? (
        <Alert variant={lastResult.ok ? 'success' : 'danger'} role={lastResult.ok ? 'status' : 'alert'}>
          {lastResult.message}
        </Alert>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
        <input type="hidden" name="intent" value="create" />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            meta={fields.code}
            label="Code"
            hint="3 à 32 lettres ou chiffres, sans espace (par exemple NOEL20)"
            autoComplete="off"
            spellCheck={false}
          />
          <Field
            meta={fields.label}
            label="Libellé"
            hint="Ce que le client lit sur sa commande et sa facture"
            autoComplete="off"
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <RadioGroupField meta={fields.kind} legend="Type de remise" options={KIND_OPTIONS} />
          <UnitField meta={fields.percent} label="Pourcentage (remise en pourcentage)" unit="%" inputMode="numeric" />
          <UnitField meta={fields.amount} label="Montant (remise en euros)" unit="€" inputMode="decimal" />
        </div>
        <fieldset
          className="flex flex-col gap-1.5"
          aria-describedby={supportsErrors.length ? supportsErrorId : `${fields.supports.id}-hint`}
          aria-invalid={supportsErrors.length ? true : undefined}
        >
          <legend className="mb-1 font-medium text-sm">Supports concernés</legend>
          <p id={`${fields.supports.id}-hint`} className="text-muted-foreground text-xs">
            Aucun coché&#8239;: toute la numérisation. Jamais la livraison, les envois, l’express ni l’assurance.
          </p>
          <div className="grid gap-1.5 sm:grid-cols-3">
            {getCollectionProps(fields.supports, {
              type: 'checkbox',
              options: supports.map((support) => support.value),
            }).map(({ key, ...checkbox }, index) => (
              <label key={key} htmlFor={checkbox.id} className="flex items-center gap-2 text-sm">
                <input {...checkbox} className="size-4 shrink-0 accent-primary" />
                {supports[index]?.label}
              </label>
            ))}
          </div>
          {supportsErrors.length ? (
            <p id={supportsErrorId} className="text-destructive text-sm">
              {supportsErrors[0]}
            </p>
          ) : null}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-3">
          <UnitField
            meta={fields.minimum}
            label="Montant minimum de numérisation (facultatif)"
            unit="€"
            inputMode="decimal"
          />
          <Field meta={fields.startsOn} label="Premier jour" type="date" />
          <Field meta={fields.endsOn} label="Dernier jour (facultatif)" type="date" />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            meta={fields.maxUses}
            label="Utilisations au total (facultatif)"
            inputMode="numeric"
            hint={`Vide${NBSP}: sans limite`}
          />
          <Field
            meta={fields.maxUsesPerCustomer}
            label="Utilisations par client (facultatif)"
            inputMode="numeric"
            hint={`Vide${NBSP}: sans limite`}
          />
        </div>
        <div className="flex flex-col gap-2">
          <CheckboxField meta={fields.firstOrderOnly} label="Réservé à une première commande" />
          <CheckboxField meta={fields.combinable} label="Cumulable avec d’autres codes" />
        </div>
        <Button type="submit" disabled={busy} className="w-fit">
          {busy ? 'Création…' : 'Créer le code'}
        </Button>
      </Form>
    </section>
  );
}
