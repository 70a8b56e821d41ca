import { z } from 'zod';
import '../zod-config';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';
import { COLISHIP_MESSAGES } from './messages';

/*
 * The Coliship (Colissimo) credentials card: user name,
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
  // Stored in PostgreSQL, which refuses NUL: the shop's message rather than a server error.
  const clean = { error: FORBIDDEN_CHARACTER_MESSAGE };
  const tooLong = (max: number) => ({ error: `${max} caractères au maximum`, abort: true });
  const required = (max: number) =>
    z
      .string({ error: COLISHIP_MESSAGES.required })
      .trim()
      .min(1, { error: COLISHIP_MESSAGES.required, abort: true })
      .max(max, tooLong(max))
      .refine(hasNoForbiddenCharacter, clean);
  return z.object({
    username: required(100),
    // Passwords are taken as typed (no trim).
    password: (passwordStored
      ? z.string().max(200, tooLong(200)).optional().default('')
      : z
          .string({ error: COLISHIP_MESSAGES.required })
          .min(1, { error: COLISHIP_MESSAGES.required, abort: true })
          .max(200, tooLong(200))
    ).refine(hasNoForbiddenCharacter, clean),
    contractNumber: required(20),
  });
}

export type ColishipInput = z.output<ReturnType<typeof createColishipSchema>>;
