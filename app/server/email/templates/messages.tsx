import { Text } from '@react-email/text';
import { z } from 'zod';
import { frenchTypography } from '~/domain/format';
import { Action, EmailLayout, emailStyles, Lines, linkSchema, P } from './layout';
import type { TemplateDefinition } from './types';

const orderMessageSchema = z.object({
  orderNumber: z.string().trim().min(1),
  subject: z.string().trim().min(1).max(150),
  message: z.string().trim().min(1).max(5000),
  /** The order's page (a guest's link carries the order's token). */
  orderUrl: linkSchema,
  customerName: z.string().trim().optional(),
  /** The staff member who wrote, by first name (« Camille, de l’atelier Soovenirs »). */
  signature: z.string().trim().optional(),
});

/**
 * « Contacter le client »: the staff's own words about an order, line breaks kept; the
 * customer's answer goes to the shop's contact address (the layout's Reply-To).
 */
export const orderMessage: TemplateDefinition<typeof orderMessageSchema> = {
  schema: orderMessageSchema,
  // A staff member's own words: not an automatic message (no Auto-Submitted header).
  writtenByPerson: true,
  secretFields: ['orderUrl'],
  build: (data) => ({
    subject: `${data.subject} (commande ${data.orderNumber})`,
    element: (
      <EmailLayout preview={data.subject} heading={`À propos de votre commande ${data.orderNumber}`}>
        <P>{data.customerName ? `Bonjour ${data.customerName},` : 'Bonjour,'}</P>
        <Text style={{ ...emailStyles.paragraph, whiteSpace: 'pre-line' }}>
          <Lines text={frenchTypography(data.message)} />
        </Text>
        <P>{data.signature ? `${data.signature}, de l’atelier Soovenirs` : 'L’atelier Soovenirs'}</P>
        <P small>Pour nous répondre, répondez simplement à cet e-mail.</P>
        <Action href={data.orderUrl} label="Voir ma commande" />
      </EmailLayout>
    ),
  }),
};
