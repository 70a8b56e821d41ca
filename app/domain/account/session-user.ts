/*
 * The signed-in user as the pages see it. Defined here, not in app/server/auth/session.server.ts,
 * so that components (the site header) can name it without importing server code.
 */

import { STAFF_ROLES, type StaffRole } from '../staff/permissions';

/** Customers, and the staff roles of docs/decisions/016-staff-roles.md. */
export type Role = 'customer' | StaffRole;

export interface SessionUser {
  id: string;
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
  /** Confirmed by the e-mailed link, a magic link or a password reset (docs/decisions/010). */
  emailVerified: boolean;
  /** Signs in with a TOTP code too (« Sécurité »): the team's rule may require it of administrators. */
  twoFactorEnabled: boolean;
}

/**
 * "Role customer when no profile is found"; anything but a staff role is a
 * customer. Better Auth stores several roles comma-separated: the most powerful one counts.
 */
export function toRole(value: unknown): Role {
  if (typeof value !== 'string') return 'customer';
  const roles = value.split(',').map((r) => r.trim());
  return STAFF_ROLES.find((role) => roles.includes(role)) ?? 'customer';
}
