import { z } from 'zod';
import { shareTitle } from '~/domain/files/sharing';
import { formatDateFr } from '~/domain/format';
import { Action, EmailLayout, linkSchema, P, Quote } from './layout';
import type { TemplateDefinition } from './types';

/*
 * « Partager avec la famille » (decision 028): the invitation a customer sends to a relative,
 * one e-mail per address. The link is the share's bearer token (a secret field, sealed in the
 * outbox); « Répondre » writes to the customer, not to the shop. Nothing of the order (number,
 * address, amount) is in it: the relative is not the customer.
 */

const shareInvitationSchema = z.object({
  sharerName: z.string().trim().min(1),
  shareUrl: linkSchema,
  expiresAt: z.iso.datetime({ offset: true }),
  allowDownloads: z.boolean(),
  fileCount: z.number().int().nonnegative(),
  message: z.string().optional(),
  replyTo: z.email().optional(),
});

export const shareInvitation: TemplateDefinition<typeof shareInvitationSchema> = {
  schema: shareInvitationSchema,
  secretFields: ['shareUrl'],
  build: (data) => {
    const title = shareTitle(data.sharerName);
    const files = data.fileCount === 1 ? '1 fichier' : `${data.fileCount} fichiers`;
    return {
      subject: `${data.sharerName} partage ses souvenirs avec vous`,
      ...(data.replyTo ? { replyTo: data.replyTo } : {}),
      element: (
        <EmailLayout preview={`${title} : ${files} à regarder en ligne.`} heading={title}>
          <P>Bonjour,</P>
          <P>
            {`${data.sharerName} a fait numériser ses souvenirs chez Soovenirs et les partage avec vous : ${files} à regarder en ligne${data.allowDownloads ? ' et à télécharger' : ''}, sans créer de compte.`}
          </P>
          {data.message ? (
            <>
              <P>Son message :</P>
              <Quote>{data.message}</Quote>
            </>
          ) : null}
          <Action href={data.shareUrl} label="Voir les souvenirs" />
          <P small>{`Ce lien est personnel et reste valable jusqu’au ${formatDateFr(data.expiresAt)}.`}</P>
          {data.replyTo ? <P small>{`Répondez à cet e-mail pour écrire à ${data.sharerName}.`}</P> : null}
          <P small>
            Vous avez vous aussi des photos, des films ou des cassettes à numériser ? La page du partage vous montre
            comment commander.
          </P>
        </EmailLayout>
      ),
    };
  },
};
