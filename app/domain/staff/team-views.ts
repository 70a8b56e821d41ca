import type { StaffRole } from './permissions';

/* What the « Équipe » page shows (the server builds them, the components read them). */

export interface StaffMemberView {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  twoFactorEnabled: boolean;
  /** False once deactivated: cannot sign in. */
  active: boolean;
}

export interface StaffInvitationView {
  id: string;
  email: string;
  role: StaffRole;
  /** ISO date: the link stops working then. */
  expiresAt: string;
}

/** The « Équipe » action's answer: the French outcome, and the form's submission to show its errors. */
export interface TeamActionData {
  intent: 'invite' | 'role' | 'deactivate' | 'reactivate' | 'revoke';
  ok: boolean;
  message: string;
  /** The row the answer is about (role forms): only its form shows the errors. */
  userId?: string;
  // biome-ignore lint/suspicious/noExplicitAny: Conform's SubmissionResult, without importing it in the domain
  submission?: any;
}
