import { supportLabel } from '../account/order-details';
import { NBSP } from '../format';
import { lineKey } from './reception';

/*
 * After reception the workshop works on what was counted, not on what the customer declared: the
 * job sheet and the board's card show the counted quantity, with the declared one beside it when
 * they differ (« 120 (déclaré : 100) »). The counts are the reception's (receptions.counts, keyed
 * `line-<position>` for the ordered lines, plus the reel sizes that arrived undeclared).
 */

export interface ReceptionCount {
  key: string;
  label: string;
  ordered: number;
  counted: number;
}

/** The stored counts, ignoring anything malformed (an older or hand-edited row). */
export function parseReceptionCounts(value: unknown): ReceptionCount[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((line) =>
    line &&
    typeof line.key === 'string' &&
    Number.isInteger(line.counted) &&
    Number.isInteger(line.ordered) &&
    line.counted >= 0
      ? [
          {
            key: line.key,
            label: typeof line.label === 'string' ? line.label : '',
            ordered: line.ordered,
            counted: line.counted,
          },
        ]
      : [],
  );
}

/** The counted quantity of the ordered line at `position`, or null before reception. */
export function countedAt(counts: readonly ReceptionCount[], position: number): number | null {
  return counts.find((line) => line.key === lineKey(position))?.counted ?? null;
}

/** « 120 (déclaré : 100) », « 100 » when equal or not counted yet. */
export function quantityText(declared: number, counted: number | null): string {
  if (counted === null || counted === declared) return String(declared);
  return `${counted} (déclaré${NBSP}: ${declared})`;
}

/** Counted lines that match no ordered line: the reel sizes that arrived undeclared. */
export function undeclaredCounts(counts: readonly ReceptionCount[], positions: readonly number[]): ReceptionCount[] {
  const ordered = new Set(positions.map(lineKey));
  return counts.filter((line) => !ordered.has(line.key) && line.counted > 0);
}

/** The board card's summary: « 100 (déclaré : 120) × Photos papier, 2 × Cassettes VHS ». */
export function countedItemsSummary(
  items: ReadonlyArray<{ type: string; quantity: number; counted: number | null }>,
): string {
  if (items.length === 0) return '—';
  return items
    .map((item) => `${quantityText(item.quantity, item.counted)}${NBSP}× ${supportLabel(item.type)}`)
    .join(', ');
}
