import { z } from 'zod';
import '../zod-config';

/** "Recevoir ce devis par e-mail": the address, and a honeypot field that people never fill in. */
export const quoteEmailSchema = z.object({
  email: z
    .string({ error: 'Indiquez votre adresse e-mail.' })
    .trim()
    .max(254, { error: 'Adresse e-mail trop longue.' })
    .pipe(z.email({ error: 'Adresse e-mail invalide.' })),
  website: z.string().optional(),
});
