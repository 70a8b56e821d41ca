import { NBSP } from '../format';
import type { StaffRole } from './permissions';

/*
 * The rules of the « Équipe » page that do not need the database to be decided: the shop always
 * keeps one active administrator (nobody can demote or deactivate the last one, themselves
 * included), and nobody deactivates their own account (they would lock themselves out mid-click).
 */

export interface StaffMemberState {
  id: string;
  role: StaffRole;
  active: boolean;
}

export type StaffChange = { kind: 'role'; role: StaffRole } | { kind: 'deactivate' } | { kind: 'reactivate' };

export const TEAM_MESSAGES = {
  lastAdminDemoted: 'Impossible de retirer le rôle d’administrateur au dernier administrateur actif.',
  lastAdminDeactivated: 'Impossible de désactiver le dernier administrateur actif.',
  selfDeactivated: 'Vous ne pouvez pas désactiver votre propre compte.',
  notFound: 'Membre de l’équipe introuvable.',
  alreadyStaff: 'Cette adresse appartient déjà à un membre de l’équipe.',
  alreadyCustomer: `Cette adresse appartient déjà à un compte client${NBSP}: elle ne peut pas recevoir d’invitation.`,
  invited: 'Invitation envoyée à {email}',
  roleChanged: `Rôle de {name}${NBSP}: {role}`,
  deactivated: '{name} ne peut plus se connecter',
  reactivated: '{name} peut de nouveau se connecter',
  invitationRevoked: 'Invitation annulée',
} as const;

/** null when the change is allowed, or the French reason it is refused. */
export function refuseStaffChange(input: {
  actorId: string;
  target: StaffMemberState;
  change: StaffChange;
  /** Active administrators in the shop, the target included if it is one. */
  activeAdmins: number;
}): string | null {
  const { actorId, target, change, activeAdmins } = input;
  const isLastAdmin = target.role === 'admin' && target.active && activeAdmins <= 1;
  if (change.kind === 'role') return isLastAdmin && change.role !== 'admin' ? TEAM_MESSAGES.lastAdminDemoted : null;
  if (change.kind === 'deactivate') {
    if (target.id === actorId) return TEAM_MESSAGES.selfDeactivated;
    return isLastAdmin ? TEAM_MESSAGES.lastAdminDeactivated : null;
  }
  return null;
}
