import type { FieldMetadata } from '@conform-to/react';
import { CheckboxField, Field, RequiredMark, SelectField } from '~/components/forms/field';
import { formatEurosFromCents } from '~/domain/format';
import {
  ADDRESS_LINE_MAX,
  type AddressField,
  type AddressFormValues,
  countryName,
  SHIPPING_COUNTRIES,
} from '~/domain/orders/address';
import type { CheckoutContactMode, CheckoutPayFields } from '~/domain/orders/checkout-details';

/*
 * The checkout's contact and address block (decision 024): see CheckoutContactBlock.
 * Its fields are the payment form's (Conform's fields of PAY_FORM_ID, tied to it by their `form`
 * attribute): one submit places the order with them, and the server's French messages come back
 * under each field. The checkboxes open their fields with CSS alone (group-has-checked): it works
 * without JavaScript. No `required` attribute: the server's messages say what is missing, the
 * browser's bubbles would not.
 */

export const PAY_FORM_ID = 'checkout-pay-form';

type PayField<T> = FieldMetadata<T, CheckoutPayFields, string[]>;

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

const COUNTRY_OPTIONS = SHIPPING_COUNTRIES.map((code) => ({ value: code, label: countryName(code) }));

function maxLength(field: Exclude<AddressField, 'country'>): number {
  if (field === 'phone') return 30;
  return field.startsWith('line') ? ADDRESS_LINE_MAX * 2 : 100;
}

export function AddressFieldset({
  meta,
  legend,
  section,
  className,
}: {
  /** `delivery` or `billing` of the payment form. */
  meta: PayField<AddressFormValues>;
  legend: string;
  /** The autocomplete section (`shipping`, `billing`). */
  section: 'shipping' | 'billing';
  className?: string;
}) {
  const fields = meta.getFieldset();
  const autoComplete = (token: string) => `section-${meta.name} ${section} ${token}`;
  return (
    <fieldset className={className ?? 'grid gap-4 sm:grid-cols-2'}>
      <legend className="mb-3 font-semibold">{legend}</legend>
      {FIELDS.map((field) => (
        <Field
          key={field.name}
          meta={fields[field.name]}
          type={field.type ?? 'text'}
          label={
            <>
              {field.label}
              {field.required ? <RequiredMark /> : null}
            </>
          }
          autoComplete={autoComplete(field.autoComplete)}
          maxLength={maxLength(field.name)}
          aria-required={field.required || undefined}
          className={field.wide ? 'flex flex-col gap-1.5 sm:col-span-2' : 'flex flex-col gap-1.5'}
        />
      ))}
      <SelectField
        meta={fields.country}
        label={
          <>
            Pays
            <RequiredMark />
          </>
        }
        options={COUNTRY_OPTIONS}
        autoComplete={autoComplete('country')}
        className="flex flex-col gap-1.5 sm:col-span-2"
      />
    </fieldset>
  );
}

/** A guest's own contact fields when nothing physical travels (all optional but the e-mail). */
const CONTACT_FIELDS: ReadonlyArray<{
  name: 'firstName' | 'lastName' | 'phone' | 'address' | 'postalCode' | 'city';
  label: string;
  autoComplete: string;
  wide?: boolean;
  type?: 'tel';
}> = [
  { name: 'firstName', label: 'Prénom', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Nom', autoComplete: 'family-name' },
  { name: 'phone', label: 'Téléphone (facultatif)', autoComplete: 'tel', type: 'tel', wide: true },
  { name: 'address', label: 'Adresse (facultatif)', autoComplete: 'street-address', wide: true },
  { name: 'postalCode', label: 'Code postal', autoComplete: 'postal-code' },
  { name: 'city', label: 'Ville', autoComplete: 'address-level2' },
];

/**
 * « Vos coordonnées » (decision 024): the one block where the checkout asks who the customer
 * is and where the parcel goes: a guest's e-mail address (and, with nothing physical, their
 * optional name, phone and address), then when something travels the delivery address, the billing
 * address behind « Adresse de facturation différente », for a signed-in customer « Enregistrer
 * cette adresse dans mon profil », and the optional insurance of the return. Every field belongs to
 * the payment form: « Payer » sends them all at once.
 */
export function CheckoutContactBlock({
  fields,
  contactMode,
  asksAddress,
  signedIn,
  insurance,
  namesInBilling = false,
}: {
  /** The payment form's fields. */
  fields: Pick<
    { [Name in keyof CheckoutPayFields]: PayField<CheckoutPayFields[Name]> },
    'contact' | 'delivery' | 'billing' | 'billingDifferent' | 'insure' | 'insuredValue' | 'saveToProfile'
  >;
  contactMode: CheckoutContactMode;
  asksAddress: boolean;
  signedIn: boolean;
  /** Offered when a parcel comes back: its price per started 100 € and its ceiling. */
  insurance: { per100EurosCents: number; maxCents: number } | null;
  /** The name and address are asked once, in the « Facturation » block's billing address. */
  namesInBilling?: boolean;
}) {
  const contact = fields.contact.getFieldset();
  return (
    <section
      aria-labelledby="checkout-contact-title"
      className="flex flex-col gap-6 rounded-lg border border-border bg-card p-6"
    >
      <div className="flex flex-col gap-1">
        <h2 id="checkout-contact-title" className="font-semibold text-lg">
          Vos coordonnées
        </h2>
        <p className="text-muted-foreground text-sm">
          Les champs marqués d’un astérisque (*) sont obligatoires.
          {contactMode !== 'none' ? ' Nous vous écrivons à cette adresse e-mail pour le suivi de votre commande.' : ''}
          {asksAddress ? ' Le téléphone sert au transporteur en cas de besoin.' : ''}
        </p>
      </div>
      {contactMode !== 'none' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            meta={contact.email}
            type="email"
            label={
              <>
                Adresse e-mail
                <RequiredMark />
              </>
            }
            autoComplete="email"
            maxLength={254}
            aria-required
            className="flex flex-col gap-1.5 sm:col-span-2"
          />
          {contactMode === 'full' && !namesInBilling
            ? CONTACT_FIELDS.map((field) => (
                <Field
                  key={field.name}
                  meta={contact[field.name]}
                  type={field.type ?? 'text'}
                  label={field.label}
                  autoComplete={field.autoComplete}
                  maxLength={field.name === 'address' ? 200 : 100}
                  inputMode={field.name === 'postalCode' ? 'numeric' : undefined}
                  className={field.wide ? 'flex flex-col gap-1.5 sm:col-span-2' : 'flex flex-col gap-1.5'}
                />
              ))
            : null}
        </div>
      ) : null}
      {asksAddress ? (
        <>
          <AddressFieldset meta={fields.delivery} legend="Livraison" section="shipping" />
          {signedIn ? (
            <CheckboxField meta={fields.saveToProfile} label="Enregistrer cette adresse dans mon profil" />
          ) : null}
          <div className="group flex flex-col gap-3">
            <CheckboxField meta={fields.billingDifferent} label="Adresse de facturation différente" />
            <AddressFieldset
              meta={fields.billing}
              legend="Facturation"
              section="billing"
              className="hidden w-full gap-4 pt-2 group-has-[input:checked]:grid sm:grid-cols-2"
            />
          </div>
          {insurance ? (
            <div className="group flex flex-col gap-3">
              <CheckboxField meta={fields.insure} label="Assurer le retour (ad valorem)" />
              <Field
                meta={fields.insuredValue}
                label="Valeur déclarée (en euros)"
                hint={`${formatEurosFromCents(insurance.per100EurosCents)} par tranche de 100\u00a0€ déclarée, jusqu’à ${formatEurosFromCents(insurance.maxCents)}, ajoutés au total de la commande.`}
                inputMode="decimal"
                className="hidden w-full max-w-md flex-col gap-1.5 group-has-[input:checked]:flex"
              />
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
