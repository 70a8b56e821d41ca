import type { ReactNode } from 'react';
import { Form } from 'react-router';
import { Button } from '~/components/ui/button';
import { supportLabel } from '~/domain/account/order-details';
import { formatEurosFromCents, NBSP } from '~/domain/format';
import { countryName, SHIPPING_COUNTRIES } from '~/domain/orders/address';
import { type ExtraCopyFormErrors, type ExtraCopyFormValues, GIFT_MESSAGE_MAX } from '~/domain/orders/extra-copies';
import { MAX_EXTRA_COPIES } from '~/domain/pricing/pricing';

/*
 * The « Copies supplémentaires » form (decision 029), ONE component for the two pages
 * that sell copies of delivered files: the owner's /commande/{id}/copies and a family share's
 * /partage/{token}/copie. Both read it with parseExtraCopyForm (app/domain/orders/extra-copies.ts).
 * A plain form: it works without JavaScript (the relative's address opens by CSS alone), and a
 * refused form comes back with what was typed (`values`) and its messages (`errors`).
 */

/** The form's first state: one USB key of every file, for oneself. */
export const DEFAULT_EXTRA_COPY_VALUES: ExtraCopyFormValues = {
  medium: 'usb',
  quantity: '1',
  scope: 'all',
  fileIds: [],
  forWhom: 'me',
  recipient: { country: 'FR' },
  giftMessage: '',
};

const RECIPIENT_FIELDS = [
  { name: 'firstName', label: 'Prénom', autoComplete: 'given-name', required: true },
  { name: 'lastName', label: 'Nom', autoComplete: 'family-name', required: true },
  { name: 'company', label: 'Société (facultatif)', autoComplete: 'organization', required: false },
  { name: 'line1', label: 'Numéro et rue', autoComplete: 'address-line1', required: true },
  { name: 'line2', label: 'Complément d’adresse (facultatif)', autoComplete: 'address-line2', required: false },
  { name: 'postalCode', label: 'Code postal', autoComplete: 'postal-code', required: true },
  { name: 'city', label: 'Ville', autoComplete: 'address-level2', required: true },
  { name: 'phone', label: 'Téléphone (pour le transporteur)', autoComplete: 'tel', required: true },
] as const;

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-destructive text-sm">
      {message}
    </p>
  );
}

export const inputClass =
  'h-10 w-full rounded-md border border-input bg-background px-3 text-base focus-visible:outline-2 focus-visible:outline-ring';

export interface ExtraCopyFormProps {
  /** The files one may pick (the order's, or the share's selection only). */
  files: ReadonlyArray<{ id: string; name: string; support: string }>;
  /** Prices from the active price list (loadCopyOffer). */
  offer: { usbPriceCents: number; discPriceCents: number; shippingPriceCents: number };
  values?: ExtraCopyFormValues;
  errors?: ExtraCopyFormErrors;
  /** The staff looking at a customer's page: shown, not orderable. */
  disabled?: boolean;
  /** Fields of the page's own placed before the button (the relative's e-mail on a share). */
  children?: ReactNode;
}

export function ExtraCopyForm({
  files,
  offer,
  values = DEFAULT_EXTRA_COPY_VALUES,
  errors = {},
  disabled = false,
  children,
}: ExtraCopyFormProps) {
  const chosen = new Set(values.fileIds);
  const groups = [...new Set(files.map((file) => file.support))];
  return (
    <Form method="post" className="flex flex-col gap-6" noValidate>
      <input type="hidden" name="intent" value="copies" />

      <fieldset className="flex flex-col gap-2" aria-describedby={errors.files ? 'files-error' : undefined}>
        <legend className="mb-2 font-semibold">Fichiers à copier</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="scope" value="all" defaultChecked={values.scope === 'all'} />
          Tous les fichiers ({files.length})
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="scope" value="selection" defaultChecked={values.scope === 'selection'} />
          Une sélection
        </label>
        {groups.map((support) => (
          <details key={support} open={values.scope === 'selection'} className="rounded-md border border-border p-3">
            <summary className="cursor-pointer font-medium">{supportLabel(support)}</summary>
            <ul className="mt-2 grid gap-1 sm:grid-cols-2">
              {files
                .filter((file) => file.support === support)
                .map((file) => (
                  <li key={file.id}>
                    <label className="flex items-center gap-2 break-all text-sm">
                      <input type="checkbox" name="fileId" value={file.id} defaultChecked={chosen.has(file.id)} />
                      {file.name}
                    </label>
                  </li>
                ))}
            </ul>
          </details>
        ))}
        <FieldError id="files-error" message={errors.files} />
      </fieldset>

      <fieldset className="flex flex-col gap-2" aria-describedby={errors.medium ? 'medium-error' : undefined}>
        <legend className="mb-2 font-semibold">Support</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="medium" value="usb" defaultChecked={values.medium === 'usb'} />
          Clé USB ({formatEurosFromCents(offer.usbPriceCents)} la clé)
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="medium" value="disc" defaultChecked={values.medium === 'disc'} />
          DVD ({formatEurosFromCents(offer.discPriceCents)} le DVD)
        </label>
        <FieldError id="medium-error" message={errors.medium} />
      </fieldset>

      <div className="flex max-w-xs flex-col gap-1.5">
        <label htmlFor="quantity" className="font-semibold">
          Nombre de copies
        </label>
        <input
          id="quantity"
          name="quantity"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_EXTRA_COPIES}
          defaultValue={values.quantity}
          aria-invalid={errors.quantity ? true : undefined}
          aria-describedby={errors.quantity ? 'quantity-error' : undefined}
          className={inputClass}
        />
        <FieldError id="quantity-error" message={errors.quantity} />
        <p className="text-muted-foreground text-sm">
          Envoi suivi{NBSP}: {formatEurosFromCents(offer.shippingPriceCents)} par commande, sous 3 à 5 jours ouvrés
          après le paiement.
        </p>
      </div>

      <fieldset className="group flex flex-col gap-3">
        <legend className="mb-2 font-semibold">Pour qui{NBSP}?</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="forWhom" value="me" defaultChecked={values.forWhom === 'me'} />
          Pour moi (l’adresse de livraison est demandée au paiement)
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="forWhom" value="gift" defaultChecked={values.forWhom === 'gift'} />
          Pour un proche, avec un message
        </label>
        {/* Opened by CSS alone when « Pour un proche » is chosen: works without JavaScript. */}
        <div className="hidden flex-col gap-4 rounded-md border border-border p-4 group-has-[input[value=gift]:checked]:flex">
          <p className="font-medium">Adresse du proche</p>
          <div className="grid gap-4 sm:grid-cols-2">
            {RECIPIENT_FIELDS.map((field) => {
              const id = `recipient-${field.name}`;
              const error = errors.recipient?.[field.name];
              return (
                <div key={field.name} className="flex flex-col gap-1.5">
                  <label htmlFor={id}>{field.label}</label>
                  <input
                    id={id}
                    name={`recipient.${field.name}`}
                    type={field.name === 'phone' ? 'tel' : 'text'}
                    autoComplete={`section-recipient shipping ${field.autoComplete}`}
                    defaultValue={values.recipient[field.name] ?? ''}
                    aria-required={field.required || undefined}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-error` : undefined}
                    className={inputClass}
                  />
                  <FieldError id={`${id}-error`} message={error} />
                </div>
              );
            })}
            <div className="flex flex-col gap-1.5">
              <label htmlFor="recipient-country">Pays</label>
              <select
                id="recipient-country"
                name="recipient.country"
                defaultValue={values.recipient.country ?? 'FR'}
                aria-describedby={errors.recipient?.country ? 'recipient-country-error' : undefined}
                className={inputClass}
              >
                {SHIPPING_COUNTRIES.map((code) => (
                  <option key={code} value={code}>
                    {countryName(code)}
                  </option>
                ))}
              </select>
              <FieldError id="recipient-country-error" message={errors.recipient?.country} />
            </div>
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor="giftMessage">Message glissé dans le colis (facultatif)</label>
            <textarea
              id="giftMessage"
              name="giftMessage"
              rows={4}
              maxLength={GIFT_MESSAGE_MAX}
              defaultValue={values.giftMessage}
              aria-invalid={errors.giftMessage ? true : undefined}
              aria-describedby={errors.giftMessage ? 'giftMessage-error' : undefined}
              className="w-full rounded-md border border-input bg-background p-3 text-base"
            />
            <FieldError id="giftMessage-error" message={errors.giftMessage} />
          </div>
        </div>
      </fieldset>

      {children}

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="lg" disabled={disabled}>
          Commander et payer
        </Button>
        <span className="text-muted-foreground text-sm">Le total exact s’affiche avant le paiement.</span>
      </div>
    </Form>
  );
}
