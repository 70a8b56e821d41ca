import { formatEurosFromCents } from '../format';
import { formatSiren, formatSiret } from './business-buyer';
import type { BusinessBuyer, DocumentLine, DocumentSnapshot, OperationCategory } from './snapshot';
import { unitPriceExcludingVat } from './vat';

/*
 * The legal mentions of an invoice or a credit note as the /facture page and the PDF print them
 * (docs/invoicing.md), from the snapshot and only from it: a document shows what it recorded when
 * it was issued, so an older one, which did not record a category, a business buyer, VAT on debits
 * or payment terms, prints none of them.
 */

export const OPERATION_CATEGORY_LABELS: Readonly<Record<OperationCategory, string>> = {
  services: 'Prestation de services',
  goods: 'Livraison de biens',
  mixed: 'Livraison de biens et prestation de services',
};

export const VAT_ON_DEBITS_MENTION = 'Option pour le paiement de la taxe d’après les débits';

/** `29,17 €`, `0,3792 €`: four decimals when the cents do not say it all, two otherwise. */
export function formatUnitPrice(decimal: string): string {
  const [units = '0', decimals = ''] = decimal.split('.');
  const trimmed = decimals.replace(/0+$/, '').padEnd(2, '0');
  const grouped = units.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return `${grouped},${trimmed}\u00a0€`;
}

/** A line's unit price excluding VAT (« Prix unit. HT »), from its share of the total excluding VAT. */
export function lineUnitPriceExcludingVat(line: Pick<DocumentLine, 'totalExcludingVatCents' | 'quantity'>): string {
  if (line.quantity <= 0) return '—';
  return formatUnitPrice(unitPriceExcludingVat(line.totalExcludingVatCents, line.quantity));
}

function formatIsoDay(isoDay: string): string {
  const [year, month, day] = isoDay.split('-');
  return `${day}/${month}/${year}`;
}

/** The business buyer's identity lines, under the buyer's address (none for a consumer). */
export function businessBuyerLines(snapshot: { business?: BusinessBuyer | null }): string[] {
  const b = snapshot.business;
  if (!b) return [];
  return [
    b.companyName,
    `SIREN ${formatSiren(b.siren)}`,
    b.siret ? `SIRET ${formatSiret(b.siret)}` : null,
    b.vatNumber ? `TVA intracommunautaire ${b.vatNumber}` : null,
    b.purchaseOrderReference ? `Bon de commande ${b.purchaseOrderReference}` : null,
    b.chorusServiceCode ? `Code service (Chorus Pro) ${b.chorusServiceCode}` : null,
    b.engagementNumber ? `Numéro d’engagement ${b.engagementNumber}` : null,
  ].filter((line): line is string => line !== null);
}

/**
 * The mentions printed above the notes: the category of operation, the option for VAT on debits,
 * and a business document's payment terms (due date, penalty rate, recovery indemnity).
 */
export function documentMentions(
  snapshot: Pick<DocumentSnapshot, 'operationCategory' | 'vatOnDebits' | 'paymentTerms'>,
): string[] {
  const mentions: string[] = [];
  if (snapshot.operationCategory) {
    mentions.push(`Catégorie de l’opération\u00a0: ${OPERATION_CATEGORY_LABELS[snapshot.operationCategory]}.`);
  }
  if (snapshot.vatOnDebits) mentions.push(`${VAT_ON_DEBITS_MENTION}.`);
  const terms = snapshot.paymentTerms;
  if (terms) {
    mentions.push(`Date d’échéance du paiement\u00a0: ${formatIsoDay(terms.dueDate)}.`);
    mentions.push(`Pénalités de retard\u00a0: ${terms.latePenaltyRate}, exigibles le jour suivant la date d’échéance.`);
    mentions.push(
      `Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement\u00a0: ${formatEurosFromCents(terms.recoveryIndemnityCents)} (article D441-5 du Code de commerce).`,
    );
  }
  return mentions;
}
