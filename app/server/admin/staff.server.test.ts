import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { db } from '../db/client.server';
import { emailOutbox, staffInvitations, user } from '../db/schema';
import { log } from '../log.server';
import { acceptInvitation } from './staff.server';

/*
 * A member joining from their invitation: an account with their name and role, and no customer
 * « Bienvenue » e-mail (their invitation already told them what the account is for).
 */

log.level = 'silent';

describe('acceptInvitation', () => {
  it('creates the member with their name and role, and sends them no customer welcome e-mail', async () => {
    const inviter = `user_${randomUUID()}`;
    await db().execute(sql`
      insert into "user" (id, name, email, role) values (${inviter}, 'Olivia Patronne', ${`${inviter}@example.fr`}, 'admin')`);
    const token = randomBytes(32).toString('base64url');
    const email = `atelier-${randomBytes(4).toString('hex')}@example.fr`;
    await db()
      .insert(staffInvitations)
      .values({
        email,
        role: 'atelier',
        tokenHash: createHash('sha256').update(token).digest('hex'),
        invitedBy: inviter,
        expiresAt: new Date(Date.now() + 86_400_000),
      });

    const result = await acceptInvitation({
      token,
      firstName: 'Oscar',
      lastName: 'Opérateur',
      password: 'Graine-de-Lin-2026',
    });
    expect(result).toEqual({ ok: true, email });
    const [member] = await db()
      .select({ name: user.name, firstName: user.firstName, lastName: user.lastName, role: user.role })
      .from(user)
      .where(eq(user.email, email));
    expect(member).toEqual({ name: 'Oscar Opérateur', firstName: 'Oscar', lastName: 'Opérateur', role: 'atelier' });
    const emails = await db()
      .select({ template: emailOutbox.template })
      .from(emailOutbox)
      .where(eq(emailOutbox.to, email));
    expect(emails.map((row) => row.template)).not.toContain('welcome');
  });
});
