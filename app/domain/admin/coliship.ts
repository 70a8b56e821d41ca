import { z } from 'zod';
import { COLISHIP_MESSAGES } from './messages';

/*
 * The Coliship (Colissimo) credentials card (specification 001, sections 3 and 5): user name,
 * password and contract number, all required ("Veuillez remplir tous les champs"). The password is
 * never sent back to the browser: once one is stored, an empty password field means "keep it".
 */

export interface PublicColishipCredentials {
  username: string;
  contractNumber: string;
  passwordSet: boolean;
  /** When the credentials were last checked against the web service, and the outcome. */
  lastCheck: { at: string; ok: boolean } | null;
}

export function createColishipSchema({ passwordStored = false }: { passwordStored?: boolean } = {}) {
  const required = z.string({ error: COLISHIP_MESSAGES.required }).trim().min(1, { error: COLISHIP_MESSAGES.required });
  return z.object({
    username: required.max(100),
    // Passwords are taken as typed (no trim).
    password: passwordStored
      ? z.string().max(200).optional().default('')
      : z.string({ error: COLISHIP_MESSAGES.required }).min(1, { error: COLISHIP_MESSAGES.required }).max(200),
    contractNumber: required.max(20),
  });
}

export type ColishipInput = z.output<ReturnType<typeof createColishipSchema>>;
