import { CopyIcon, DownloadIcon, SparklesIcon } from 'lucide-react';
import { data, Link } from 'react-router';
import { ShareEnded, ShareLimited } from '~/components/sharing/share-refusals';
import { SharedGrid } from '~/components/sharing/shared-grid';
import { Button } from '~/components/ui/button';
import { Pagination } from '~/components/ui/pagination';
import { describeFileCount, formatFileSize } from '~/domain/files/delivered-files';
import { shareCopyPath, sharePath, shareTitle } from '~/domain/files/sharing';
import { formatDateFr } from '~/domain/format';
import { loadGalleryPage } from '~/server/files/gallery.server';
import { countShareAccess, lookUpShare, shareSelection } from '~/server/files/sharing.server';
import type { Route } from './+types/share';

/*
 * /partage/{token}: what a relative opens from the customer's link or invitation (decision
 * 028), with no account. It says whose memories they are and how to order one's own, shows only the
 * share's files (the gallery's own query, restricted to the selection) and nothing of the order:
 * no number, no address, no invoice, no link into the account. Ended (revoked, expired, files
 * deleted): « Ce partage a pris fin », 410; an unknown token: 404; too many unknown tokens from
 * this client: 429 (sharing.server.ts).
 */

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  {
    title:
      loaded?.state === 'open'
        ? `${shareTitle(loaded.share.sharerName)} | Soovenirs`
        : loaded?.state === 'ended'
          ? 'Ce partage a pris fin | Soovenirs'
          : 'Partage | Soovenirs',
  },
  { name: 'robots', content: 'noindex' },
  // The token is the key: never sent to another site in a Referer.
  { name: 'referrer', content: 'no-referrer' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request, params }: Route.LoaderArgs) {
  const lookup = await lookUpShare(request, params.token);
  if (lookup.kind === 'unknown') throw data(null, { status: 404 });
  if (lookup.kind === 'limited') {
    return data({ state: 'limited' as const }, { status: 429, headers: { 'Retry-After': '600' } });
  }
  if (lookup.kind === 'ended') return data({ state: 'ended' as const }, { status: 410 });
  const { share } = lookup;
  const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
  const gallery = await loadGalleryPage(share.orderId, page, undefined, shareSelection(share));
  if (request.method === 'GET') await countShareAccess(share.id);
  return {
    state: 'open' as const,
    token: params.token,
    share: {
      sharerName: share.sharerName,
      message: share.message,
      expiresAt: share.expiresAt,
      allowDownloads: share.allowDownloads,
    },
    gallery: {
      groups: gallery.groups,
      totalCount: gallery.totalCount,
      totalBytes: gallery.totalBytes,
      page: gallery.page,
      pageCount: gallery.pageCount,
      // Only what a relative needs: the customer's « À refaire » and comments stay theirs.
      files: gallery.files.map((file) => ({
        id: file.id,
        name: file.name,
        support: file.support,
        kind: file.kind,
        sizeBytes: file.sizeBytes,
        width: file.width,
        height: file.height,
        durationSeconds: file.durationSeconds,
        hasThumbnail: file.hasThumbnail,
        hasPreview: file.hasPreview,
      })),
    },
  };
}

export default function SharePage({ loaderData }: Route.ComponentProps) {
  if (loaderData.state === 'ended') return <ShareEnded />;
  if (loaderData.state === 'limited') return <ShareLimited />;
  const { token, share, gallery } = loaderData;
  const title = shareTitle(share.sharerName);
  return (
    <section
      aria-labelledby="share-title"
      className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6"
    >
      <div className="flex flex-col gap-2">
        <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Partagé avec vous</p>
        <h1 id="share-title" className="text-title">
          {title}
        </h1>
        <p className="text-muted-foreground">
          {share.sharerName} a fait numériser ses souvenirs chez Soovenirs et vous invite à les regarder
          {share.allowDownloads ? ' et à les télécharger' : ''}. Ce partage reste ouvert jusqu’au{' '}
          {formatDateFr(share.expiresAt)}.
        </p>
      </div>
      {share.message ? (
        <figure className="rounded-lg border-sepia border-l-4 bg-card p-4">
          <blockquote className="whitespace-pre-wrap">{share.message}</blockquote>
          <figcaption className="mt-2 text-muted-foreground text-sm">{share.sharerName}</figcaption>
        </figure>
      ) : null}

      {gallery.totalCount === 0 ? (
        <p className="rounded-lg border border-border bg-card p-5">Ce partage ne contient plus aucun fichier.</p>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-border bg-card p-5">
            <p className="font-medium">{describeFileCount(gallery.totalCount, gallery.totalBytes)}</p>
            {share.allowDownloads ? (
              <Button asChild size="lg">
                <a href={`${sharePath(token)}/fichiers.zip`} download>
                  <DownloadIcon aria-hidden="true" />
                  Tout télécharger ({formatFileSize(gallery.totalBytes)})
                </a>
              </Button>
            ) : (
              <p className="text-muted-foreground text-sm">Ce partage permet de regarder les fichiers en ligne.</p>
            )}
          </div>
          <SharedGrid
            token={token}
            groups={gallery.groups}
            files={gallery.files}
            allowDownloads={share.allowDownloads}
          />
          <Pagination
            page={gallery.page}
            pageCount={gallery.pageCount}
            hrefFor={(page) => `${sharePath(token)}${page > 1 ? `?page=${page}` : ''}`}
            label="Pages de fichiers"
          />
        </>
      )}

      <aside aria-label="Commander" className="grid gap-4 sm:grid-cols-2">
        {/* A copy is the files themselves: offered when the customer let them be taken (decision 028). */}
        {share.allowDownloads ? (
          <div className="flex flex-col gap-3 rounded-lg border border-border bg-card p-5">
            <h2 id="share-order-title" className="font-semibold text-lg">
              Une copie à garder chez vous
            </h2>
            <p className="text-muted-foreground text-sm">
              Recevez ces souvenirs sur une clé USB ou un DVD, livrés chez vous.
            </p>
            <Button asChild variant="outline" className="w-fit">
              <a href={shareCopyPath(token)}>
                <CopyIcon aria-hidden="true" />
                Commander une copie
              </a>
            </Button>
          </div>
        ) : null}
        <div className="flex flex-col gap-3 rounded-lg border border-border bg-card p-5">
          <h2 className="font-semibold text-lg">Vous aussi, numérisez vos souvenirs</h2>
          <p className="text-muted-foreground text-sm">
            Photos, diapositives, négatifs, cassettes VHS, films Super 8 : composez votre commande en ligne et voyez son
            prix tout de suite.
          </p>
          <Button asChild className="w-fit">
            <Link to="/configurateur">
              <SparklesIcon aria-hidden="true" />
              Faire numériser mes souvenirs
            </Link>
          </Button>
        </div>
      </aside>
    </section>
  );
}
