import { z } from 'zod';
import { describeFileCount } from '~/domain/files/delivered-files';
import { formatDateFr } from '~/domain/format';
import { Action, EmailLayout, linkSchema, P } from './layout';
import type { TemplateDefinition } from './types';

/*
 * The reminder of the files' retention (decision 014): REMINDER_DAYS_BEFORE days before the
 * deletion, the date, the gallery's link (a guest's carries the delivery token: a secret field) and
 * how to keep everything with « Tout télécharger ».
 */

/**
 * The delivered files as the e-mails show them (decision 011): the gallery's link (a guest's carries
 * the delivery token, hence a secret field), how many files, how big, until when they are kept.
 */
export const deliveredFilesFields = {
  galleryUrl: linkSchema.optional(),
  fileCount: z.number().int().nonnegative().optional(),
  totalBytes: z.number().nonnegative().optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
};

/** « Vos fichiers… » block: the count and size, the date, the gallery button. */
export function DeliveredFiles({
  galleryUrl,
  fileCount,
  totalBytes,
  expiresAt,
  label = 'Voir et télécharger mes fichiers',
}: {
  galleryUrl?: string | undefined;
  fileCount?: number | undefined;
  totalBytes?: number | undefined;
  expiresAt?: string | undefined;
  label?: string;
}) {
  if (!galleryUrl) return null;
  return (
    <>
      {fileCount ? <P>{`Vos fichiers en ligne : ${describeFileCount(fileCount, totalBytes ?? 0)}.`}</P> : null}
      {expiresAt ? <P>{`Ils restent disponibles jusqu’au ${formatDateFr(expiresAt)}.`}</P> : null}
      <Action href={galleryUrl} label={label} />
    </>
  );
}

const filesExpiringSchema = z.object({
  orderNumber: z.string().trim().min(1),
  customerName: z.string().trim().optional(),
  galleryUrl: linkSchema,
  /** The ZIP of every file, in one click; a guest's carries the token: secret too. */
  zipUrl: linkSchema.optional(),
  expiresAt: z.iso.datetime({ offset: true }),
  fileCount: z.number().int().nonnegative(),
  totalBytes: z.number().nonnegative(),
});

export const filesExpiring: TemplateDefinition<typeof filesExpiringSchema> = {
  schema: filesExpiringSchema,
  secretFields: ['galleryUrl', 'zipUrl'],
  build: (data) => {
    const day = formatDateFr(data.expiresAt);
    return {
      subject: `Vos fichiers seront supprimés le ${day} (commande ${data.orderNumber})`,
      element: (
        <EmailLayout
          preview={`Pensez à télécharger vos fichiers avant le ${day}.`}
          heading="Pensez à télécharger vos fichiers"
        >
          <P>{data.customerName ? `Bonjour ${data.customerName},` : 'Bonjour,'}</P>
          <P>
            {`Les fichiers de votre commande ${data.orderNumber} (${describeFileCount(data.fileCount, data.totalBytes)}) restent disponibles jusqu’au ${day}. Ils seront ensuite définitivement supprimés de nos serveurs.`}
          </P>
          <P>
            Dans votre galerie, le bouton « Tout télécharger » enregistre tous vos fichiers en une seule archive ZIP.
            Gardez-en une copie sur votre ordinateur et, si possible, sur un second support.
          </P>
          {data.zipUrl ? (
            <>
              <Action href={data.zipUrl} label="Tout télécharger (ZIP)" />
              <P small>
                L’archive contient le fichier MANIFESTE.csv : la taille et l’empreinte SHA-256 de chaque fichier, pour
                vérifier plus tard que rien n’a été abîmé. Vous préférez une clé USB ? Commandez une copie depuis votre
                galerie.
              </P>
              <Action href={data.galleryUrl} label="Voir ma galerie" />
            </>
          ) : (
            <Action href={data.galleryUrl} label="Tout télécharger" />
          )}
          <P small>Besoin de plus de temps ? Répondez à cet email : nous pouvons prolonger la conservation.</P>
        </EmailLayout>
      ),
    };
  },
};
