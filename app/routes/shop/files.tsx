import { ArrowLeftIcon, DownloadIcon } from 'lucide-react';
import { useState } from 'react';
import { data, Link, redirect } from 'react-router';
import { ExtraCopiesPanel } from '~/components/files/extra-copies-panel';
import { FileGrid } from '~/components/files/file-grid';
import { galleryPath, zipPath } from '~/components/files/file-paths';
import { FileViewer, type ReworkActionData } from '~/components/files/file-viewer';
import { RetentionNotice } from '~/components/files/retention-notice';
import { ShareLink } from '~/components/sharing/share-link';
import { Button } from '~/components/ui/button';
import { Pagination } from '~/components/ui/pagination';
import { useHydrated } from '~/components/use-hydrated';
import { describeFileCount, formatFileSize } from '~/domain/files/delivered-files';
import { formatDateFr } from '~/domain/format';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { loadCopyOffer } from '~/server/copies/extra-copies.server';
import {
  filesAreServed,
  getFilesAccess,
  loadGalleryPage,
  REWORK_MESSAGES,
  requestRework,
  reworkFormSchema,
} from '~/server/files/gallery.server';
import { withFileMedia } from '~/server/files/playback.server';
import { readFormData } from '~/server/form-data.server';
import { accessFromLink } from '~/server/orders/access.server';
import type { Route } from './+types/files';

/*
 * /commande/{orderId}/fichiers: « Vos fichiers » (decision 011), the customer's gallery. For the
 * order's owner, the guest holding the order's or the delivery e-mail's token (`?token=` sets the
 * cookie, then the clean address) and the staff; anyone else: 404. Before « Publier la livraison »
 * the customer reads that the files are not ready yet; after the retention job, when they were
 * deleted. The page is server-rendered with plain links to every file; JavaScript adds the viewer.
 */

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: loaded ? `Vos fichiers · commande ${loaded.order.number} | Soovenirs` : 'Vos fichiers | Soovenirs' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: Route.LoaderArgs) {
  const fromLink = await accessFromLink(request, params.orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const access = await getFilesAccess(request, params.orderId);
  if (!access) throw data(null, { status: 404 });
  const { order, viewer } = access;
  const summary = {
    id: order.id,
    number: order.number,
    expiresAt: order.filesExpireAt,
    deletedAt: order.filesDeletedAt,
  };
  if (order.filesDeletedAt) return { state: 'deleted' as const, viewer, order: summary, gallery: null };
  if (!filesAreServed(access)) return { state: 'not_ready' as const, viewer, order: summary, gallery: null };
  const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
  return {
    state: 'ready' as const,
    viewer,
    order: summary,
    gallery: await withFileMedia(await loadGalleryPage(order.id, page)),
    // Extra copies and « Prolonger d’un an » (decision 029), for the customer.
    copyOffer: viewer === 'admin' ? null : await loadCopyOffer(order),
  };
}

/**
 * A refused « À refaire », with its French message: a form's answer, status 200 like the other forms
 * of the shop (a 4xx would be a console error in the browser), except the staff's 403.
 */
function refused(fileId: string | null, error: string, status = 200) {
  const body: ReworkActionData = { intent: 'rework', ok: false, fileId, error };
  return data(body, { status });
}

export async function action({ request, params }: Route.ActionArgs) {
  const access = await getFilesAccess(request, params.orderId);
  if (!access || !filesAreServed(access)) throw data(null, { status: 404 });
  const form = await readFormData(request);
  const rawFileId = typeof form.get('fileId') === 'string' ? (form.get('fileId') as string) : null;
  if (form.get('intent') !== 'rework') throw data(null, { status: 400 });
  if (access.viewer === 'admin') {
    return refused(rawFileId, REWORK_MESSAGES.staffOnly, 403);
  }
  const parsed = reworkFormSchema.safeParse({ fileId: form.get('fileId'), comment: form.get('comment') ?? '' });
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? REWORK_MESSAGES.commentTooShort;
    return refused(rawFileId, error);
  }
  const result = await requestRework({
    orderId: access.order.id,
    orderNumber: access.order.number,
    fileId: parsed.data.fileId,
    comment: parsed.data.comment,
    actor: access.viewer === 'owner' && access.user ? access.user.id : 'guest',
  });
  if (!result.ok) {
    return refused(rawFileId, result.error);
  }
  const done: ReworkActionData = { intent: 'rework', ok: true, fileId: parsed.data.fileId };
  return data(done);
}

export default function Files({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const { order, viewer, state, gallery } = loaderData;
  const [viewing, setViewing] = useState<number | null>(null);
  const back = viewer === 'owner' ? '/profile' : `/confirmation?orderId=${order.id}`;

  return (
    <section
      aria-labelledby="files-title"
      data-hydrated={hydrated}
      className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6"
    >
      <Link
        to={`/confirmation?orderId=${order.id}`}
        className="inline-flex w-fit items-center gap-1.5 text-primary text-sm underline-offset-4 hover:underline"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" />
        Retour à la commande
      </Link>
      <div className="flex flex-col gap-2">
        <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Commande {order.number}</p>
        <h1 id="files-title" className="text-title">
          Vos fichiers
        </h1>
        {state === 'ready' && order.expiresAt ? <RetentionNotice expiresAt={order.expiresAt} /> : null}
      </div>

      {state === 'deleted' && order.deletedAt ? (
        <p className="rounded-lg border border-border bg-card p-5">
          Vos fichiers ont été supprimés le {formatDateFr(order.deletedAt)}, à la fin de leur période de conservation.
        </p>
      ) : null}
      {state === 'not_ready' ? (
        <p className="rounded-lg border border-border bg-card p-5">
          Vos fichiers ne sont pas encore prêts. Nous vous enverrons un e-mail dès qu’ils pourront être téléchargés.{' '}
          <Link to={back} className="text-primary underline underline-offset-4">
            Suivre ma commande
          </Link>
        </p>
      ) : null}

      {gallery && gallery.totalCount === 0 ? (
        <p className="rounded-lg border border-border bg-card p-5">Aucun fichier n’a encore été déposé.</p>
      ) : null}
      {gallery && gallery.totalCount > 0 ? (
        <>
          {actionData && !actionData.ok && !hydrated ? (
            <p role="alert" className="text-destructive">
              {actionData.error}
            </p>
          ) : null}
          <div className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-border bg-card p-5">
            <p className="font-medium">{describeFileCount(gallery.totalCount, gallery.totalBytes)}</p>
            <Button asChild size="lg">
              <a href={zipPath(order.id)} download>
                <DownloadIcon aria-hidden="true" />
                Tout télécharger ({formatFileSize(gallery.totalBytes)})
              </a>
            </Button>
          </div>
          <ShareLink orderId={order.id} />
          {'copyOffer' in loaderData && loaderData.copyOffer ? (
            <ExtraCopiesPanel orderId={order.id} offer={loaderData.copyOffer} />
          ) : null}
          <FileGrid
            orderId={order.id}
            groups={gallery.groups}
            files={gallery.files}
            hydrated={hydrated}
            onOpen={setViewing}
          />
          <Pagination
            page={gallery.page}
            pageCount={gallery.pageCount}
            hrefFor={(page) => galleryPath(order.id, page)}
            label="Pages de fichiers"
          />
          <FileViewer
            orderId={order.id}
            files={gallery.files}
            index={viewing}
            onIndexChange={setViewing}
            canRework={viewer !== 'admin'}
          />
        </>
      ) : null}
    </section>
  );
}
