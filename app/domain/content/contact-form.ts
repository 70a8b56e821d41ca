import { z } from 'zod';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';
// jitless parsing (CSP without 'unsafe-eval') and zod's own messages in French.
import '../zod-config';
import { CONTACT_MAX_LENGTH, CONTACT_MESSAGES, CONTACT_SERVICES } from './contact-fields';

/*
 * The contact form's checks, run by the server only:
 * name, email, subject and message are required; phone and service are optional. The fields and
 * messages live in ./contact-fields.ts, which the browser's form imports without zod.
 */

const required = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, { error: CONTACT_MESSAGES.tooLong(max) })
    .refine(hasNoForbiddenCharacter, { error: FORBIDDEN_CHARACTER_MESSAGE });

export const contactMessageSchema = z.object({
  name: required(CONTACT_MESSAGES.name, CONTACT_MAX_LENGTH.name),
  email: z
    .string({ error: CONTACT_MESSAGES.email })
    .trim()
    .min(1, { error: CONTACT_MESSAGES.email, abort: true })
    .max(CONTACT_MAX_LENGTH.email, { error: CONTACT_MESSAGES.emailInvalid, abort: true })
    .pipe(z.email({ error: CONTACT_MESSAGES.emailInvalid })),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[\d\s.()-]{6,25}$/, { error: CONTACT_MESSAGES.phoneInvalid })
    .optional(),
  subject: required(CONTACT_MESSAGES.subject, CONTACT_MAX_LENGTH.subject),
  message: required(CONTACT_MESSAGES.message, CONTACT_MAX_LENGTH.message),
  service: z.enum(CONTACT_SERVICES, { error: CONTACT_MESSAGES.service }).optional(),
  // A checkbox: "on" when ticked, absent otherwise.
  pro: z
    .union([z.boolean(), z.literal('on')])
    .optional()
    .transform((value) => value === true || value === 'on'),
});

export type ContactMessageInput = z.output<typeof contactMessageSchema>;

/** The form's fields as posted (a type only: the browser's form names its fields without zod). */
export type ContactMessageFields = z.input<typeof contactMessageSchema>;
