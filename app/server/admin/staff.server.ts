import { createHash, randomBytes } from 'node:crypto';
import { APIError } from 'better-auth/api';
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { fill } from '~/domain/admin/messages';
import type { AuditFields } from '~/domain/audit/changes';
import { AUTH_MESSAGES, authErrorMessage } from '~/domain/auth-errors';
import { isStaffRole, STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from '~/domain/staff/permissions';
import { refuseStaffChange, type StaffChange, TEAM_MESSAGES } from '~/domain/staff/team-rules';
import type { StaffInvitationView, StaffMemberView } from '~/domain/staff/team-views';
import { recordAudit } from '../audit/audit.server';
import { auth } from '../auth/auth.server';
import { db } from '../db/client.server';
import { session, staffInvitations, user } from '../db/schema';
import { queueEmail } from '../email/outbox.server';
import { baseUrl } from '../env.server';
import { log } from '../log.server';
import { staffAccessChanged } from './notification-streams.server';

/*
 * The « Équipe » page's server side (docs/decisions/016-staff-roles.md): the staff, invitations by
 * e-mail (a link /invitation/<token>, the token stored hashed, 7 days, single use), role changes,
 * deactivation (Better Auth's `banned`, sessions revoked) and reactivation. The rules that need no
 * database (the last active administrator) are in domain/staff/team-rules.ts.
 */

export const INVITATION_DAYS = 7;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function invitationUrl(token: string): string {
  return `${baseUrl()}/invitation/${encodeURIComponent(token)}`;
}

/** Every staff account, administrators first, then by name. */
export async function listStaff(): Promise<StaffMemberView[]> {
  const rows = await db()
    .select({
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      name: user.name,
      role: user.role,
      twoFactorEnabled: user.twoFactorEnabled,
      banned: user.banned,
    })
    .from(user)
    .where(inArray(user.role, [...STAFF_ROLES]))
    .orderBy(sql`${user.role} <> 'admin'`, asc(user.lastName), asc(user.firstName), asc(user.email));
  return rows.flatMap((row) =>
    isStaffRole(row.role)
      ? [
          {
            id: row.id,
            email: row.email,
            name: `${row.firstName} ${row.lastName}`.trim() || row.name || row.email,
            role: row.role,
            twoFactorEnabled: row.twoFactorEnabled,
            active: row.banned !== true,
          },
        ]
      : [],
  );
}

/** Invitations neither accepted, revoked nor expired, newest first. */
export async function listPendingInvitations(): Promise<StaffInvitationView[]> {
  const rows = await db()
    .select({
      id: staffInvitations.id,
      email: staffInvitations.email,
      role: staffInvitations.role,
      expiresAt: staffInvitations.expiresAt,
    })
    .from(staffInvitations)
    .where(
      and(
        isNull(staffInvitations.acceptedAt),
        isNull(staffInvitations.revokedAt),
        gt(staffInvitations.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(staffInvitations.createdAt));
  return rows.flatMap((row) =>
    isStaffRole(row.role)
      ? [{ id: row.id, email: row.email, role: row.role, expiresAt: row.expiresAt.toISOString() }]
      : [],
  );
}

export type TeamResult = { ok: true; message: string } | { ok: false; message: string };

/**
 * Invites `email` as `role`: a new link (the older ones for that address stop working) e-mailed
 * through the outbox. An address that already has an account is refused: staff join with a new
 * account, and a customer's account keeps its orders apart from the back office.
 */
export async function inviteStaff(input: { email: string; role: StaffRole; invitedBy: string }): Promise<TeamResult> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await db().select({ role: user.role }).from(user).where(eq(user.email, email)).limit(1);
  if (existing) {
    return {
      ok: false,
      message: isStaffRole(existing.role) ? TEAM_MESSAGES.alreadyStaff : TEAM_MESSAGES.alreadyCustomer,
    };
  }
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
  const [inviter] = await db()
    .select({ firstName: user.firstName, lastName: user.lastName, email: user.email })
    .from(user)
    .where(eq(user.id, input.invitedBy))
    .limit(1);
  const invitation = await db().transaction(async (tx) => {
    await tx
      .update(staffInvitations)
      .set({ revokedAt: sql`now()` })
      .where(
        and(eq(staffInvitations.email, email), isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)),
      );
    const [row] = await tx
      .insert(staffInvitations)
      .values({ email, role: input.role, tokenHash: hashToken(token), invitedBy: input.invitedBy, expiresAt })
      .returning({ id: staffInvitations.id });
    await recordAudit(tx, {
      actor: input.invitedBy,
      kind: 'staff.invite',
      subject: email,
      subjectLabel: email,
      after: { recipient: email, role: STAFF_ROLE_LABELS[input.role] },
    });
    return row;
  });
  await queueEmail({
    to: email,
    template: 'staff-invitation',
    data: {
      url: invitationUrl(token),
      roleLabel: STAFF_ROLE_LABELS[input.role],
      inviterName: inviter ? `${inviter.firstName} ${inviter.lastName}`.trim() || inviter.email : undefined,
      expiresInDays: INVITATION_DAYS,
    },
    dedupeKey: `staff-invitation:${invitation?.id}`,
  });
  log.info({ invitationId: invitation?.id, role: input.role, by: input.invitedBy }, 'staff invitation sent');
  return { ok: true, message: fill(TEAM_MESSAGES.invited, { email }) };
}

export async function revokeInvitation(id: string, actorId: string): Promise<TeamResult> {
  const revoked = await db().transaction(async (tx) => {
    const [row] = await tx
      .update(staffInvitations)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(staffInvitations.id, id), isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)))
      .returning({ email: staffInvitations.email, role: staffInvitations.role });
    if (!row) return false;
    await recordAudit(tx, {
      actor: actorId,
      kind: 'staff.revoke',
      subject: row.email,
      subjectLabel: row.email,
      before: { recipient: row.email, role: isStaffRole(row.role) ? STAFF_ROLE_LABELS[row.role] : row.role },
    });
    return true;
  });
  return revoked
    ? { ok: true, message: TEAM_MESSAGES.invitationRevoked }
    : { ok: false, message: TEAM_MESSAGES.notFound };
}

/** The invitation of a link, if it can still be accepted. */
export async function findOpenInvitation(token: string): Promise<{ email: string; role: StaffRole } | null> {
  if (!token || token.length > 100) return null;
  const [row] = await db()
    .select({ email: staffInvitations.email, role: staffInvitations.role })
    .from(staffInvitations)
    .where(
      and(
        eq(staffInvitations.tokenHash, hashToken(token)),
        isNull(staffInvitations.acceptedAt),
        isNull(staffInvitations.revokedAt),
        gt(staffInvitations.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row && isStaffRole(row.role) ? { email: row.email, role: row.role } : null;
}

export type AcceptResult =
  | { ok: true; email: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'refused'; message: string };

/**
 * Accepts an invitation: claimed first (one statement: a second click finds it used), then the
 * account is created by Better Auth with the invited address and role, its address proven by the
 * link. If Better Auth refuses (a common password...), the invitation is given back.
 */
export async function acceptInvitation(input: {
  token: string;
  firstName: string;
  lastName: string;
  password: string;
}): Promise<AcceptResult> {
  const [claimed] = await db()
    .update(staffInvitations)
    .set({ acceptedAt: sql`now()` })
    .where(
      and(
        eq(staffInvitations.tokenHash, hashToken(input.token)),
        isNull(staffInvitations.acceptedAt),
        isNull(staffInvitations.revokedAt),
        gt(staffInvitations.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: staffInvitations.id, email: staffInvitations.email, role: staffInvitations.role });
  if (!claimed || !isStaffRole(claimed.role)) return { ok: false, reason: 'invalid' };
  try {
    const created = await auth().api.createUser({
      body: {
        email: claimed.email,
        password: input.password,
        name: `${input.firstName} ${input.lastName}`.trim(),
        role: claimed.role,
        data: { firstName: input.firstName, lastName: input.lastName, emailVerified: true },
      },
    });
    await db().update(user).set({ emailVerified: true }).where(eq(user.id, created.user.id));
    // The new member is the actor: the Journal shows who joined, as what, and from which invitation.
    await recordAudit(db(), {
      actor: created.user.id,
      kind: 'staff.join',
      subject: created.user.id,
      subjectLabel: claimed.email,
      after: { recipient: claimed.email, role: STAFF_ROLE_LABELS[claimed.role] },
    });
    log.info({ invitationId: claimed.id, userId: created.user.id, role: claimed.role }, 'staff invitation accepted');
    return { ok: true, email: claimed.email };
  } catch (error) {
    await db().update(staffInvitations).set({ acceptedAt: null }).where(eq(staffInvitations.id, claimed.id));
    if (error instanceof APIError) {
      const body = error.body as { code?: string } | undefined;
      return {
        ok: false,
        reason: 'refused',
        message: authErrorMessage({ code: body?.code, status: error.statusCode }, 'sign-up'),
      };
    }
    log.error({ err: error, invitationId: claimed.id }, 'staff invitation: the account could not be created');
    return { ok: false, reason: 'refused', message: AUTH_MESSAGES.fallback };
  }
}

/**
 * A role change, a deactivation or a reactivation, decided with the administrators locked (two
 * administrators demoting each other at once cannot leave the shop without one).
 */
export async function changeStaffMember(input: {
  actorId: string;
  userId: string;
  change: StaffChange;
}): Promise<TeamResult> {
  const result = await applyStaffChange(input);
  // The member's open notification streams are checked now, here and in the other instances.
  if (result.ok) await staffAccessChanged();
  return result;
}

function applyStaffChange(input: { actorId: string; userId: string; change: StaffChange }): Promise<TeamResult> {
  return db().transaction(async (tx) => {
    // Locks every staff row: the count of active administrators cannot move under us.
    const rows = await tx
      .select({ id: user.id, role: user.role, banned: user.banned, name: user.name, email: user.email })
      .from(user)
      .where(inArray(user.role, [...STAFF_ROLES]))
      .for('update');
    const target = rows.find((row) => row.id === input.userId);
    if (!target || !isStaffRole(target.role)) return { ok: false, message: TEAM_MESSAGES.notFound };
    const activeAdmins = rows.filter((row) => row.role === 'admin' && row.banned !== true).length;
    const refusal = refuseStaffChange({
      actorId: input.actorId,
      target: { id: target.id, role: target.role, active: target.banned !== true },
      change: input.change,
      activeAdmins,
    });
    if (refusal) return { ok: false, message: refusal };
    const name = target.name || target.email;
    const { change } = input;
    const audit = (
      kind: 'staff.role' | 'staff.deactivate' | 'staff.reactivate',
      before: AuditFields,
      after: AuditFields,
    ) => recordAudit(tx, { actor: input.actorId, kind, subject: target.id, subjectLabel: name, before, after });
    if (change.kind === 'role') {
      await tx.update(user).set({ role: change.role, updatedAt: sql`now()` }).where(eq(user.id, target.id));
      await audit(
        'staff.role',
        { role: STAFF_ROLE_LABELS[target.role as StaffRole] },
        { role: STAFF_ROLE_LABELS[change.role] },
      );
      return { ok: true, message: fill(TEAM_MESSAGES.roleChanged, { name, role: STAFF_ROLE_LABELS[change.role] }) };
    }
    if (change.kind === 'deactivate') {
      await tx
        .update(user)
        .set({ banned: true, banReason: 'Compte désactivé depuis la page Équipe', updatedAt: sql`now()` })
        .where(eq(user.id, target.id));
      // Signed out everywhere now: the role is read on every request, but a session must not outlive the account.
      await tx.delete(session).where(eq(session.userId, target.id));
      await audit('staff.deactivate', { active: true }, { active: false });
      return { ok: true, message: fill(TEAM_MESSAGES.deactivated, { name }) };
    }
    await tx
      .update(user)
      .set({ banned: false, banReason: null, banExpires: null, updatedAt: sql`now()` })
      .where(eq(user.id, target.id));
    await audit('staff.reactivate', { active: false }, { active: true });
    return { ok: true, message: fill(TEAM_MESSAGES.reactivated, { name }) };
  });
}

export async function twoFactorEnabled(userId: string): Promise<boolean> {
  const [row] = await db().select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, userId)).limit(1);
  return row?.on === true;
}
