import { z } from 'zod';
import { formatDateFr } from '~/domain/format';
import { Action, EmailLayout, linkSchema, P } from './layout';
import type { TemplateDefinition } from './types';

/*
 * « Preview and keep » (decision 030): the scans are online for the customer's
 * review until a date; they untick what they do not want (up to a share) and are not charged for
 * it. The opening e-mail and the reminder carry the review page's link (a guest's holds the order's
 * token: a secret field, sealed in the outbox).
 */

const reviewSchema = z.object({
  orderNumber: z.string().trim().min(1),
  customerName: z.string().trim().optional(),
  selectionUrl: linkSchema,
  endsAt: z.iso.datetime({ offset: true }),
  fileCount: z.number().int().nonnegative(),
  maxDropPercent: z.number().int().min(0).max(100),
});

type ReviewData = z.infer<typeof reviewSchema>;

function terms(data: ReviewData): string {
  return data.maxDropPercent > 0
    ? `Décochez ceux que vous ne souhaitez pas garder (au plus ${data.maxDropPercent} % des fichiers) : ils ne vous sont pas facturés et la différence vous est remboursée, avec un avoir.`
    : 'Vérifiez vos fichiers avant leur livraison.';
}

export const reviewOpen: TemplateDefinition<typeof reviewSchema> = {
  schema: reviewSchema,
  secretFields: ['selectionUrl'],
  build: (data) => {
    const day = formatDateFr(data.endsAt);
    return {
      subject: `Choisissez les fichiers à garder avant le ${day} (commande ${data.orderNumber})`,
      element: (
        <EmailLayout
          preview={`Vos numérisations vous attendent jusqu’au ${day}.`}
          heading="Vos numérisations vous attendent"
        >
          <P>{data.customerName ? `Bonjour ${data.customerName},` : 'Bonjour,'}</P>
          <P>
            {`Les ${data.fileCount} fichiers de votre commande ${data.orderNumber} à sélectionner sont en ligne. ${terms(data)}`}
          </P>
          <P>
            {`Vous avez jusqu’au ${day} pour valider votre sélection. Sans réponse à cette date, tous vos fichiers sont gardés et livrés.`}
          </P>
          <Action href={data.selectionUrl} label="Faire ma sélection" />
        </EmailLayout>
      ),
    };
  },
};

export const reviewReminder: TemplateDefinition<typeof reviewSchema> = {
  schema: reviewSchema,
  secretFields: ['selectionUrl'],
  build: (data) => {
    const day = formatDateFr(data.endsAt);
    return {
      subject: `Rappel : votre sélection se termine le ${day} (commande ${data.orderNumber})`,
      element: (
        <EmailLayout preview={`Votre sélection se termine le ${day}.`} heading="Votre sélection se termine bientôt">
          <P>{data.customerName ? `Bonjour ${data.customerName},` : 'Bonjour,'}</P>
          <P>{`Vous n’avez pas encore validé la sélection des fichiers de votre commande ${data.orderNumber}. ${terms(data)}`}</P>
          <P>{`Après le ${day}, tous vos fichiers sont gardés et livrés.`}</P>
          <Action href={data.selectionUrl} label="Faire ma sélection" />
        </EmailLayout>
      ),
    };
  },
};
