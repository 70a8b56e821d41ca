import { csvField, csvMoney } from '../admin/exports';

/*
 * The Chorus Pro export (docs/accounting-exports.md): the invoices and credit notes of public
 * bodies for a period, each PDF in a ZIP with a list to deposit them on the Chorus Pro portal
 * (« Dépôt de facture » in PDF mode asks, for each document, the recipient structure, its service
 * code when it requires one, the engagement number when it requires one, and the amounts). Pure:
 * the list's columns and lines.
 */

export interface ChorusDocumentRow {
  kind: 'invoice' | 'credit_note';
  number: string;
  /** YYYY-MM-DD. */
  day: string;
  /** A credit note's invoice. */
  invoiceNumber: string | null;
  companyName: string;
  siren: string;
  /** The establishment Chorus Pro addresses (null on documents issued before it was asked). */
  siret: string | null;
  serviceCode: string | null;
  engagementNumber: string | null;
  purchaseOrderReference: string | null;
  totalExcludingVatCents: number;
  vatCents: number;
  totalCents: number;
  fileName: string;
}

export const CHORUS_LIST_NAME = 'liste-chorus-pro.csv';

const HEADERS = [
  'Type',
  'Numéro',
  'Date',
  'Facture d’origine',
  'Destinataire',
  'SIREN',
  'SIRET',
  'Code service',
  'N° d’engagement',
  'Bon de commande',
  'Montant HT',
  'TVA',
  'Montant TTC',
  'Fichier PDF',
];

function frenchDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

/** French Excel's CSV (UTF-8 with a byte-order mark, `;`, decimal comma), like the other exports. */
export function chorusListCsv(rows: readonly ChorusDocumentRow[]): string {
  const lines = rows.map((row) =>
    [
      row.kind === 'credit_note' ? 'Avoir' : 'Facture',
      csvField(row.number),
      frenchDay(row.day),
      csvField(row.invoiceNumber ?? ''),
      csvField(row.companyName),
      csvField(row.siren),
      csvField(row.siret ?? ''),
      csvField(row.serviceCode ?? ''),
      csvField(row.engagementNumber ?? ''),
      csvField(row.purchaseOrderReference ?? ''),
      csvMoney(row.totalExcludingVatCents),
      csvMoney(row.vatCents),
      csvMoney(row.totalCents),
      csvField(row.fileName),
    ].join(';'),
  );
  return `\uFEFF${[HEADERS.join(';'), ...lines].join('\r\n')}\r\n`;
}

/** `chorus-pro-2026-11-01-2026-11-30.zip`. */
export function chorusZipName(from: string, to: string): string {
  return `chorus-pro-${from}-${to}.zip`;
}
