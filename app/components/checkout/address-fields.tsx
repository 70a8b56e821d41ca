import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { formatEurosFromCents } from '~/domain/format';
import {
  ADDRESS_LINE_MAX,
  type AddressField,
  type AddressFieldErrors,
  type AddressFormValues,
  countryName,
  SHIPPING_COUNTRIES,
} from '~/domain/orders/address';
import type { CheckoutDetailsErrors, CheckoutDetailsForm } from '~/domain/orders/checkout-details';

/*
 * The checkout's address block (issue 15), shown when something physical travels: the delivery
 * address, a billing address behind « Adresse de facturation différente », for a signed-in
 * customer « Enregistrer cette adresse dans mon profil », and the optional insurance of the return.
 * Its fields belong to the payment form (`form` attribute): one submit places the order with
 * them. The checkboxes open their fields with CSS alone (peer-checked): it works without
 * JavaScript. No `required` attribute: the server's French messages say what is missing, the
 * browser's bubbles would not.
 */

export const PAY_FORM_ID = 'checkout-pay-form';

const FIELDS: ReadonlyArray<{
  name: Exclude<AddressField, 'country'>;
  label: string;
  autoComplete: string;
  required: boolean;
  wide?: boolean;
  type?: 'tel';
}> = [
  { name: 'firstName', label: 'Prénom', autoComplete: 'given-name', required: true },
  { name: 'lastName', label: 'Nom', autoComplete: 'family-name', required: true },
  { name: 'company', label: 'Société (facultatif)', autoComplete: 'organization', required: false, wide: true },
  { name: 'line1', label: 'Numéro et rue', autoComplete: 'address-line1', required: true, wide: true },
  {
    name: 'line2',
    label: 'Complément d’adresse (facultatif)',
    autoComplete: 'address-line2',
    required: false,
    wide: true,
  },
  { name: 'postalCode', label: 'Code postal', autoComplete: 'postal-code', required: true },
  { name: 'city', label: 'Ville', autoComplete: 'address-level2', required: true },
  { name: 'phone', label: 'Téléphone', autoComplete: 'tel', required: true, type: 'tel', wide: true },
];

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-destructive text-sm">
      {message}
    </p>
  ) : null;
}

function Required() {
  return (
    <span aria-hidden="true" className="text-destructive">
      {' '}
      *
    </span>
  );
}

export function AddressFieldset({
  prefix,
  legend,
  values,
  errors,
  section,
  className,
}: {
  prefix: 'delivery' | 'billing';
  legend: string;
  values: AddressFormValues;
  errors?: AddressFieldErrors;
  /** The autocomplete section (`shipping`, `billing`). */
  section: 'shipping' | 'billing';
  className?: string;
}) {
  const countryId = `${prefix}-country`;
  return (
    <fieldset className={className ?? 'grid gap-4 sm:grid-cols-2'}>
      <legend className="mb-3 font-semibold">{legend}</legend>
      {FIELDS.map((field) => {
        const id = `${prefix}-${field.name}`;
        const error = errors?.[field.name];
        return (
          <div
            key={field.name}
            className={field.wide ? 'flex flex-col gap-1.5 sm:col-span-2' : 'flex flex-col gap-1.5'}
          >
            <Label htmlFor={id}>
              {field.label}
              {field.required ? <Required /> : null}
            </Label>
            <Input
              id={id}
              form={PAY_FORM_ID}
              name={`${prefix}.${field.name}`}
              type={field.type ?? 'text'}
              defaultValue={values[field.name]}
              autoComplete={`section-${prefix} ${section} ${field.autoComplete}`}
              maxLength={field.name === 'phone' ? 30 : field.name.startsWith('line') ? ADDRESS_LINE_MAX * 2 : 100}
              aria-required={field.required || undefined}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
            <FieldError id={`${id}-error`} message={error} />
          </div>
        );
      })}
      <div className="flex flex-col gap-1.5 sm:col-span-2">
        <Label htmlFor={countryId}>
          Pays
          <Required />
        </Label>
        <select
          id={countryId}
          form={PAY_FORM_ID}
          name={`${prefix}.country`}
          defaultValue={values.country || 'FR'}
          autoComplete={`section-${prefix} ${section} country`}
          aria-invalid={errors?.country ? true : undefined}
          aria-describedby={errors?.country ? `${countryId}-error` : undefined}
          className="h-10 w-full rounded-md border border-input bg-card px-3 text-base md:text-sm"
        >
          {SHIPPING_COUNTRIES.map((code) => (
            <option key={code} value={code}>
              {countryName(code)}
            </option>
          ))}
        </select>
        <FieldError id={`${countryId}-error`} message={errors?.country} />
      </div>
    </fieldset>
  );
}

function Checkbox({ id, name, label, checked }: { id: string; name: string; label: string; checked: boolean }) {
  return (
    <>
      <input
        id={id}
        form={PAY_FORM_ID}
        name={name}
        type="checkbox"
        value="on"
        defaultChecked={checked}
        className="peer mt-1 size-5 shrink-0 accent-primary"
      />
      <Label htmlFor={id} className="font-normal text-sm">
        {label}
      </Label>
    </>
  );
}

export function CheckoutAddressBlock({
  form,
  errors,
  signedIn,
  insurance,
}: {
  form: CheckoutDetailsForm;
  errors?: CheckoutDetailsErrors;
  signedIn: boolean;
  /** Offered when a parcel comes back: its price per started 100 € and its ceiling. */
  insurance: { per100EurosCents: number; maxCents: number } | null;
}) {
  return (
    <section
      aria-labelledby="checkout-address-title"
      className="flex flex-col gap-6 rounded-lg border border-border bg-card p-6"
    >
      <div className="flex flex-col gap-1">
        <h2 id="checkout-address-title" className="font-semibold text-lg">
          Vos adresses
        </h2>
        <p className="text-muted-foreground text-sm">
          Les champs marqués d’un astérisque (*) sont obligatoires. Le téléphone sert au transporteur en cas de besoin.
        </p>
      </div>
      <AddressFieldset
        prefix="delivery"
        legend="Livraison"
        section="shipping"
        values={form.delivery}
        errors={errors?.delivery}
      />
      {signedIn ? (
        <div className="flex items-start gap-3">
          <Checkbox
            id="save-to-profile"
            name="saveToProfile"
            label="Enregistrer cette adresse dans mon profil"
            checked={form.saveToProfile}
          />
        </div>
      ) : null}
      <div className="flex flex-wrap items-start gap-3">
        <Checkbox
          id="billing-different"
          name="billingDifferent"
          label="Adresse de facturation différente"
          checked={form.billingDifferent}
        />
        <AddressFieldset
          prefix="billing"
          legend="Facturation"
          section="billing"
          values={form.billing}
          errors={errors?.billing}
          className="hidden w-full gap-4 pt-2 peer-checked:grid sm:grid-cols-2"
        />
      </div>
      {insurance ? (
        <div className="flex flex-wrap items-start gap-3">
          <Checkbox id="insure" name="insure" label="Assurer le retour (ad valorem)" checked={form.insure} />
          <div className="hidden w-full flex-col gap-1.5 peer-checked:flex">
            <Label htmlFor="insured-value">Valeur déclarée (en euros)</Label>
            <Input
              id="insured-value"
              form={PAY_FORM_ID}
              name="insuredValue"
              inputMode="decimal"
              defaultValue={form.insuredValue}
              className="max-w-48"
              aria-invalid={errors?.insuredValue ? true : undefined}
              aria-describedby={`insured-value-help${errors?.insuredValue ? ' insured-value-error' : ''}`}
            />
            <p id="insured-value-help" className="text-muted-foreground text-sm">
              {formatEurosFromCents(insurance.per100EurosCents)} par tranche de 100&nbsp;€ déclarée, jusqu’à{' '}
              {formatEurosFromCents(insurance.maxCents)}, ajoutés au total de la commande.
            </p>
            <FieldError id="insured-value-error" message={errors?.insuredValue} />
          </div>
        </div>
      ) : null}
    </section>
  );
}
