import { SHOP_TIME_ZONE } from '~/domain/format';

const longDate = new Intl.DateTimeFormat('fr-FR', { timeZone: SHOP_TIME_ZONE, dateStyle: 'long' });

/** `2025-03-12T09:00:00Z` -> `12 mars 2025` (Paris time); an unreadable date gives an empty text. */
export function formatLongDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : longDate.format(date);
}
