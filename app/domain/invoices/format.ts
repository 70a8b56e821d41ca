import { formatDateFr, formatEurosFromCents } from '../format';
import type { DocumentSnapshot } from './snapshot';

/*
 * How an invoice's figures read, for the /facture page and the PDF alike (the same words and the
 * same numbers in both).
 */

/** "Facture FA-2026-000001" / "Avoir AV-2026-000001". */
export function documentHeading(snapshot: Pick<DocumentSnapshot, 'title' | 'number'>): string {
  return `${snapshot.title} ${snapshot.number}`;
}

/** The seller's legal line at the foot of every document. */
export function sellerLegalLine(snapshot: Pick<DocumentSnapshot, 'seller'>): string {
  const s = snapshot.seller;
  return [
    `${s.name}, ${s.legalForm} au capital de ${s.capital}`,
    `SIREN ${s.siren}`,
    s.rcs,
    `TVA intracommunautaire ${s.vatNumber}`,
    `${s.street}, ${s.postalCode} ${s.city}`,
  ].join(' · ');
}

/** The address lines of a party, without empty ones. */
export function addressLines(party: {
  street: string | null;
  postalCode: string | null;
  city: string | null;
  country: string;
}): string[] {
  const cityLine = [party.postalCode, party.city].filter(Boolean).join(' ');
  return [party.street, cityLine, party.country].filter((line): line is string => Boolean(line));
}

export { formatDateFr, formatEurosFromCents };
