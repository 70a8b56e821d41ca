import { type FieldMetadata, getFormProps, parse, type SubmissionResult, useForm } from '@conform-to/react';
import { CalculatorIcon, RefreshCwIcon, SaveIcon, ShoppingCartIcon, TriangleAlertIcon } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import {
  DELIVERY_METHODS,
  FORMATS,
  type PriceListDocument,
  QUALITIES,
  REEL_SIZES,
  RESOLUTIONS,
  SEND_METHODS,
  SUPPORT_TYPES,
  type SupportType,
} from '~/domain/pricing/default-price-list';
import {
  DELIVERY_DETAILS,
  DELIVERY_LABELS,
  expressOptionTitle,
  physicalDeliverySentence,
  RETURN_ORIGINALS_LABEL,
  SEND_METHOD_LABELS,
  standardTurnaroundSentence,
} from '~/domain/pricing/labels';
import { isImageSupport, isRestorable, isTapeOrReel } from '~/domain/pricing/pricing';
import {
  computeQuote,
  MAX_QUANTITY,
  resolveSelectionPayload,
  type Selection,
  selectionToSearchParams,
} from '~/domain/pricing/selection';
import { serviceImage } from '~/domain/site-navigation';
import { type AnnouncedPromotion, announcedEstimate } from '~/domain/vouchers/announced-promotion';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { useHydrated } from '../use-hydrated';
import { type FormDefaults, formDefaults } from './form-defaults';
import { PriceDetails } from './price-details';

type SupportFields = {
  quantity: string;
  quality: string;
  resolution: string;
  format: string;
  restoration: string;
  denoise: string;
  reels: { small: string; medium: string; large: string };
};

/** The form's field names (Conform's view of it): they are also the URL's parameters. */
export type ConfiguratorFields = {
  support: string[];
  delivery: string;
  send: string;
  returnOriginals: string;
  express: string;
} & { [K in SupportType]: SupportFields };

export interface ConfiguratorFormProps {
  priceList: { version: number; data: PriceListDocument };
  /** The raw values to show first: the URL's, or the posted form's after a refusal. */
  payload: Record<string, unknown>;
  /** Messages from the server (invalid URL, refused submission). */
  lastResult: SubmissionResult<string[]> | null;
  /** Set when the price list changed since the previous render, to say so. */
  pricesUpdated: boolean;
  /** The promotion code a link announced (`?code=`), for the estimate; null without one. */
  promotion?: AnnouncedPromotion | null;
}

/** The URL's and the form's field for an announced promotion code (carried to the checkout). */
export const PROMOTION_CODE_PARAM = 'code';

const FORM_ID = 'configurateur';
const percent = new Intl.NumberFormat('fr-FR', {
  style: 'percent',
  signDisplay: 'exceptZero',
  maximumFractionDigits: 2,
});

/** "+30 %" for a multiplier of 1.3; nothing for 1. */
function supplement(multiplier: number): string {
  const delta = Math.round((multiplier - 1) * 10_000) / 10_000;
  return delta === 0 ? '' : percent.format(delta);
}

function isSubmitIntent(payload: Record<string, unknown>): boolean {
  return payload.intent === 'save' || payload.intent === 'order';
}

export function ConfiguratorForm({
  priceList,
  payload,
  lastResult,
  pricesUpdated,
  promotion = null,
}: ConfiguratorFormProps) {
  const list = priceList.data;
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  const [defaults] = useState<FormDefaults>(() => formDefaults(payload));
  const [selection, setSelection] = useState<Selection | null>(
    () => resolveSelectionPayload(payload, { priceList: list }).value ?? null,
  );
  const urlTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(urlTimer.current), []);

  const [form, fields] = useForm<ConfiguratorFields, Selection>({
    id: FORM_ID,
    lastResult,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate({ formData }) {
      return parse(formData, {
        resolve: (values) =>
          resolveSelectionPayload(values, { priceList: list, requireSupport: isSubmitIntent(values) }),
      }) as never;
    },
  });

  // The estimate follows every change; the URL follows it too (replaced, not pushed, and without a
  // navigation: the page's data does not depend on it), so that a copied link reproduces it.
  function onChange(event: React.FormEvent<HTMLFormElement>) {
    const values = parse(new FormData(event.currentTarget), {
      resolve: (raw) => resolveSelectionPayload(raw, { priceList: list }),
    });
    const next = values.status === 'success' ? (values.value ?? null) : null;
    setSelection(next);
    if (!next) return;
    window.clearTimeout(urlTimer.current);
    // Only the configurator's own address: « Commander » may have left for the checkout meanwhile,
    // whose address (its order) must not be replaced by the selection's.
    const pathname = window.location.pathname;
    urlTimer.current = window.setTimeout(() => {
      if (window.location.pathname !== pathname) return;
      const params = selectionToSearchParams(next);
      // The announced code stays in the link, so that a copied link still carries it.
      if (promotion) params.set(PROMOTION_CODE_PARAM, promotion.terms.code);
      const query = params.toString();
      const url = `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`;
      if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
        window.history.replaceState(window.history.state, '', url);
      }
    }, 250);
  }

  // With JavaScript the estimate is live: Enter in a field must not submit (the first submit button
  // of the form, the no-JavaScript refresh, is not even rendered then).
  function onKeyDown(event: React.KeyboardEvent<HTMLFormElement>) {
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement) event.preventDefault();
  }

  const quote = selection && selection.supports.length > 0 ? computeQuote(list, selection) : null;
  const promotionEstimate = quote && promotion ? announcedEstimate(promotion, quote, list) : null;
  const formProps = getFormProps(form);

  return (
    <Form method="get" {...formProps} noValidate onChange={onChange} onKeyDown={onKeyDown} className="flex flex-col">
      <input type="hidden" name="priceListVersion" value={priceList.version} />
      {/* Kept by the no-JavaScript refresh (GET) and posted by « Commander » to fill the checkout's field. */}
      {promotion ? <input type="hidden" name={PROMOTION_CODE_PARAM} value={promotion.terms.code} /> : null}
      <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="flex min-w-0 flex-col gap-8">
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-3 font-heading font-semibold text-xl">1. Vos supports</legend>
            <p className="text-muted-foreground text-sm" id="supports-hint">
              Cochez les supports à numériser, puis précisez leur nombre et les options.
            </p>
            <FieldErrors field={fields.support} />
            <ul className="grid gap-3">
              {SUPPORT_TYPES.map((type) => (
                <SupportCard
                  key={type}
                  type={type}
                  list={list}
                  defaults={defaults}
                  fields={fields[type].getFieldset()}
                />
              ))}
            </ul>
          </fieldset>

          <fieldset className="flex flex-col gap-3">
            <legend className="mb-3 font-heading font-semibold text-xl">2. Livraison de vos fichiers</legend>
            <div className="grid gap-3 sm:grid-cols-3">
              {DELIVERY_METHODS.map((method) => (
                <ChoiceCard
                  key={method}
                  type="radio"
                  name="delivery"
                  value={method}
                  id={`${FORM_ID}-delivery-${method}`}
                  defaultChecked={defaults.delivery === method}
                  title={DELIVERY_LABELS[method]}
                  price={
                    list.deliveryCosts[method] === 0 ? 'Gratuit' : formatEurosFromCents(list.deliveryCosts[method])
                  }
                  detail={DELIVERY_DETAILS[method]}
                />
              ))}
            </div>
            <FieldErrors field={fields.delivery} />
          </fieldset>

          <fieldset className="flex flex-col gap-3">
            <legend className="mb-3 font-heading font-semibold text-xl">3. Vos originaux</legend>
            <p className="font-medium text-sm" id="send-legend">
              Comment nous les faire parvenir&#8239;?
            </p>
            <div className="grid gap-3 sm:grid-cols-2" role="radiogroup" aria-labelledby="send-legend">
              {SEND_METHODS.map((method) => (
                <ChoiceCard
                  key={method}
                  type="radio"
                  name="send"
                  value={method}
                  id={`${FORM_ID}-send-${method}`}
                  defaultChecked={defaults.send === method}
                  title={SEND_METHOD_LABELS[method]}
                  price={method === 'label' ? formatEurosFromCents(list.sendingLabelPrice) : 'À vos frais'}
                  detail={
                    method === 'label'
                      ? 'Nous vous envoyons une étiquette Colissimo à coller sur votre colis.'
                      : 'Envoyez-les par le transporteur de votre choix.'
                  }
                />
              ))}
            </div>
            <FieldErrors field={fields.send} />
            <ChoiceCard
              type="checkbox"
              name="returnOriginals"
              value="on"
              id={`${FORM_ID}-returnOriginals`}
              defaultChecked={defaults.returnOriginals}
              title="Me renvoyer mes originaux après numérisation"
              price={formatEurosFromCents(list.returnShippingPrice)}
              detail={`${RETURN_ORIGINALS_LABEL}, soigneusement emballés, en colis suivi.`}
            />
          </fieldset>

          <fieldset className="flex flex-col gap-3">
            <legend className="mb-3 font-heading font-semibold text-xl">4. Délai de traitement</legend>
            <p className="text-muted-foreground text-sm" id="delai-standard">
              {standardTurnaroundSentence(list)}
            </p>
            <ChoiceCard
              type="checkbox"
              name="express"
              value="on"
              id={`${FORM_ID}-express`}
              defaultChecked={defaults.express}
              title={expressOptionTitle(list)}
              price={formatEurosFromCents(list.turnaround.expressPrice)}
              detail="Votre commande passe en priorité à l’atelier dès l’arrivée de vos originaux."
            />
          </fieldset>

          {hydrated ? null : (
            // Before JavaScript runs, the estimate is computed by the server: this is the form's first
            // submit button, so Enter in a field refreshes the estimate rather than ordering.
            <div>
              <Button type="submit" variant="secondary">
                <RefreshCwIcon aria-hidden="true" />
                Mettre à jour l’estimation
              </Button>
            </div>
          )}
        </div>

        <section
          id="estimation"
          aria-labelledby="estimation-title"
          className="flex scroll-mt-24 flex-col gap-4 rounded-xl border border-border bg-card p-5 shadow-sm lg:sticky lg:top-[calc(var(--spacing-header)+1rem)]"
        >
          <h2 id="estimation-title" className="flex items-center gap-2 font-heading font-semibold text-xl">
            <CalculatorIcon aria-hidden="true" className="size-5 text-sepia" />
            Votre estimation
          </h2>
          {pricesUpdated ? (
            <p role="status" className="rounded-md bg-info-tint px-3 py-2 text-info-tint-foreground text-sm">
              Les tarifs ont été mis à jour&#8239;: votre estimation a été recalculée.
            </p>
          ) : null}
          {quote && selection ? (
            <PriceDetails
              list={list}
              quote={quote}
              choice={selection}
              totalId="estimate-total"
              live
              promotion={promotionEstimate}
            />
          ) : (
            <p className="text-muted-foreground" id="estimate-total" aria-live="polite">
              {selection
                ? 'Choisissez au moins un support pour obtenir votre estimation.'
                : 'Corrigez les champs signalés pour obtenir votre estimation.'}
            </p>
          )}
          {selection && selection.deliveryMethod !== 'digital' ? (
            <p className="text-muted-foreground text-sm">{physicalDeliverySentence(selection.deliveryMethod)}</p>
          ) : null}

          {form.errors?.length ? (
            <div
              role="alert"
              id={form.errorId}
              className="flex gap-2 rounded-md border border-danger-tint-border bg-danger-tint px-3 py-2 text-danger-tint-foreground text-sm"
            >
              <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <div>
                {form.errors.map((error) => (
                  <p key={error}>{error}</p>
                ))}
              </div>
            </div>
          ) : null}

          <div className="flex flex-col gap-2">
            <Button
              type="submit"
              formMethod="post"
              name="intent"
              value="order"
              variant="accent"
              size="lg"
              disabled={submitting}
            >
              <ShoppingCartIcon aria-hidden="true" />
              Commander
            </Button>
            <Button type="submit" formMethod="post" name="intent" value="save" variant="outline" disabled={submitting}>
              <SaveIcon aria-hidden="true" />
              Enregistrer le devis
            </Button>
          </div>
          <p className="text-muted-foreground text-xs">
            Prix TTC, tarifs en vigueur depuis le {formatDateFr(list.lastUpdated)}. Le montant est confirmé avant le
            paiement.
          </p>
        </section>
      </div>

      {quote ? (
        // On a phone the estimate sits below the form: the total stays in sight at the bottom, while
        // the form is on screen only (sticky in the form, not fixed): it never covers the footer.
        <div className="sticky bottom-0 z-30 -mx-4 mt-8 flex items-center justify-between gap-4 border-border border-t bg-background/95 px-4 py-3 shadow-[0_-2px_8px_rgb(0_0_0/0.06)] backdrop-blur sm:-mx-6 sm:px-6 lg:hidden">
          <span className="text-sm">
            Total estimé{' '}
            <strong className="font-heading text-lg text-primary tabular-nums">
              {formatEurosFromCents(quote.price.totalPriceCents)}
            </strong>
          </span>
          <a href="#estimation" className="font-medium text-primary text-sm underline underline-offset-4">
            Voir le détail
          </a>
        </div>
      ) : null}
    </Form>
  );
}

function FieldErrors({ field, className }: { field: FieldMetadata<unknown>; className?: string }) {
  if (!field.errors?.length) return null;
  return (
    <p id={field.errorId} className={cn('font-medium text-destructive text-sm', className)}>
      {field.errors.join(' ')}
    </p>
  );
}

function describedBy(...ids: (string | false | undefined | null)[]): string | undefined {
  const list = ids.filter(Boolean);
  return list.length ? list.join(' ') : undefined;
}

interface SupportCardProps {
  type: SupportType;
  list: PriceListDocument;
  defaults: FormDefaults;
  fields: ReturnType<FieldMetadata<SupportFields>['getFieldset']>;
}

function SupportCard({ type, list, defaults, fields }: SupportCardProps) {
  const support = list.supports[type];
  const initial = defaults.supports[type];
  const toggleId = `${FORM_ID}-support-${type}`;
  const price =
    type === 'film'
      ? `à partir de ${formatEurosFromCents(Math.min(...REEL_SIZES.map((size) => list.filmReelPricing[size].price)))} la bobine`
      : `${formatEurosFromCents(support.basePrice)} par ${support.unit}`;
  return (
    <li className="group rounded-lg border border-border bg-card transition-colors has-[[data-support-toggle]:checked]:border-primary has-[[data-support-toggle]:checked]:shadow-sm">
      <label htmlFor={toggleId} className="flex cursor-pointer items-center gap-3 p-3 sm:p-4">
        <input
          id={toggleId}
          type="checkbox"
          name="support"
          value={type}
          defaultChecked={initial.checked}
          data-support-toggle=""
          className="size-5 shrink-0 accent-primary"
        />
        <img src={serviceImage(type)} alt="" width={40} height={40} className="size-10 shrink-0 rounded-md" />
        <span className="flex min-w-0 flex-col">
          <span className="font-medium">{support.title}</span>
          <span className="text-muted-foreground text-sm">{price}</span>
        </span>
      </label>
      <div className="hidden gap-4 border-border border-t p-3 group-has-[[data-support-toggle]:checked]:grid sm:grid-cols-2 sm:p-4">
        {type === 'film' ? (
          <fieldset className="flex flex-col gap-2 sm:col-span-2" aria-describedby={fields.reels.errorId}>
            <legend className="mb-1 font-medium text-sm">Nombre de bobines</legend>
            <div className="grid gap-3 sm:grid-cols-3">
              {REEL_SIZES.map((size) => {
                const field = fields.reels.getFieldset()[size];
                const reel = list.filmReelPricing[size];
                return (
                  <NumberField
                    key={size}
                    field={field}
                    label={reel.description}
                    hint={`${formatEurosFromCents(reel.price)} la bobine`}
                    defaultValue={initial.reels[size]}
                    min={0}
                  />
                );
              })}
            </div>
            <FieldErrors field={fields.reels} />
          </fieldset>
        ) : (
          <NumberField
            field={fields.quantity}
            label="Quantité"
            hint={`${formatEurosFromCents(support.basePrice)} par ${support.unit}`}
            defaultValue={initial.quantity}
            min={1}
          />
        )}

        {isRestorable(type) ? (
          <NumberField
            field={fields.restoration}
            label="Dont à restaurer"
            hint={`${formatEurosFromCents(list.restorationPrice)} par élément restauré`}
            defaultValue={initial.restoration}
            min={0}
          />
        ) : null}

        <RadioField
          field={fields.quality}
          legend="Qualité"
          defaultValue={initial.quality}
          options={QUALITIES.map((quality) => ({
            value: quality,
            label: list.qualityOptions[quality].label,
            extra: supplement(list.qualityOptions[quality].multiplier),
          }))}
        />

        {isImageSupport(type) ? (
          <>
            <RadioField
              field={fields.resolution}
              legend="Résolution"
              defaultValue={initial.resolution}
              options={RESOLUTIONS.map((resolution) => ({
                value: resolution,
                label: resolution.replace('dpi', '\u00A0dpi'),
                extra: supplement(list.resolutionMultipliers[resolution]),
              }))}
            />
            <RadioField
              field={fields.format}
              legend="Format des fichiers"
              defaultValue={initial.format}
              options={FORMATS.map((format) => ({
                value: format,
                label: list.formatOptions[format].label,
                extra: supplement(list.formatOptions[format].multiplier),
              }))}
            />
          </>
        ) : null}

        {isTapeOrReel(type) ? (
          <div className="flex items-start gap-2 sm:col-span-2">
            <input
              id={fields.denoise.id}
              type="checkbox"
              name={fields.denoise.name}
              value="on"
              defaultChecked={initial.denoise}
              className="mt-0.5 size-5 shrink-0 accent-primary"
            />
            <label htmlFor={fields.denoise.id} className="text-sm">
              <span className="font-medium">Débruitage</span>{' '}
              <span className="text-muted-foreground">
                (+{formatEurosFromCents(list.denoisePrice)} par {type === 'film' ? 'bobine' : support.unit})
              </span>
            </label>
          </div>
        ) : null}
      </div>
    </li>
  );
}

function NumberField({
  field,
  label,
  hint,
  defaultValue,
  min,
}: {
  field: FieldMetadata<string>;
  label: string;
  hint: string;
  defaultValue: string;
  min: number;
}) {
  const invalid = Boolean(field.errors?.length);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={field.id} className="font-medium text-sm">
        {label}
      </label>
      <input
        id={field.id}
        name={field.name}
        type="number"
        inputMode="numeric"
        min={min}
        max={MAX_QUANTITY}
        step={1}
        defaultValue={defaultValue}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(field.descriptionId, invalid && field.errorId)}
        className="flex h-10 w-full max-w-40 rounded-md border border-input bg-card px-3 py-2 text-base text-foreground tabular-nums shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-1 aria-invalid:border-destructive md:text-sm"
      />
      <span id={field.descriptionId} className="text-muted-foreground text-xs">
        {hint}
      </span>
      <FieldErrors field={field} />
    </div>
  );
}

function RadioField({
  field,
  legend,
  defaultValue,
  options,
}: {
  field: FieldMetadata<string>;
  legend: string;
  defaultValue: string;
  options: { value: string; label: string; extra: string }[];
}) {
  const invalid = Boolean(field.errors?.length);
  return (
    <fieldset className="flex flex-col gap-1.5" aria-describedby={invalid ? field.errorId : undefined}>
      <legend className="mb-1 font-medium text-sm">{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {options.map((option) => {
          const id = `${field.id}-${option.value}`;
          return (
            <span key={option.value} className="flex items-center gap-2">
              <input
                id={id}
                type="radio"
                name={field.name}
                value={option.value}
                defaultChecked={defaultValue === option.value}
                aria-invalid={invalid || undefined}
                className="size-4 shrink-0 accent-primary"
              />
              <label htmlFor={id} className="text-sm">
                {option.label}
                {option.extra ? <span className="text-muted-foreground"> ({option.extra})</span> : null}
              </label>
            </span>
          );
        })}
      </div>
      <FieldErrors field={field} />
    </fieldset>
  );
}

function ChoiceCard({
  type,
  name,
  value,
  id,
  defaultChecked,
  title,
  price,
  detail,
}: {
  type: 'radio' | 'checkbox';
  name: string;
  value: string;
  id: string;
  defaultChecked: boolean;
  title: string;
  price: string;
  detail: ReactNode;
}) {
  return (
    <label
      htmlFor={id}
      className="flex cursor-pointer items-start gap-3 rounded-lg border border-border bg-card p-3 transition-colors has-checked:border-primary has-checked:shadow-sm sm:p-4"
    >
      <input
        id={id}
        type={type}
        name={name}
        value={value}
        defaultChecked={defaultChecked}
        className="mt-0.5 size-5 shrink-0 accent-primary"
      />
      <span className="flex min-w-0 flex-col gap-0.5">
        <span className="font-medium">{title}</span>
        <span className="font-semibold text-primary text-sm">{price}</span>
        <span className="text-muted-foreground text-sm">{detail}</span>
      </span>
    </label>
  );
}
