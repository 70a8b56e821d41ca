import { eq } from 'drizzle-orm';
import type { PriceListDocument } from '~/domain/pricing/default-price-list';
import { db } from '../db/client.server';
import { priceLists } from '../db/schema';

export interface ActivePriceList {
  id: string;
  version: number;
  data: PriceListDocument;
  createdAt: Date;
}

/** The price list every page and every order is priced with now. */
export async function getActivePriceList(): Promise<ActivePriceList> {
  const [row] = await db()
    .select({ id: priceLists.id, version: priceLists.version, data: priceLists.data, createdAt: priceLists.createdAt })
    .from(priceLists)
    .where(eq(priceLists.isActive, true))
    .limit(1);
  if (!row) throw new Error('No active price list: the server seeds one at start (ensureDefaultPriceList).');
  return { ...row, data: row.data as PriceListDocument };
}
