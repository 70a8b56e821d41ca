import { z } from 'zod';
import '../zod-config';
import type { Role } from '../account/session-user';
import { NBSP } from '../format';

/*
 * The team's rule on two-factor sign-in: the owner may make it compulsory for
 * administrators, who hold the shop's money, settings and staff. Kept in config_options
 * (staff_security); an administrator without it can then only reach « Sécurité » to set it up.
 * Off by default: a shop turns it on once its administrators have their app.
 */

export interface TwoFactorPolicy {
  adminTwoFactorRequired: boolean;
}

export const DEFAULT_TWO_FACTOR_POLICY: TwoFactorPolicy = { adminTwoFactorRequired: false };

/** The one page an administrator held by the rule may reach: where two-factor sign-in is set up. */
export const SECURITY_PAGE_PATH = '/admin/securite';

export const TWO_FACTOR_POLICY_MESSAGES = {
  required: `La double authentification est obligatoire pour les administrateurs${NBSP}: activez-la ci-dessous pour accéder au tableau de bord.`,
  enableYoursFirst: `Activez d’abord la double authentification sur votre propre compte${NBSP}: sinon, la règle vous fermerait le tableau de bord.`,
  savedOn: 'La double authentification est désormais obligatoire pour les administrateurs.',
  savedOff: 'La double authentification n’est plus obligatoire pour les administrateurs.',
} as const;

/** The checkbox « Obligatoire pour les administrateurs »: ticked posts `on`, unticked posts nothing. */
export const twoFactorPolicySchema = z.object({
  intent: z.literal('policy'),
  adminTwoFactorRequired: z
    .literal('on')
    .optional()
    .transform((value) => value === 'on'),
});

/** A stored value read leniently: anything but an explicit `true` leaves the rule off. */
export function twoFactorPolicyFrom(stored: unknown): TwoFactorPolicy {
  const value = stored as Partial<TwoFactorPolicy> | null;
  return { adminTwoFactorRequired: value?.adminTwoFactorRequired === true };
}

/** Whether this staff member must set up two-factor sign-in before using the back office. */
export function mustSetUpTwoFactor(user: { role: Role; twoFactorEnabled: boolean }, policy: TwoFactorPolicy): boolean {
  return policy.adminTwoFactorRequired && user.role === 'admin' && !user.twoFactorEnabled;
}
