import { eq } from 'drizzle-orm';
import type { ProfileInput } from '~/domain/account/schemas';
import { changedFields } from '~/domain/audit/changes';
import { recordAudit } from '../audit/audit.server';
import { auth } from '../auth/auth.server';
import { type Role, toRole } from '../auth/session.server';
import { db } from '../db/client.server';
import { orders, user } from '../db/schema';

/*
 * Account data for the sign-in pages and /profile: the owner of a password-reset token, a role by
 * id, and the profile fields a customer edits (names, phone, address; never the e-mail address nor
 * the role, which Better Auth and the back office own).
 */

export interface ResetTokenOwner {
  userId: string;
  email: string;
  role: Role;
  /** When the token stops working. */
  expiresAt: Date;
}

/**
 * The account a password-reset token belongs to, while the token is valid; null otherwise. Reads
 * Better Auth's own verification record (`reset-password:<token>`), the same one its reset endpoint
 * checks, without consuming it.
 */
export async function resetTokenOwner(token: string): Promise<ResetTokenOwner | null> {
  if (!/^[A-Za-z0-9_-]{8,200}$/.test(token)) return null;
  const context = await auth().$context;
  const verification = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
  if (!verification || verification.expiresAt < new Date()) return null;
  const [owner] = await db()
    .select({ id: user.id, email: user.email, role: user.role })
    .from(user)
    .where(eq(user.id, verification.value))
    .limit(1);
  if (!owner) return null;
  return { userId: owner.id, email: owner.email, role: toRole(owner.role), expiresAt: verification.expiresAt };
}

export interface Profile {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  street: string;
  postalCode: string;
  city: string;
}

/** The account's address and details as stored (null where never given). */
async function storedProfile(userId: string) {
  const [row] = await db()
    .select({
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      phone: user.phone,
      street: user.street,
      postalCode: user.postalCode,
      city: user.city,
    })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  return row ?? null;
}

export async function getProfile(userId: string): Promise<Profile | null> {
  const row = await storedProfile(userId);
  if (!row) return null;
  return {
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone ?? '',
    street: row.street ?? '',
    postalCode: row.postalCode ?? '',
    city: row.city ?? '',
  };
}

/** Saves the profile form; an empty field clears the value. Returns false when the account is gone. */
export async function updateProfile(
  userId: string,
  input: ProfileInput,
  /** A staff member editing a customer's details from « Clients »: recorded in the audit log. */
  editedBy?: string,
): Promise<boolean> {
  const firstName = input.firstName ?? '';
  const lastName = input.lastName ?? '';
  const current = await storedProfile(userId);
  if (!current) return false;
  const name = `${firstName} ${lastName}`.trim() || current.email;
  const details = {
    firstName,
    lastName,
    phone: input.phone || null,
    street: input.street || null,
    postalCode: input.postalCode || null,
    city: input.city || null,
  };
  return db().transaction(async (tx) => {
    const rows = await tx
      .update(user)
      // Better Auth's display name follows the names, as at registration.
      .set({ ...details, name, updatedAt: new Date() })
      .where(eq(user.id, userId))
      .returning({ id: user.id });
    // The back office finds orders by the customer's current name.
    await tx
      .update(orders)
      .set({ searchText: `${name} ${current.email}`.toLowerCase() })
      .where(eq(orders.userId, userId));
    const { email, ...before } = current;
    const change = editedBy ? changedFields(before, details) : null;
    if (editedBy && change) {
      await recordAudit(tx, {
        actor: editedBy,
        kind: 'customer.details',
        subject: userId,
        subjectLabel: email,
        ...change,
      });
    }
    return rows.length > 0;
  });
}
