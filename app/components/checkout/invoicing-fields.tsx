import type { FieldMetadata } from '@conform-to/react';
import { CheckboxField, Field, SelectField } from '~/components/forms/field';
import { BUSINESS_LIMITS, type BusinessField, type BusinessFormValues } from '~/domain/invoices/business-buyer';
import { ADDRESS_LINE_MAX, type AddressFormValues, countryName, SHIPPING_COUNTRIES } from '~/domain/orders/address';
import type { CheckoutPayFields } from '~/domain/orders/checkout-details';

/*
 * The checkout's « Facturation » block (docs/invoicing.md): with nothing physical, the billing
 * address the invoice prints, asked of every buyer (brief: name, street, postal code, city, country;
 * a physical order's is its delivery address unless « Adresse de facturation différente »), and « Je commande pour une
 * entreprise, une association ou un organisme public » with the business buyer's fields. Every field
 * belongs to the payment form (PAY_FORM_ID); the checkboxes open their fields with CSS alone
 * (group-has-checked), so it works without JavaScript; the server's French messages come back under
 * each field with what was typed.
 */

type PayField<T> = FieldMetadata<T, CheckoutPayFields, string[]>;

const COUNTRY_OPTIONS = SHIPPING_COUNTRIES.map((code) => ({ value: code, label: countryName(code) }));

const BILLING_FIELDS = [
  { name: 'firstName', label: 'Prénom', autoComplete: 'given-name', wide: false, max: 50 },
  { name: 'lastName', label: 'Nom', autoComplete: 'family-name', wide: false, max: 50 },
  { name: 'line1', label: 'Numéro et rue', autoComplete: 'address-line1', wide: true, max: ADDRESS_LINE_MAX * 2 },
  { name: 'postalCode', label: 'Code postal', autoComplete: 'postal-code', wide: false, max: 12 },
  { name: 'city', label: 'Ville', autoComplete: 'address-level2', wide: false, max: 100 },
] as const;

/** The billing address of an order with nothing physical (no phone: only a carrier needs one). */
function BillingFieldset({ meta }: { meta: PayField<AddressFormValues> }) {
  const fields = meta.getFieldset();
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2">
      <legend className="mb-1 font-semibold">Adresse de facturation</legend>
      <p className="text-muted-foreground text-sm sm:col-span-2">
        Elle figure sur votre facture : chaque champ est obligatoire.
      </p>
      {BILLING_FIELDS.map((field) => (
        <Field
          key={field.name}
          meta={fields[field.name]}
          label={field.label}
          autoComplete={`section-billing billing ${field.autoComplete}`}
          maxLength={field.max}
          aria-required
          className={field.wide ? 'flex flex-col gap-1.5 sm:col-span-2' : 'flex flex-col gap-1.5'}
        />
      ))}
      <SelectField
        meta={fields.country}
        label="Pays"
        options={COUNTRY_OPTIONS}
        autoComplete="section-billing billing country"
        className="flex flex-col gap-1.5 sm:col-span-2"
      />
    </fieldset>
  );
}

const BUSINESS_TEXT_FIELDS = [
  {
    name: 'companyName',
    label: 'Raison sociale',
    autoComplete: 'organization',
    maxLength: BUSINESS_LIMITS.companyName,
    wide: true,
  },
  {
    name: 'siren',
    label: 'Numéro SIREN',
    hint: '9 chiffres, par exemple 552 100 554',
    inputMode: 'numeric',
    maxLength: 20,
    wide: false,
  },
  {
    name: 'vatNumber',
    label: 'Numéro de TVA intracommunautaire (facultatif)',
    hint: 'FR, 2 chiffres puis le SIREN',
    maxLength: 24,
    wide: false,
  },
  {
    name: 'purchaseOrderReference',
    label: 'Référence de bon de commande (facultatif)',
    maxLength: BUSINESS_LIMITS.purchaseOrderReference,
    wide: true,
  },
] as const;

/** A public body's establishment and Chorus Pro references, shown once « Organisme public » is ticked. */
const PUBLIC_BODY_FIELDS = [
  {
    name: 'siret',
    label: 'SIRET de l’établissement à facturer',
    hint: '14 chiffres, le SIREN puis 5 chiffres (annuaire Chorus Pro)',
    inputMode: 'numeric',
    maxLength: 24,
  },
  {
    name: 'chorusServiceCode',
    label: 'Code service Chorus Pro (facultatif)',
    maxLength: BUSINESS_LIMITS.chorusServiceCode,
  },
  { name: 'engagementNumber', label: 'Numéro d’engagement (facultatif)', maxLength: BUSINESS_LIMITS.engagementNumber },
] as const;

/** The business buyer's fields of a form (Conform's), as the checkout and the profile name them. */
type BusinessMeta = { [Field in BusinessField]: FieldMetadata<string, Record<string, unknown>, string[]> };

/**
 * The business buyer's fields (docs/invoicing.md): company name, SIREN, VAT number, purchase order
 * reference, and behind « Organisme public » the Chorus Pro references (opened by CSS alone: the
 * caller's element carries the `group` class). `engagement`: the engagement number, an order's
 * (asked at checkout, not kept by the profile).
 */
export function BusinessBuyerFields({ fields, engagement }: { fields: BusinessMeta; engagement: boolean }) {
  const publicBodyFields = engagement
    ? PUBLIC_BODY_FIELDS
    : PUBLIC_BODY_FIELDS.filter((field) => field.name !== 'engagementNumber');
  return (
    <>
      {BUSINESS_TEXT_FIELDS.map(({ name, wide, ...field }) => (
        <Field
          key={name}
          meta={fields[name]}
          {...field}
          className={wide ? 'flex flex-col gap-1.5 sm:col-span-2' : 'flex flex-col gap-1.5'}
        />
      ))}
      <CheckboxField
        meta={fields.publicBody}
        label="Organisme public (facture déposée sur Chorus Pro)"
        data-public-toggle=""
        className="flex flex-col gap-1 sm:col-span-2"
      />
      {publicBodyFields.map(({ name, ...field }) => (
        <Field
          key={name}
          meta={fields[name]}
          {...field}
          className="hidden flex-col gap-1.5 group-has-[[data-public-toggle]:checked]:flex"
        />
      ))}
    </>
  );
}

/** The business buyer's fields, behind their checkbox; a public body's Chorus Pro references behind theirs. */
function BusinessFieldset({ toggle, meta }: { toggle: PayField<string>; meta: PayField<BusinessFormValues> }) {
  return (
    <div className="group flex flex-col gap-3">
      <CheckboxField
        meta={toggle}
        label="Je commande pour une entreprise, une association ou un organisme public"
        data-business-toggle=""
      />
      <fieldset className="hidden gap-4 pt-2 group-has-[[data-business-toggle]:checked]:grid sm:grid-cols-2">
        <legend className="mb-1 font-semibold">Votre structure</legend>
        <BusinessBuyerFields fields={meta.getFieldset()} engagement />
      </fieldset>
    </div>
  );
}

/** « Facturation »: the billing address when nothing physical travels, and the business buyer. */
export function CheckoutInvoicingBlock({
  fields,
  asksBilling,
}: {
  fields: Pick<
    { [Name in keyof CheckoutPayFields]: PayField<CheckoutPayFields[Name]> },
    'billing' | 'isBusiness' | 'business'
  >;
  asksBilling: boolean;
}) {
  return (
    <section
      aria-labelledby="checkout-invoicing-title"
      className="flex flex-col gap-6 rounded-lg border border-border bg-card p-6"
    >
      <h2 id="checkout-invoicing-title" className="font-semibold text-lg">
        Facturation
      </h2>
      {asksBilling ? <BillingFieldset meta={fields.billing} /> : null}
      <BusinessFieldset toggle={fields.isBusiness} meta={fields.business} />
    </section>
  );
}
