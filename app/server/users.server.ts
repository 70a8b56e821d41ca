import { count, eq } from 'drizzle-orm';
import type { Role } from './auth/session.server';
import { db } from './db/client.server';
import { user } from './db/schema';

export async function countAdmins(): Promise<number> {
  const [row] = await db().select({ n: count() }).from(user).where(eq(user.role, 'admin'));
  return row?.n ?? 0;
}

/**
 * Gives a role to the account of this e-mail address (first administrator, tests). Returns false
 * when no account has that address. Sessions read the role on every request, so it applies at once.
 */
export async function setUserRole(email: string, role: Role): Promise<boolean> {
  const rows = await db()
    .update(user)
    .set({ role, updatedAt: new Date() })
    .where(eq(user.email, email.trim().toLowerCase()))
    .returning({ id: user.id });
  return rows.length > 0;
}
