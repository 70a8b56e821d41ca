import { z } from 'zod';
import { formatEurosFromCents } from '~/domain/format';
import { receivedCountText } from '~/domain/orders/reception';
import { Action, EmailLayout, linkSchema, P } from './layout';
import type { TemplateDefinition } from './types';

/*
 * The reception supplement's e-mails: more items arrived than were ordered, so the
 * customer is told what was counted and asked to approve and pay the difference, priced with the
 * order's own price list; then the receipt with its invoice once paid. The pay link carries the
 * supplement's token (a bearer link): stored encrypted in the outbox.
 */

const countsSchema = z
  .array(z.object({ label: z.string(), ordered: z.number().int(), counted: z.number().int() }))
  .default([]);

const supplementRequestedSchema = z.object({
  orderNumber: z.string().trim().min(1),
  amountCents: z.number().int().positive(),
  counts: countsSchema,
  /** /supplement/<adjustmentId>?t=<token>: opens the supplement in any browser. */
  payUrl: linkSchema,
  customerName: z.string().trim().optional(),
});

export const supplementRequested: TemplateDefinition<typeof supplementRequestedSchema> = {
  schema: supplementRequestedSchema,
  secretFields: ['payUrl'],
  build: (data) => {
    const amount = formatEurosFromCents(data.amountCents);
    return {
      subject: `Supplément à valider pour votre commande ${data.orderNumber}`,
      element: (
        <EmailLayout
          preview={`Nous avons reçu plus d’originaux que prévu : ${amount} à valider.`}
          heading="Votre colis est arrivé"
        >
          <P>{data.customerName ? `Bonjour ${data.customerName},` : 'Bonjour,'}</P>
          <P>{`Nous avons reçu vos originaux pour la commande ${data.orderNumber} et les avons comptés :`}</P>
          {data.counts.map((line) => (
            <P key={line.label}>{receivedCountText(line)}</P>
          ))}
          <P>{`La différence, au tarif de votre commande, s’élève à ${amount}. Vous pouvez payer ce supplément pour que tout soit numérisé, ou le refuser : nous numériserons alors ce que vous avez déjà payé.`}</P>
          <Action href={data.payUrl} label="Voir le supplément" />
          <P small>Une question ? Répondez à cet email ou écrivez-nous depuis la page contact du site.</P>
        </EmailLayout>
      ),
    };
  },
};

const supplementPaidSchema = z.object({
  orderNumber: z.string().trim().min(1),
  amountCents: z.number().int().positive(),
  invoiceNumber: z.string().trim().min(1),
  /** The supplement invoice's PDF: /facture/<orderId>/pdf?facture=<number>. */
  invoiceUrl: linkSchema,
  customerName: z.string().trim().optional(),
});

export const supplementPaid: TemplateDefinition<typeof supplementPaidSchema> = {
  schema: supplementPaidSchema,
  // A guest's link carries the order's token.
  secretFields: ['invoiceUrl'],
  build: (data) => {
    const amount = formatEurosFromCents(data.amountCents);
    return {
      subject: `Supplément payé pour votre commande ${data.orderNumber}`,
      element: (
        <EmailLayout preview={`Nous avons bien reçu ${amount}.`} heading="Supplément payé">
          <P>{data.customerName ? `Bonjour ${data.customerName},` : 'Bonjour,'}</P>
          <P>{`Nous avons bien reçu le paiement du supplément de ${amount} pour votre commande ${data.orderNumber}. Tous vos originaux seront numérisés.`}</P>
          <P>{`Votre facture ${data.invoiceNumber} est disponible :`}</P>
          <Action href={data.invoiceUrl} label="Voir ma facture" />
          <P small>Une question ? Répondez à cet email ou écrivez-nous depuis la page contact du site.</P>
        </EmailLayout>
      ),
    };
  },
};
