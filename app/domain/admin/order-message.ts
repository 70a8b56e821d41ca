import { z } from 'zod';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';
import '../zod-config';

/*
 * « Contacter le client » from an order: a subject and a message the staff writes, sent
 * by e-mail (the customer's answer goes to the shop's contact address) and kept in the history.
 */

export const ORDER_MESSAGE_LIMITS = { subject: 150, message: 5000 } as const;

export const ORDER_MESSAGE_ERRORS = {
  subjectRequired: 'Indiquez l’objet du message',
  subjectTooLong: `L’objet ne doit pas dépasser ${ORDER_MESSAGE_LIMITS.subject} caractères`,
  messageRequired: 'Écrivez votre message',
  messageTooLong: `Le message ne doit pas dépasser ${ORDER_MESSAGE_LIMITS.message} caractères`,
  noEmail: 'Cette commande n’a pas d’adresse e-mail : contactez le client par téléphone',
  notFound: 'Commande introuvable',
} as const;

const E = ORDER_MESSAGE_ERRORS;

export const orderMessageSchema = z.object({
  subject: z
    .string({ error: E.subjectRequired })
    .trim()
    .min(1, E.subjectRequired)
    .max(ORDER_MESSAGE_LIMITS.subject, E.subjectTooLong)
    .refine((text) => !/[\r\n]/.test(text), FORBIDDEN_CHARACTER_MESSAGE)
    .refine(hasNoForbiddenCharacter, FORBIDDEN_CHARACTER_MESSAGE),
  message: z
    .string({ error: E.messageRequired })
    .trim()
    .min(1, E.messageRequired)
    .max(ORDER_MESSAGE_LIMITS.message, E.messageTooLong)
    .refine(hasNoForbiddenCharacter, FORBIDDEN_CHARACTER_MESSAGE),
});

export type OrderMessage = z.output<typeof orderMessageSchema>;
