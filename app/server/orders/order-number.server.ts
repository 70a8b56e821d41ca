import { sql } from 'drizzle-orm';
import { SHOP_TIME_ZONE } from '~/domain/format';
import type { Tx } from '../db/client.server';

/*
 * Human order numbers, SV-YYYY-NNNNNN, one sequence per year (Paris time), without gaps: the year's
 * row of order_counters is incremented inside the order's own transaction, which keeps it locked
 * until commit. A concurrent order waits for it; a rolled-back order gives its number back.
 */

const yearFormat = new Intl.DateTimeFormat('en-GB', { timeZone: SHOP_TIME_ZONE, year: 'numeric' });

/** The year of a moment in the shop's time zone. */
export function shopYear(at: Date): number {
  return Number(yearFormat.format(at));
}

export function formatOrderNumber(year: number, sequence: number): string {
  return `SV-${year}-${String(sequence).padStart(6, '0')}`;
}

/** Takes the next number of the year, locking the counter row until the transaction ends. */
export async function takeOrderNumber(tx: Tx, at: Date): Promise<string> {
  const year = shopYear(at);
  const result = await tx.execute<{ last: number }>(sql`
    insert into order_counters (year, last) values (${year}, 1)
    on conflict (year) do update set last = order_counters.last + 1
    returning last`);
  const last = result.rows[0]?.last;
  if (typeof last !== 'number') throw new Error('order_counters: no row returned');
  return formatOrderNumber(year, last);
}
