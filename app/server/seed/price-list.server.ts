import { desc, eq } from 'drizzle-orm';
import { DEFAULT_PRICE_LIST } from '../../domain/pricing/default-price-list';
import { type Database, db } from '../db/client.server';
import { priceLists } from '../db/schema';

export interface EnsuredPriceList {
  id: string;
  version: number;
  /** What was done: the default inserted, an inactive list re-activated, or nothing. */
  action: 'created' | 'activated' | 'unchanged';
}

/**
 * Makes sure an active price list exists: on an empty table, inserts the default price list as
 * version 1, active. Never overwrites or deactivates a list: once the back office has published
 * version 2, version 1 stays inactive. Safe to run at every start and from several processes at
 * once (the unique indexes on version and on the active flag settle a race).
 */
export async function ensureDefaultPriceList(database: Database = db()): Promise<EnsuredPriceList> {
  return database.transaction(async (tx) => {
    const inserted = await tx
      .insert(priceLists)
      .values({ version: 1, data: DEFAULT_PRICE_LIST, isActive: true })
      .onConflictDoNothing()
      .returning({ id: priceLists.id, version: priceLists.version });
    if (inserted[0]) return { ...inserted[0], action: 'created' };

    const [active] = await tx
      .select({ id: priceLists.id, version: priceLists.version })
      .from(priceLists)
      .where(eq(priceLists.isActive, true));
    if (active) return { ...active, action: 'unchanged' };

    // Lists exist but none is active (edited by hand?): orders cannot be priced, so activate the
    // latest version rather than add a new one.
    const [latest] = await tx
      .select({ id: priceLists.id, version: priceLists.version })
      .from(priceLists)
      .orderBy(desc(priceLists.version))
      .limit(1)
      .for('update');
    if (!latest) throw new Error('price_lists: no row after an insert that conflicted');
    await tx.update(priceLists).set({ isActive: true }).where(eq(priceLists.id, latest.id));
    return { ...latest, action: 'activated' };
  });
}
