import { z } from 'zod';
import { formatEurosFromCents } from '~/domain/format';
import { IBAN_MAX_KEEP_DAYS, ibanRequestSentence } from '~/domain/orders/iban';
import { Action, EmailLayout, linkSchema, P } from './layout';
import type { TemplateDefinition } from './types';

/*
 * The refund e-mail: sent when money goes back to the customer (a cancellation, a withdrawal, a
 * partial refund after reception), with the credit note issued for its amount (every refund
 * has its credit note: docs/payments.md). It says how the money comes back, because a card
 * refund takes days to show on a statement and customers ask.
 */

export const REFUND_METHODS = ['gateway', 'transfer', 'cheque', 'gift_card'] as const;

/** How the money comes back, in the customer's words. */
export const REFUND_METHOD_WORDING: Readonly<Record<(typeof REFUND_METHODS)[number], string>> = {
  gateway: 'Le montant est recrédité sur la carte utilisée, sous 5 à 10 jours ouvrés selon votre banque.',
  transfer: 'Le montant vous est versé par virement bancaire, sous quelques jours ouvrés.',
  cheque: 'Le montant vous est adressé par chèque, par courrier, à l’adresse de votre commande.',
  gift_card:
    'Le montant est recrédité sur la carte cadeau qui avait payé cette commande\u00A0: il s’ajoute à son solde, pour une prochaine commande pendant sa validité.',
};

const refundIssuedSchema = z.object({
  orderNumber: z.string().trim().min(1),
  /** What is refunded, in cents including VAT. */
  amountCents: z.number().int().positive(),
  /** `gateway`: back on the card through the payment gateway; `transfer`, `cheque`: made by the staff. */
  method: z.enum(REFUND_METHODS),
  /**
   * The credit note issued for this refund (AV-2026-000012). None when the money goes back to a
   * gift card: that part was invoiced at the card's sale and stays owed on the card (decision 037).
   */
  creditNoteNumber: z.string().trim().min(1).optional(),
  /** Its page: `${baseUrl}/facture/${orderId}?avoir=${creditNoteNumber}`. */
  creditNoteUrl: linkSchema.optional(),
  /** A refund spanning several invoices (the order's and a supplement's) has one credit note each. */
  otherCreditNotes: z.array(z.string().trim().min(1)).default([]),
  /** An account holder also finds the credit note in their customer area; a guest's link carries a token. */
  customerArea: z.boolean().default(true),
  /** Part of the order only (the rest stays due or delivered). */
  partial: z.boolean().default(false),
  /** Paid through the demonstration sandbox: no real money comes back. */
  demo: z.boolean().default(false),
  reason: z.string().trim().min(1).optional(),
  customerName: z.string().trim().optional(),
});

function creditNotesSentence(data: z.infer<typeof refundIssuedSchema>): string {
  const where = data.customerArea ? 'dans votre espace client' : 'ici';
  if (data.otherCreditNotes.length === 0)
    return `L’avoir ${data.creditNoteNumber} correspondant est disponible ${where} :`;
  const notes = [data.creditNoteNumber, ...data.otherCreditNotes];
  const list = `${notes.slice(0, -1).join(', ')} et ${notes.at(-1)}`;
  return `Les avoirs ${list} correspondants (un par facture remboursée) sont disponibles ${where} ; le premier :`;
}

export const refundIssued: TemplateDefinition<typeof refundIssuedSchema> = {
  schema: refundIssuedSchema,
  secretFields: ['creditNoteUrl'],
  build: (data) => {
    const amount = formatEurosFromCents(data.amountCents);
    return {
      subject: `Remboursement de votre commande ${data.orderNumber}`,
      element: (
        <EmailLayout preview={`Nous vous remboursons ${amount}.`} heading="Remboursement">
          <P>{data.customerName ? `Bonjour ${data.customerName},` : 'Bonjour,'}</P>
          <P>
            {data.partial
              ? `Nous vous remboursons ${amount} sur votre commande ${data.orderNumber}.`
              : `Nous vous remboursons votre commande ${data.orderNumber} : ${amount}.`}
          </P>
          {data.reason ? <P>{`Motif : ${data.reason}`}</P> : null}
          <P>
            {data.demo
              ? 'Boutique de démonstration : aucun paiement réel n’a eu lieu, aucun montant ne vous est versé.'
              : REFUND_METHOD_WORDING[data.method]}
          </P>
          {data.creditNoteNumber && data.creditNoteUrl ? (
            <>
              <P>{creditNotesSentence(data)}</P>
              <Action href={data.creditNoteUrl} label="Voir mon avoir" />
            </>
          ) : null}
          <P small>Une question ? Répondez à cet email ou écrivez-nous depuis la page contact du site.</P>
        </EmailLayout>
      ),
    };
  },
};

const refundIbanRequestSchema = z.object({
  orderNumber: z.string().trim().min(1),
  /** What is owed back (every refund of the order still to make), in cents including VAT. */
  amountCents: z.number().int().positive(),
  /** The secure page where the customer gives their IBAN (`/remboursement/:orderId`, a guest's with its token). */
  ibanUrl: linkSchema,
  reason: z.string().trim().min(1).optional(),
  customerName: z.string().trim().optional(),
  /** The reminder sent when nothing was given after IBAN_REMINDER_DAYS. */
  reminder: z.boolean().default(false),
});

/**
 * « Indiquez-nous votre IBAN »: money is owed back on an order paid by transfer or cheque (a
 * shortfall at reception, a withdrawal, files not kept, a cancellation), which no card can take
 * back (decision 025). Never the IBAN itself: the link leads to the page that asks for it.
 */
export const refundIbanRequest: TemplateDefinition<typeof refundIbanRequestSchema> = {
  schema: refundIbanRequestSchema,
  secretFields: ['ibanUrl'],
  build: (data) => {
    const amount = formatEurosFromCents(data.amountCents);
    return {
      subject: data.reminder
        ? `Rappel : votre IBAN pour le remboursement de la commande ${data.orderNumber}`
        : `Votre remboursement de ${amount} (commande ${data.orderNumber}) : indiquez-nous votre IBAN`,
      element: (
        <EmailLayout
          preview={`${ibanRequestSentence(data.amountCents, formatEurosFromCents)}.`}
          heading="Votre remboursement"
        >
          <P>{data.customerName ? `Bonjour ${data.customerName},` : 'Bonjour,'}</P>
          <P>
            {data.reminder
              ? `Nous n’avons pas encore reçu votre IBAN : nous vous devons ${amount} sur votre commande ${data.orderNumber}.`
              : `Nous vous devons ${amount} sur votre commande ${data.orderNumber}.`}
          </P>
          {data.reason ? <P>{`Motif : ${data.reason}`}</P> : null}
          <P>
            {`Vous avez payé par virement ou par chèque : nous vous remboursons par virement bancaire. ${ibanRequestSentence(data.amountCents, formatEurosFromCents)} sur notre page sécurisée.`}
          </P>
          <Action href={data.ibanUrl} label="Indiquer mon IBAN" />
          <P small>
            {`Ne nous envoyez jamais votre IBAN par e-mail. Il est conservé chiffré, utilisé seulement pour ce remboursement et effacé dès le virement fait (au plus tard ${IBAN_MAX_KEEP_DAYS} jours après sa saisie).`}
          </P>
          <P small>Une question ? Répondez à cet email ou écrivez-nous depuis la page contact du site.</P>
        </EmailLayout>
      ),
    };
  },
};
