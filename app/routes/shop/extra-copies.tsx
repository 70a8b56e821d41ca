import { ArrowLeftIcon } from 'lucide-react';
import { data, Form, Link } from 'react-router';
import { ExtraCopyForm } from '~/components/copies/extra-copy-form';
import { Button } from '~/components/ui/button';
import { formatDateFr, formatEurosFromCents, NBSP } from '~/domain/format';
import {
  EXTRA_COPY_MESSAGES,
  type ExtraCopyFormErrors,
  type ExtraCopyFormValues,
  parseExtraCopyForm,
} from '~/domain/orders/extra-copies';
import {
  galleryBuyer,
  listPickableFiles,
  loadCopyOffer,
  redirectToCheckout,
  startExtraCopyOrder,
  startRetentionExtensionOrder,
} from '~/server/copies/extra-copies.server';
import { type FilesAccess, filesAreServed, getFilesAccess } from '~/server/files/gallery.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/extra-copies';

/*
 * /commande/{orderId}/copies (decision 029): from the gallery, the customer orders extra
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
    return redirectToCheckout(started);
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
  return redirectToCheckout(started);
}

export default function ExtraCopies({ loaderData, actionData }: Route.ComponentProps) {
  const { order, offer, files, staff } = loaderData;
  const copiesAnswer = actionData?.intent === 'copies' ? actionData : null;
  const extendAnswer = actionData?.intent === 'extend' ? actionData : null;

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
        <ExtraCopyForm
          files={files}
          offer={offer}
          values={copiesAnswer?.values}
          errors={copiesAnswer?.errors}
          disabled={staff}
        />
      </section>
    </section>
  );
}
