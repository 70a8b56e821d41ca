/*
 * The signed-in user as the pages see it. Defined here, not in app/server/auth/session.server.ts,
 * so that components (the site header) can name it without importing server code.
 */

export type Role = 'customer' | 'admin';

export interface SessionUser {
  id: string;
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
  /** Confirmed by the e-mailed link, a magic link or a password reset (docs/decisions/010). */
  emailVerified: boolean;
}
