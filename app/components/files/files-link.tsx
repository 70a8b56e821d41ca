import { ImagesIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '~/components/ui/button';
import { describeFileCount } from '~/domain/files/delivered-files';
import { formatDateFr } from '~/domain/format';
import { galleryPath } from './file-paths';

/*
 * On the order page, once « Publier la livraison » is done (decision 011): the way to the gallery, how
 * many files and until when they are kept; after the retention, the date they were deleted.
 */

export interface FilesLinkView {
  expiresAt: Date | string | null;
  deletedAt: Date | string | null;
  count: number;
  bytes: number;
}

export function FilesLink({ orderId, files }: { orderId: string; files: FilesLinkView }) {
  return (
    <section
      aria-labelledby="order-files-title"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-5"
    >
      <h2 id="order-files-title" className="font-semibold text-lg">
        Vos fichiers
      </h2>
      {files.deletedAt ? (
        <p>
          Vos fichiers ont été supprimés le {formatDateFr(files.deletedAt)}, à la fin de leur période de conservation.
        </p>
      ) : (
        <>
          <p className="text-muted-foreground">
            {describeFileCount(files.count, files.bytes)}
            {files.expiresAt ? ` · conservés jusqu’au ${formatDateFr(files.expiresAt)}` : ''}
          </p>
          <Button asChild className="w-fit">
            <Link to={galleryPath(orderId)}>
              <ImagesIcon aria-hidden="true" />
              Voir et télécharger mes fichiers
            </Link>
          </Button>
        </>
      )}
    </section>
  );
}
