import { ArrowLeftIcon } from 'lucide-react';
import { data, Link, redirect } from 'react-router';
import { galleryPath } from '~/components/files/file-paths';
import { ShareForm, type ShareFormValues } from '~/components/sharing/share-form';
import { ShareList } from '~/components/sharing/share-list';
import { SHARE_DEFAULT_DAYS, SHARE_MESSAGES } from '~/domain/files/sharing';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { baseUrl } from '~/server/env.server';
import { filesAreServed, getFilesAccess } from '~/server/files/gallery.server';
import {
  createShare,
  listShareableFiles,
  listShares,
  revokeShare,
  shareFormFields,
} from '~/server/files/sharing.server';
import { readFormData } from '~/server/form-data.server';
import { accessFromLink } from '~/server/orders/access.server';
import type { Route } from './+types/shares';

/*
 * /commande/{orderId}/partages: « Partager avec la famille » (decision 028). The order's owner,
 * or the guest holding its token, shares all the delivered files or a selection, view-only or with
 * downloads, for a chosen time, by link and optionally by e-mail; follows each share's visits and
 * stops it at any time. Staff holding orders.read see the shares, and change nothing. The form is
 * a plain post: it works without JavaScript, and a refused form comes back with what was typed.
 */

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  {
    title: loaded
      ? `Partager avec la famille · commande ${loaded.order.number} | Soovenirs`
      : 'Partager avec la famille | Soovenirs',
  },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: Route.LoaderArgs) {
  const fromLink = await accessFromLink(request, params.orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const access = await getFilesAccess(request, params.orderId);
  if (!access) throw data(null, { status: 404 });
  const { order, viewer } = access;
  const served = filesAreServed(access);
  const url = new URL(request.url);
  const [shares, files] = await Promise.all([
    listShares(order.id),
    served && viewer !== 'admin' ? listShareableFiles(order.id) : Promise.resolve([]),
  ]);
  const origin = baseUrl();
  return {
    viewer,
    order: { id: order.id, number: order.number, expiresAt: order.filesExpireAt },
    served,
    shares: shares.map((share) => ({ ...share, url: share.path ? `${origin}${share.path}` : null })),
    files,
    created: url.searchParams.get('cree'),
    revoked: url.searchParams.get('arrete'),
  };
}

export type SharesActionData = { ok: false; error: string; values: ShareFormValues };

export async function action({ request, params }: Route.ActionArgs) {
  const access = await getFilesAccess(request, params.orderId);
  if (!access) throw data(null, { status: 404 });
  const form = await readFormData(request);
  const intent = form.get('intent');
  const values: ShareFormValues = {
    scope: form.get('scope') === 'selection' ? 'selection' : 'all',
    fileIds: form.getAll('fileId').filter((id): id is string => typeof id === 'string'),
    access: form.get('access') === 'download' ? 'download' : 'view',
    days: typeof form.get('days') === 'string' ? (form.get('days') as string) : String(SHARE_DEFAULT_DAYS),
    emails: typeof form.get('emails') === 'string' ? (form.get('emails') as string) : '',
    label: typeof form.get('label') === 'string' ? (form.get('label') as string) : '',
    message: typeof form.get('message') === 'string' ? (form.get('message') as string) : '',
  };
  const refuse = (error: string, status = 200) =>
    data({ ok: false, error, values } satisfies SharesActionData, { status });
  if (access.viewer === 'admin') return refuse(SHARE_MESSAGES.staffOnly, 403);
  const here = `/commande/${access.order.id}/partages`;
  if (intent === 'revoke') {
    const shareId = typeof form.get('shareId') === 'string' ? (form.get('shareId') as string) : '';
    if (!(await revokeShare(access.order.id, shareId))) return refuse(SHARE_MESSAGES.unknownShare);
    throw redirect(`${here}?arrete=${encodeURIComponent(shareId)}`);
  }
  if (intent !== 'create') throw data(null, { status: 400 });
  if (!filesAreServed(access)) return refuse(SHARE_MESSAGES.notServed);
  const parsed = shareFormFields(form);
  if (!parsed.ok) return refuse(parsed.error);
  const result = await createShare({
    orderId: access.order.id,
    createdBy: access.viewer === 'owner' && access.user ? access.user.id : 'guest',
    form: parsed.value,
  });
  if (!result.ok) return refuse(result.error);
  throw redirect(`${here}?cree=${result.shareId}#partage-${result.shareId}`);
}

export default function Shares({ loaderData, actionData }: Route.ComponentProps) {
  const { order, viewer, served, shares, files, created, revoked } = loaderData;
  const createdShare = created ? shares.find((share) => share.id === created) : undefined;
  return (
    <section
      aria-labelledby="shares-title"
      className="mx-auto flex w-full max-w-4xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6"
    >
      <Link
        to={galleryPath(order.id)}
        className="inline-flex w-fit items-center gap-1.5 text-primary text-sm underline-offset-4 hover:underline"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" />
        Retour à mes fichiers
      </Link>
      <div className="flex flex-col gap-2">
        <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Commande {order.number}</p>
        <h1 id="shares-title" className="text-title">
          Partager avec la famille
        </h1>
        <p className="text-muted-foreground">
          Vos proches regardent vos fichiers sans créer de compte, par un lien personnel. Ils ne voient que les fichiers
          partagés, jamais votre commande, votre adresse ni vos factures.
        </p>
      </div>

      {createdShare ? (
        <p role="status" className="rounded-lg border border-success bg-success-tint p-4 text-success-tint-foreground">
          Votre partage est créé
          {createdShare.invited.length > 0
            ? ` et ${createdShare.invited.length === 1 ? 'l’invitation est envoyée' : `${createdShare.invited.length} invitations sont envoyées`}`
            : ''}
          . Copiez son lien ci-dessous pour l’envoyer vous-même.
        </p>
      ) : null}
      {revoked && shares.some((share) => share.id === revoked) ? (
        <p role="status" className="rounded-lg border border-border bg-card p-4">
          Le partage est arrêté : son lien affiche désormais « Ce partage a pris fin ».
        </p>
      ) : null}
      {actionData && !actionData.ok ? (
        <p role="alert" className="rounded-lg border border-destructive p-4 text-destructive">
          {actionData.error}
        </p>
      ) : null}

      <ShareList shares={shares} canRevoke={viewer !== 'admin'} highlight={created} />

      {viewer === 'admin' ? null : served ? (
        <ShareForm
          files={files}
          orderId={order.id}
          retentionEnd={order.expiresAt}
          values={actionData && !actionData.ok ? actionData.values : null}
        />
      ) : (
        <p className="rounded-lg border border-border bg-card p-5">{SHARE_MESSAGES.notServed}</p>
      )}
    </section>
  );
}
