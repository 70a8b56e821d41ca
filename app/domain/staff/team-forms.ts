import { z } from 'zod';
import '../zod-config';
import { ADMIN_PASSWORD_MIN_LENGTH, newPassword, passwordsMatch } from '../account/schemas';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';
import { STAFF_ROLES } from './permissions';

/*
 * The « Équipe » page's forms and the invitation's, validated by the same schemas in the browser
 * (Conform) and on the server (parseWithZod). French messages.
 */

const role = z.enum(STAFF_ROLES, { error: 'Choisissez un rôle' });

export const inviteStaffSchema = z.object({
  intent: z.literal('invite'),
  email: z
    .string({ error: 'Veuillez saisir une adresse e-mail' })
    .trim()
    .max(254, 'Adresse e-mail trop longue')
    .pipe(z.email('Adresse e-mail invalide')),
  role,
});

export const changeRoleSchema = z.object({
  intent: z.literal('role'),
  userId: z.string().min(1).max(100),
  role,
});

export const memberStateSchema = z.object({
  intent: z.enum(['deactivate', 'reactivate']),
  userId: z.string().min(1).max(100),
});

export const revokeInvitationSchema = z.object({
  intent: z.literal('revoke'),
  invitationId: z.uuid('Invitation introuvable'),
});

const name = (label: string) =>
  z
    .string({ error: `Veuillez saisir votre ${label}` })
    .trim()
    .min(1, `Veuillez saisir votre ${label}`)
    .max(100, `${label[0]?.toUpperCase()}${label.slice(1)} trop long`)
    .refine(hasNoForbiddenCharacter, FORBIDDEN_CHARACTER_MESSAGE);

/** The invited person's account: names and a password as long as an administrator's (staff hold keys). */
export const acceptInvitationSchema = z
  .object({
    firstName: name('prénom'),
    lastName: name('nom'),
    password: newPassword(
      'Veuillez choisir un mot de passe',
      ADMIN_PASSWORD_MIN_LENGTH,
      `Le mot de passe doit contenir au moins ${ADMIN_PASSWORD_MIN_LENGTH} caractères`,
    ),
    confirmPassword: z.string({ error: 'Veuillez confirmer le mot de passe' }),
  })
  .refine((value) => value.password === value.confirmPassword, passwordsMatch);
