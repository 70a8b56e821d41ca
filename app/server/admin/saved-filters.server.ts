import { and, asc, count, eq } from 'drizzle-orm';
import { MAX_SAVED_FILTERS, type SavedFilter } from '~/domain/admin/saved-filters';
import { db } from '../db/client.server';
import { savedOrderFilters } from '../db/schema';

/*
 * A staff member's saved filters of the Commandes tab. Every query is scoped to the owner: nobody
 * lists, opens or deletes another's.
 */

export async function listSavedFilters(userId: string): Promise<SavedFilter[]> {
  return db()
    .select({ id: savedOrderFilters.id, name: savedOrderFilters.name, query: savedOrderFilters.query })
    .from(savedOrderFilters)
    .where(eq(savedOrderFilters.userId, userId))
    .orderBy(asc(savedOrderFilters.name));
}

export type SaveFilterResult = { ok: true } | { ok: false; reason: 'duplicate' | 'too-many' };

export async function saveFilter(userId: string, input: { name: string; query: string }): Promise<SaveFilterResult> {
  const [existing] = await db()
    .select({ n: count() })
    .from(savedOrderFilters)
    .where(eq(savedOrderFilters.userId, userId));
  if (Number(existing?.n ?? 0) >= MAX_SAVED_FILTERS) return { ok: false, reason: 'too-many' };
  // The unique (user, name) constraint decides between two saves of the same name at once.
  const inserted = await db()
    .insert(savedOrderFilters)
    .values({ userId, name: input.name, query: input.query })
    .onConflictDoNothing()
    .returning({ id: savedOrderFilters.id });
  return inserted.length > 0 ? { ok: true } : { ok: false, reason: 'duplicate' };
}

/** Deletes the owner's filter; the name it had, or null when it is not theirs (or gone). */
export async function deleteFilter(userId: string, id: string): Promise<string | null> {
  const [deleted] = await db()
    .delete(savedOrderFilters)
    .where(and(eq(savedOrderFilters.id, id), eq(savedOrderFilters.userId, userId)))
    .returning({ name: savedOrderFilters.name });
  return deleted?.name ?? null;
}
