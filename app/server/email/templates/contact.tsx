import { z } from 'zod';
import { formatDateTimeFr } from '~/domain/format';
import { EmailLayout, P, Quote } from './layout';
import type { TemplateDefinition } from './types';

/** The contact form's service choices. */
const SERVICE_LABELS: Record<string, string> = {
  photos: 'Photos',
  slides: 'Diapositives',
  negatives: 'Négatifs',
  vhs: 'Cassettes VHS',
  film: 'Films',
  documents: 'Documents',
  other: 'Autre',
};

const contactToShopSchema = z.object({
  name: z.string().trim().min(1),
  email: z.email(),
  phone: z.string().trim().optional(),
  subject: z.string().trim().min(1),
  message: z.string().min(1),
  service: z.string().trim().optional(),
  isPro: z.boolean().default(false),
  receivedAt: z.iso.datetime({ offset: true }),
});

/** The message of the contact form, to the shop's mailbox; "Reply" answers the sender. */
export const contactToShop: TemplateDefinition<typeof contactToShopSchema> = {
  schema: contactToShopSchema,
  build: (data) => ({
    subject: `Nouveau message de contact : ${data.subject}`,
    replyTo: data.email,
    element: (
      <EmailLayout preview={`${data.name} : ${data.subject}`} heading="Nouveau message de contact">
        <P>{`Reçu le ${formatDateTimeFr(data.receivedAt)}${data.isPro ? ' (demande professionnelle)' : ''}.`}</P>
        <P>{`De : ${data.name} <${data.email}>`}</P>
        {data.phone ? <P>{`Téléphone : ${data.phone}`}</P> : null}
        {data.service ? <P>{`Prestation : ${SERVICE_LABELS[data.service] ?? data.service}`}</P> : null}
        <P>{`Sujet : ${data.subject}`}</P>
        <Quote>{data.message}</Quote>
        <P small>Répondez directement à cet email pour écrire à l'expéditeur.</P>
      </EmailLayout>
    ),
  }),
};

/*
 * The acknowledgement goes to whatever address the visitor typed, from the shop's own mail server:
 * it carries none of their words (name, subject, message), so that the form cannot relay a message
 * to a third party. Rows queued before kept those fields: the schema drops them.
 */
const contactAcknowledgementSchema = z.object({});

export const contactAcknowledgement: TemplateDefinition<typeof contactAcknowledgementSchema> = {
  schema: contactAcknowledgementSchema,
  build: () => ({
    subject: 'Nous avons bien reçu votre message',
    element: (
      <EmailLayout preview="Merci de nous avoir écrit, nous vous répondons au plus vite." heading="Message bien reçu">
        <P>Bonjour,</P>
        <P>
          Nous avons bien reçu votre message. Nous vous répondrons dans les meilleurs délais, du lundi au vendredi de 9h
          à 20h30 et le samedi de 10h à 15h.
        </P>
        <P small>
          Vous n’avez pas écrit à Soovenirs ? Quelqu’un a saisi votre adresse sur notre formulaire de contact : ignorez
          simplement cet email.
        </P>
      </EmailLayout>
    ),
  }),
};
