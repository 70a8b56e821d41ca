import { formatDateFr } from '../format';
import { orderStatusLabel, paymentStatusLabel } from '../order-status';
import { parseSelectedIds } from './bulk-orders';
import { parseDay } from './list-params';

/*
 * The Rapports tab's exports: orders or invoices of a period, as CSV (French Excel's dialect:
 * UTF-8 with a byte-order mark, `;` between fields, decimal comma, dates `21/11/2026`) or as an
 * Excel workbook (real numbers and dates, formatted). The columns, headers and cell formatting are
 * defined here once for both formats.
 *
 * The « factures » export is the sales journal: every real invoice, and every real credit note as a
 * negative amount, on its issue date, so that its total is the revenue net of refunds (the
 * dashboard's figure). Demonstration documents (TEST-…, money taken by the sandbox) are left out.
 * Its « Nature » column tells the sales of gift cards (vouchers whose VAT is due at the sale) from
 * the services, and « Réglé par carte cadeau » what a card paid of an invoice besides its amount:
 * that part was invoiced, with its VAT, when the card was sold, so it is not in the invoice's total.
 */

export const EXPORT_DATASETS = ['commandes', 'factures'] as const;
export type ExportDataset = (typeof EXPORT_DATASETS)[number];

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_DATASET_LABELS: Readonly<Record<ExportDataset, string>> = {
  commandes: 'Commandes',
  factures: 'Factures',
};

/** A longer period would make one file of a whole shop's history: a year at most. */
export const MAX_EXPORT_DAYS = 366;

export type CellKind = 'text' | 'money' | 'date' | 'integer';

export interface ExportColumn<Row> {
  header: string;
  kind: CellKind;
  /** Excel column width, in characters. */
  width: number;
  /** Text, cents (money), ISO date string (date), or a number (integer). */
  value: (row: Row) => string | number | null;
}

export interface OrderExportRow {
  number: string;
  createdAt: string;
  customer: string;
  email: string | null;
  phone: string | null;
  city: string | null;
  status: string;
  paymentStatus: string;
  paymentMethod: string;
  deliveryMethod: string;
  items: string;
  totalCents: number;
  vatCents: number;
  invoiceNumber: string | null;
}

export interface InvoiceExportRow {
  /** FA-… or AV-… */
  number: string;
  kind: 'invoice' | 'credit_note';
  issuedAt: string;
  orderNumber: string;
  customer: string;
  email: string | null;
  /** As on the document (positive): a credit note's amounts are exported negative. */
  amountCents: number;
  vatCents: number;
  state: string;
  /** An invoice's credit notes; a credit note's invoice. */
  related: string | null;
  /** The document of a gift card's sale (decision 037): a voucher sold, apart from the services. */
  giftCardSale: boolean;
  /** What a gift card paid of an invoice's order, outside its total (invoiced at the card's sale). */
  giftCardCents: number;
}

const sign = (r: InvoiceExportRow) => (r.kind === 'credit_note' ? -1 : 1);

const PAYMENT_METHODS: Record<string, string> = { card: 'Carte bancaire', transfer: 'Virement', cheque: 'Chèque' };
const DELIVERY_METHODS: Record<string, string> = { digital: 'Téléchargement', usb: 'Clé USB', disc: 'DVD' };

export const ORDER_EXPORT_COLUMNS: ReadonlyArray<ExportColumn<OrderExportRow>> = [
  { header: 'N° commande', kind: 'text', width: 18, value: (r) => r.number },
  { header: 'Date', kind: 'date', width: 12, value: (r) => r.createdAt },
  { header: 'Client', kind: 'text', width: 26, value: (r) => r.customer },
  { header: 'Email', kind: 'text', width: 32, value: (r) => r.email },
  { header: 'Téléphone', kind: 'text', width: 16, value: (r) => r.phone },
  { header: 'Ville', kind: 'text', width: 18, value: (r) => r.city },
  { header: 'Statut', kind: 'text', width: 14, value: (r) => orderStatusLabel(r.status) },
  { header: 'Paiement', kind: 'text', width: 12, value: (r) => paymentStatusLabel(r.paymentStatus) },
  {
    header: 'Mode de paiement',
    kind: 'text',
    width: 16,
    value: (r) => PAYMENT_METHODS[r.paymentMethod] ?? r.paymentMethod,
  },
  {
    header: 'Livraison',
    kind: 'text',
    width: 16,
    value: (r) => DELIVERY_METHODS[r.deliveryMethod] ?? r.deliveryMethod,
  },
  { header: 'Articles', kind: 'text', width: 40, value: (r) => r.items },
  { header: 'Montant HT', kind: 'money', width: 14, value: (r) => r.totalCents - r.vatCents },
  { header: 'TVA', kind: 'money', width: 12, value: (r) => r.vatCents },
  { header: 'Montant TTC', kind: 'money', width: 14, value: (r) => r.totalCents },
  { header: 'N° facture', kind: 'text', width: 18, value: (r) => r.invoiceNumber },
];

export const INVOICE_EXPORT_COLUMNS: ReadonlyArray<ExportColumn<InvoiceExportRow>> = [
  { header: 'N° pièce', kind: 'text', width: 18, value: (r) => r.number },
  { header: 'Type', kind: 'text', width: 10, value: (r) => (r.kind === 'credit_note' ? 'Avoir' : 'Facture') },
  { header: 'Nature', kind: 'text', width: 14, value: (r) => (r.giftCardSale ? 'Carte cadeau' : 'Prestation') },
  { header: 'Date', kind: 'date', width: 12, value: (r) => r.issuedAt },
  { header: 'N° commande', kind: 'text', width: 18, value: (r) => r.orderNumber },
  { header: 'Client', kind: 'text', width: 26, value: (r) => r.customer },
  { header: 'Email', kind: 'text', width: 32, value: (r) => r.email },
  { header: 'Montant HT', kind: 'money', width: 14, value: (r) => sign(r) * (r.amountCents - r.vatCents) },
  { header: 'TVA', kind: 'money', width: 12, value: (r) => sign(r) * r.vatCents },
  { header: 'Montant TTC', kind: 'money', width: 14, value: (r) => sign(r) * r.amountCents },
  {
    header: 'Réglé par carte cadeau',
    kind: 'money',
    width: 16,
    value: (r) => (r.giftCardCents > 0 ? r.giftCardCents : null),
  },
  { header: 'Statut', kind: 'text', width: 16, value: (r) => r.state },
  { header: 'Pièce liée', kind: 'text', width: 24, value: (r) => r.related },
];

/** `3500` -> `35,00` (no currency sign and no thousands separator: spreadsheets read it as a number). */
export function csvMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** A field of a `;`-separated line: quoted when it holds a separator, a quote or a line break. */
export function csvField(value: string): string {
  // A leading = + - @ would be read as a formula by spreadsheets: neutralised with a quote.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvCell(kind: CellKind, value: string | number | null): string {
  if (value === null || value === '') return '';
  switch (kind) {
    case 'money':
      return csvMoney(Number(value));
    case 'date':
      return formatDateFr(String(value));
    case 'integer':
      return String(value);
    default:
      return csvField(String(value));
  }
}

export function csvLine<Row>(columns: ReadonlyArray<ExportColumn<Row>>, row: Row): string {
  return `${columns.map((c) => csvCell(c.kind, c.value(row))).join(';')}\r\n`;
}

export function csvHeader<Row>(columns: ReadonlyArray<ExportColumn<Row>>): string {
  return `${columns.map((c) => csvField(c.header)).join(';')}\r\n`;
}

/** A period's orders or invoices, or the orders selected in the Commandes tab (bulk export). */
export type ExportRequest =
  | { dataset: ExportDataset; format: ExportFormat; from: string; to: string; ids?: undefined }
  | { dataset: 'commandes'; format: ExportFormat; ids: readonly string[]; from?: undefined; to?: undefined };

export type ExportRequestResult = { ok: true; request: ExportRequest } | { ok: false; error: string };

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Reads `/admin/exports/{dataset}?format=&from=&to=`. */
export function parseExportRequest(dataset: string | undefined, search: URLSearchParams): ExportRequestResult {
  if (!(EXPORT_DATASETS as readonly string[]).includes(dataset ?? '')) return { ok: false, error: 'Export inconnu' };
  const format = search.get('format');
  if (!(EXPORT_FORMATS as readonly string[]).includes(format ?? '')) {
    return { ok: false, error: 'Format d’export inconnu (CSV ou Excel)' };
  }
  const ids = search.getAll('ids');
  if (ids.length > 0) return parseSelection(dataset, format as ExportFormat, ids);
  const from = parseDay(search.get('from'));
  const to = parseDay(search.get('to'));
  if (!from || !to) return { ok: false, error: 'Indiquez une période (dates de début et de fin)' };
  if (from > to) return { ok: false, error: 'La date de début doit précéder la date de fin' };
  if (daysBetween(from, to) > MAX_EXPORT_DAYS) return { ok: false, error: 'La période est limitée à un an' };
  return { ok: true, request: { dataset: dataset as ExportDataset, format: format as ExportFormat, from, to } };
}

/** `?ids=…&ids=…`: the selected orders, at most as many as a bulk action takes. */
function parseSelection(dataset: string | undefined, format: ExportFormat, ids: string[]): ExportRequestResult {
  if (dataset !== 'commandes') return { ok: false, error: 'Seules les commandes s’exportent par sélection' };
  const selection = parseSelectedIds(ids);
  return selection.ok ? { ok: true, request: { dataset, format, ids: selection.ids } } : selection;
}

/** `commandes_2026-01-01_2026-11-21.xlsx`, or `commandes_selection.csv` for selected orders. */
export function exportFileName(request: ExportRequest): string {
  if (request.ids) return `${request.dataset}_selection.${request.format}`;
  return `${request.dataset}_${request.from}_${request.to}.${request.format}`;
}
