import { ArrowLeftIcon } from 'lucide-react';
import { data, Form, Link, redirect } from 'react-router';
import { Button } from '~/components/ui/button';
import { supportLabel } from '~/domain/account/order-details';
import { formatDateFr, formatEurosFromCents, NBSP } from '~/domain/format';
import { countryName, SHIPPING_COUNTRIES } from '~/domain/orders/address';
import {
  EXTRA_COPY_MESSAGES,
  type ExtraCopyFormErrors,
  type ExtraCopyFormValues,
  GIFT_MESSAGE_MAX,
  parseExtraCopyForm,
} from '~/domain/orders/extra-copies';
import { MAX_EXTRA_COPIES } from '~/domain/pricing/pricing';
import {
  galleryBuyer,
  listPickableFiles,
  loadCopyOffer,
  startExtraCopyOrder,
  startRetentionExtensionOrder,
} from '~/server/copies/extra-copies.server';
import { type FilesAccess, filesAreServed, getFilesAccess } from '~/server/files/gallery.server';
import { readFormData } from '~/server/form-data.server';
import { orderAccessCookie } from '~/server/orders/access.server';
import type { Route } from './+types/extra-copies';

/*
 * /commande/{orderId}/copies (issue 27, decision 029): from the gallery, the customer orders extra
 * USB keys or DVDs of all or part of their files, for themselves or sent to a relative with a gift
 * message, and buys « Prolonger d’un an » of the files' retention. The same people as the gallery
 * (the order's owner, the guest holding its token); the staff see it but do not order. Each form
 * makes a draft (app/server/copies/extra-copies.server.ts) and goes to the ordinary checkout.
 * Plain forms: everything works without JavaScript, and a refused form comes back as it was typed.
 */

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  {
    title: loaded ? `Copies et conservation · commande ${loaded.order.number} | Soovenirs` : 'Copies | Soovenirs',
  },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

async function servedAccess(request: Request, orderId: string): Promise<FilesAccess> {
  const access = await getFilesAccess(request, orderId);
  if (!access || !filesAreServed(access)) throw data(null, { status: 404 });
  return access;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await servedAccess(request, params.orderId);
  const [offer, files] = await Promise.all([loadCopyOffer(access.order), listPickableFiles(access.order.id)]);
  return {
    order: { id: access.order.id, number: access.order.number, expiresAt: access.order.filesExpireAt },
    staff: access.viewer === 'admin',
    offer,
    files,
  };
}

type ActionData =
  | { intent: 'copies'; error: string; errors: ExtraCopyFormErrors; values: ExtraCopyFormValues }
  | { intent: 'extend'; error: string };

function toCheckout(started: { orderId: string; accessToken: string | null }) {
  const headers = new Headers();
  if (started.accessToken) headers.append('Set-Cookie', orderAccessCookie(started.orderId, started.accessToken));
  return redirect(`/checkout?${new URLSearchParams({ orderId: started.orderId })}`, { headers });
}

export async function action({ request, params }: Route.ActionArgs) {
  const access = await servedAccess(request, params.orderId);
  // The staff look at the customer's pages; they do not order in their name.
  if (access.viewer === 'admin') throw data(null, { status: 403 });
  const form = await readFormData(request);
  const intent = form.get('intent');
  const buyer = await galleryBuyer(access);

  if (intent === 'extend') {
    const started = await startRetentionExtensionOrder({ sourceOrderId: access.order.id, buyer });
    if (!started.ok) return data<ActionData>({ intent: 'extend', error: started.message });
    return toCheckout(started);
  }
  if (intent !== 'copies') throw data(null, { status: 400 });
  const parsed = parseExtraCopyForm(form);
  if (!parsed.ok) {
    return data<ActionData>({
      intent: 'copies',
      error: EXTRA_COPY_MESSAGES.invalid,
      errors: parsed.errors,
      values: parsed.values,
    });
  }
  const started = await startExtraCopyOrder({
    sourceOrderId: access.order.id,
    fileIds: parsed.value.fileIds,
    medium: parsed.value.medium,
    quantity: parsed.value.quantity,
    recipient: parsed.value.recipient,
    giftMessage: parsed.value.giftMessage,
    buyer,
  });
  if (!started.ok) {
    return data<ActionData>({
      intent: 'copies',
      error: started.message,
      errors: { files: started.message },
      values: parsed.values,
    });
  }
  return toCheckout(started);
}

const DEFAULT_VALUES: ExtraCopyFormValues = {
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

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-destructive text-sm">
      {message}
    </p>
  );
}

const inputClass =
  'h-10 w-full rounded-md border border-input bg-background px-3 text-base focus-visible:outline-2 focus-visible:outline-ring';

export default function ExtraCopies({ loaderData, actionData }: Route.ComponentProps) {
  const { order, offer, files, staff } = loaderData;
  const copiesAnswer = actionData?.intent === 'copies' ? actionData : null;
  const extendAnswer = actionData?.intent === 'extend' ? actionData : null;
  const values = copiesAnswer?.values ?? DEFAULT_VALUES;
  const errors = copiesAnswer?.errors ?? {};
  const chosen = new Set(values.fileIds);
  const groups = [...new Set(files.map((file) => file.support))];

  return (
    <section
      aria-labelledby="copies-title"
      className="mx-auto flex w-full max-w-4xl flex-1 flex-col gap-8 px-4 py-10 sm:px-6"
    >
      <Link
        to={`/commande/${order.id}/fichiers`}
        className="inline-flex w-fit items-center gap-1.5 text-primary text-sm underline-offset-4 hover:underline"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" />
        Retour à vos fichiers
      </Link>
      <div className="flex flex-col gap-2">
        <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Commande {order.number}</p>
        <h1 id="copies-title" className="text-title">
          Copies et conservation
        </h1>
        {staff ? (
          <p className="text-muted-foreground">Vue de l’équipe{NBSP}: seul le client peut commander ici.</p>
        ) : null}
      </div>

      <section
        aria-labelledby="extend-title"
        className="flex flex-col gap-3 rounded-lg border border-border bg-card p-5"
      >
        <h2 id="extend-title" className="font-semibold text-lg">
          Garder vos fichiers en ligne plus longtemps
        </h2>
        {order.expiresAt ? <p>Vos fichiers sont conservés jusqu’au {formatDateFr(order.expiresAt)}.</p> : null}
        {offer.extension.ok ? (
          <Form method="post" className="flex flex-wrap items-center gap-3">
            <input type="hidden" name="intent" value="extend" />
            <Button type="submit" disabled={staff}>
              Prolonger d’un an ({formatEurosFromCents(offer.extensionPriceCents)})
            </Button>
            <span className="text-muted-foreground text-sm">
              Une fois payé, conservés jusqu’au {formatDateFr(offer.extension.expiresAt)}.
            </span>
          </Form>
        ) : (
          <p className="text-muted-foreground">{offer.extension.message}</p>
        )}
        {extendAnswer ? (
          <p role="alert" className="text-destructive">
            {extendAnswer.error}
          </p>
        ) : null}
        <p className="text-muted-foreground text-sm">
          Vous pouvez aussi garder une copie chez vous sur une clé USB, ci-dessous.
        </p>
      </section>

      <section aria-labelledby="order-copies-title" className="flex flex-col gap-4">
        <h2 id="order-copies-title" className="font-semibold text-lg">
          Commander des copies sur clé USB ou DVD
        </h2>
        {copiesAnswer ? (
          <p role="alert" className="text-destructive">
            {copiesAnswer.error}
          </p>
        ) : null}
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
              <details
                key={support}
                open={values.scope === 'selection'}
                className="rounded-md border border-border p-3"
              >
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

          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" size="lg" disabled={staff}>
              Commander et payer
            </Button>
            <span className="text-muted-foreground text-sm">Le total exact s’affiche avant le paiement.</span>
          </div>
        </Form>
      </section>
    </section>
  );
}
