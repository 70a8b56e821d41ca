import type { OrderHistoryEntry } from '../orders/events';

/*
 * The rows of the customer's account pages (« Mes commandes », « Mes factures », « Devis et
 * brouillons », an order's credit notes), as app/server/account/orders.server.ts reads them and the
 * components of app/components/account/ show them: one shape for both sides of the layer rule.
 */

export interface AccountOrderRow {
  id: string;
  number: string;
  createdAt: Date;
  status: string;
  /** Where the originals are in the workshop. */
  stage: string;
  paymentStatus: string;
  totalPriceCents: number;
  withdrawnAt: Date | null;
  items: Array<{ type: string; quantity: number }>;
  /** The history as the customer reads it (domain/orders/events.ts): no staff-only events. */
  events: OrderHistoryEntry[];
  invoiceNumber: string | null;
  /** The delivered files are online (published, not deleted yet): the gallery can be opened. */
  filesOnline: boolean;
  /** A gift card's sale (decision 037), and whether its card has paid anything: its withdrawal depends on it. */
  kind?: 'gift_card';
  giftCardUsed?: boolean;
}

export interface AccountInvoiceRow {
  /** An invoice (the order's or a reception supplement's) or a credit note (« Avoir »). */
  kind: 'invoice' | 'credit-note';
  id: string;
  number: string;
  issuedAt: Date;
  orderId: string;
  orderNumber: string;
  amountCents: number;
  isPaid: boolean;
  /** A credit note's invoice (the one it credits); null for an invoice. */
  invoiceNumber: string | null;
  /** Its page and its PDF. */
  href: string;
  pdfHref: string;
}

export interface AccountDraftRow {
  id: string;
  number: string;
  createdAt: Date;
  totalPriceCents: number;
  items: Array<{ type: string; quantity: number }>;
}

export interface OrderCreditNoteLink {
  number: string;
  issuedAt: Date;
  amountCents: number;
  /** Its page (/facture/<order>?avoir=<number>). */
  href: string;
}
