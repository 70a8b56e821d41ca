import { ArrowLeftIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { data, Link, redirect } from 'react-router';
import { Button } from '~/components/ui/button';
import { useHydrated } from '~/components/use-hydrated';
import { formatDateFr, formatEurosFromCents, NBSP } from '~/domain/format';
import { decideSelection, dropSummary, limitText, maxDrops } from '~/domain/orders/preview-keep';
import { SUPPORT_TYPES } from '~/domain/pricing/default-price-list';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { loginRedirectPath } from '~/server/auth/session.server';
import { getFilesAccess } from '~/server/files/gallery.server';
import { readFormData } from '~/server/form-data.server';
import { accessFromLink, deniedOrderAnswer } from '~/server/orders/access.server';
import { loadReview, submitSelection } from '~/server/orders/preview-keep.server';
import type { Route } from './+types/selection';

/*
 * /commande/{orderId}/selection: « Preview and keep » (decision 030). The
 * customer (owner, or guest with the e-mail's token) sees the thumbnails of the files under review,
 * unticks the ones to drop and presses « Valider ma sélection ». Plain checkboxes and a plain form:
 * it works without JavaScript (« Calculer le montant » shows the amount from the server); with it,
 * the amount follows each tick, computed by the same pure rules as the server's. Above the limit
 * the server refuses in French and nothing changes; the ticks sent come back as they were.
 */

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  {
    title: loaded ? `Votre sélection · commande ${loaded.orderNumber} | Soovenirs` : 'Votre sélection | Soovenirs',
  },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

async function access(request: Request, orderId: string) {
  const found = await getFilesAccess(request, orderId);
  if (found) return found;
  if ((await deniedOrderAnswer(request, orderId)) === 'login') throw redirect(loginRedirectPath(request));
  throw data(null, { status: 404 });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const fromLink = await accessFromLink(request, params.orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const { order, viewer } = await access(request, params.orderId);
  const review = await loadReview(order.id);
  if (!review) throw data(null, { status: 404 });
  return {
    orderId: order.id,
    orderNumber: review.orderNumber,
    viewer,
    state: review.state,
    endsAt: review.endsAt.toISOString(),
    closedBy: review.closedBy,
    maxDropPercent: review.maxDropPercent,
    fileCount: review.fileCount,
    droppedCount: review.droppedCount,
    refundCents: review.refundCents,
    list: review.list,
    lines: review.lines,
    counted: review.counted,
    files: review.files,
    delivered: order.filesPublishedAt !== null,
  };
}

export type SelectionActionData =
  | { ok: false; error: string; kept: string[] }
  | { ok: true; preview: string; overLimit: boolean; kept: string[] };

export async function action({ request, params }: Route.ActionArgs) {
  const { order, viewer } = await access(request, params.orderId);
  const form = await readFormData(request);
  const kept = form.getAll('garder').filter((value): value is string => typeof value === 'string');
  if (viewer === 'admin') {
    return data<SelectionActionData>(
      { ok: false, error: 'La sélection appartient au client : l’équipe ne peut pas la faire à sa place.', kept },
      { status: 403 },
    );
  }
  if (form.get('intent') === 'calculer') {
    const review = await loadReview(order.id);
    if (review?.state !== 'open') throw redirect(`/commande/${order.id}/selection`);
    const decision = decideSelection({
      ...review,
      kept: new Set(kept),
    });
    if (!decision.ok) return data<SelectionActionData>({ ok: false, error: decision.message, kept });
    return data<SelectionActionData>({
      ok: true,
      preview: dropSummary(review.list, decision.drops, decision.pricing.refundCents),
      overLimit: false,
      kept,
    });
  }
  const result = await submitSelection({
    orderId: order.id,
    kept: new Set(kept),
    actor: viewer === 'owner' ? 'customer' : 'guest',
  });
  // Refused (over the limit, closed meanwhile): nothing changed, the ticks come back as sent.
  if (!result.ok) return data<SelectionActionData>({ ok: false, error: result.message, kept });
  throw redirect(`/commande/${order.id}/selection`);
}

const plural = (count: number, word: string) => `${count}${NBSP}${word}${count > 1 ? 's' : ''}`;

type Review = Route.ComponentProps['loaderData'];

/** What a closed review says: closed by the deadline (all kept), or by the customer's choice. */
function closedText(review: Pick<Review, 'closedBy' | 'endsAt' | 'droppedCount' | 'refundCents'>): string {
  if (review.closedBy === 'system') {
    return `Le délai de sélection s’est terminé le ${formatDateFr(review.endsAt)}${NBSP}: tous vos fichiers sont gardés.`;
  }
  if (review.droppedCount > 0) {
    return `Sélection validée${NBSP}: ${plural(review.droppedCount, 'fichier')} retiré${review.droppedCount > 1 ? 's' : ''}, ${formatEurosFromCents(review.refundCents)} remboursés avec un avoir.`;
  }
  return `Sélection validée${NBSP}: vous gardez tous vos fichiers.`;
}

/**
 * One file under review: its thumbnail (a grey square when it has none) and the « garder » box.
 * The box is uncontrolled (`defaultChecked`) so the form works without JavaScript; `onToggle`
 * only feeds the live amount once hydrated.
 */
function FileChoice({
  orderId,
  file,
  defaultChecked,
  onToggle,
}: {
  orderId: string;
  file: Review['files'][number];
  defaultChecked: boolean;
  onToggle: (checked: boolean) => void;
}) {
  return (
    <li className="flex flex-col gap-2 rounded-md border border-border bg-card p-2">
      {file.hasThumbnail ? (
        <img
          src={`/commande/${orderId}/selection/${file.id}/miniature.jpg`}
          alt=""
          loading="lazy"
          className="aspect-square w-full rounded object-cover"
        />
      ) : (
        <div className="aspect-square w-full rounded bg-muted" aria-hidden="true" />
      )}
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name="garder"
          value={file.id}
          defaultChecked={defaultChecked}
          onChange={(event) => onToggle(event.currentTarget.checked)}
          className="mt-0.5 size-4 accent-primary"
        />
        <span className="break-all">
          <span className="sr-only">Garder </span>
          {file.name}
        </span>
      </label>
    </li>
  );
}

export default function Selection({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const review = loaderData;
  const initialKept = actionData?.kept ?? review.files.map((file) => file.id);
  const [kept, setKept] = useState<Set<string>>(() => new Set(initialKept));
  const live = useMemo(() => {
    const decision = decideSelection({
      list: review.list,
      lines: review.lines,
      counted: review.counted,
      files: review.files,
      kept,
      maxDropPercent: 100,
      fileCount: review.fileCount,
    });
    if (!decision.ok) return null;
    const max = maxDrops(review.fileCount, review.maxDropPercent);
    return {
      text: dropSummary(review.list, decision.drops, decision.pricing.refundCents),
      overLimit: decision.dropped.size > max,
      max,
    };
  }, [kept, review]);
  const groups = SUPPORT_TYPES.flatMap((type) => {
    const files = review.files.filter((file) => file.support === type);
    return files.length > 0 ? [{ type, title: review.list.supports[type]?.title ?? type, files }] : [];
  });
  const error = actionData && !actionData.ok ? actionData.error : null;
  const serverPreview = actionData?.ok ? actionData.preview : null;

  return (
    <section
      aria-labelledby="selection-title"
      data-hydrated={hydrated}
      className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6"
    >
      <Link
        to={`/confirmation?orderId=${review.orderId}`}
        className="inline-flex w-fit items-center gap-1.5 text-primary text-sm underline-offset-4 hover:underline"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" />
        Retour à la commande
      </Link>
      <div className="flex flex-col gap-2">
        <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Commande {review.orderNumber}</p>
        <h1 id="selection-title" className="text-title">
          Votre sélection
        </h1>
      </div>

      {review.state === 'closed' ? (
        <div className="flex flex-col gap-3 rounded-lg border border-border bg-card p-5" role="status">
          <p>{closedText(review)}</p>
          {review.delivered ? (
            <Link to={`/commande/${review.orderId}/fichiers`} className="text-primary underline underline-offset-4">
              Voir et télécharger mes fichiers
            </Link>
          ) : null}
        </div>
      ) : null}

      {review.state === 'lapsed' ? (
        <p className="rounded-lg border border-border bg-card p-5" role="status">
          {`Le délai de sélection s’est terminé le ${formatDateFr(review.endsAt)}${NBSP}: tous vos fichiers sont gardés et vous sont livrés sous peu.`}
        </p>
      ) : null}

      {review.state === 'open' ? (
        <form method="post" className="flex flex-col gap-6">
          <div className="flex flex-col gap-2 rounded-lg border border-border bg-card p-5">
            <p>
              {`Décochez les fichiers que vous ne souhaitez pas garder, puis validez avant le ${formatDateFr(review.endsAt)}. Les fichiers retirés ne vous sont pas facturés${NBSP}: la différence vous est remboursée, avec un avoir. Sans réponse à cette date, tous vos fichiers sont gardés.`}
            </p>
            <p className="font-medium">{limitText(review.fileCount, review.maxDropPercent)}</p>
          </div>

          {groups.map((group) => (
            <fieldset key={group.type} className="flex flex-col gap-3">
              <legend className="mb-2 font-semibold text-lg">
                {group.title} ({group.files.length})
              </legend>
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6">
                {group.files.map((file) => (
                  <FileChoice
                    key={file.id}
                    orderId={review.orderId}
                    file={file}
                    defaultChecked={initialKept.includes(file.id)}
                    onToggle={(checked) => {
                      const next = new Set(kept);
                      if (checked) next.add(file.id);
                      else next.delete(file.id);
                      setKept(next);
                    }}
                  />
                ))}
              </ul>
            </fieldset>
          ))}

          <div className="sticky bottom-0 flex flex-col gap-3 rounded-lg border border-border bg-background p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
            <div aria-live="polite" className="flex flex-col gap-1">
              <p className="font-semibold" data-testid="selection-summary">
                {hydrated && live ? live.text : (serverPreview ?? 'Vous gardez tous vos fichiers.')}
              </p>
              {hydrated && live?.overLimit ? (
                <p className="text-destructive text-sm">{`Au plus ${live.max} fichiers peuvent être retirés (${review.maxDropPercent}${NBSP}%).`}</p>
              ) : null}
              {error ? (
                <p role="alert" className="text-destructive text-sm">
                  {error}
                </p>
              ) : null}
            </div>
            <div className="flex flex-wrap gap-2">
              {hydrated ? null : (
                <Button type="submit" name="intent" value="calculer" variant="outline">
                  Calculer le montant
                </Button>
              )}
              <Button type="submit" name="intent" value="valider">
                Valider ma sélection
              </Button>
            </div>
          </div>
        </form>
      ) : null}
    </section>
  );
}
