import type { BusinessBuyer } from '../invoices/snapshot';
import type { OrderStatus, PaymentStatus, WorkshopStage } from '../order-status';
import type { FrozenAddress } from '../orders/address';
import type { AllowedTransitions } from '../orders/allowed-transitions';
import type { OrderHistoryEntry } from '../orders/events';
import type { OrderLine } from '../orders/order-line';
import type { PriceBreakdown } from '../pricing/pricing';

/*
 * What the back office's server modules hand to its pages: plain, serialisable shapes (dates as ISO
 * 8601 strings, money in cents). Shared by the server modules that build them and the components
 * that show them.
 */

export interface OrderListRow {
  id: string;
  number: string;
  createdAt: string;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  totalCents: number;
  customer: string;
  email: string | null;
  userId: string | null;
  items: Array<{ type: string; quantity: number }>;
  stage: WorkshopStage;
}

export interface OrderDetails {
  id: string;
  number: string;
  createdAt: string;
  updatedAt: string;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  paymentMethod: string;
  deliveryMethod: string;
  sendMethod: string;
  returnOriginals: boolean;
  withdrawnAt: string | null;
  paidAt: string | null;
  /**
   * Why the order takes no more originals or files (cancelled, withdrawn, refunded in full:
   * domain/orders/open-work.ts); null while it is open. The dialog then offers no upload.
   */
  closedWork: string | null;
  /** The workshop: stage, promised date (late when passed) and the next stage the staff may move to. */
  workshop: {
    stage: WorkshopStage;
    dueAt: string | null;
    late: boolean;
    express: boolean;
    nextStage: WorkshopStage | null;
  };
  customer: {
    userId: string | null;
    name: string;
    email: string | null;
    phone: string | null;
    address: string | null;
    postalCode: string | null;
    city: string | null;
    isGuest: boolean;
  };
  /** The addresses frozen when the order was placed (something physical travels). */
  addresses: { delivery: FrozenAddress | null; billing: FrozenAddress | null };
  /** The buyer as a business, frozen at placement; null for a consumer. */
  business: BusinessBuyer | null;
  /** What the lifecycle allows from the order's state (its status menu, stage button, payment actions). */
  allowed: AllowedTransitions;
  prices: PriceBreakdown;
  invoice: { id: string; number: string; issuedAt: string; isPaid: boolean } | null;
  creditNotes: Array<{ id: string; number: string; issuedAt: string; amountCents: number }>;
  payments: Array<{
    id: string;
    provider: string;
    reference: string;
    status: string;
    method: string;
    amountCents: number;
    createdAt: string;
  }>;
  items: OrderLine[];
  /** The history in French, actors by name (server/orders/history.server.ts). */
  history: OrderHistoryEntry[];
  /** What the order dialog's money actions need (refund, cancellation with refund, withdrawal). */
  money: {
    /** Confirmed by the customer at checkout (false: a draft). */
    placed: boolean;
    refundedCents: number;
    /** Owed back and not made yet (« à rembourser »: refunds `due`). */
    owedCents: number;
    /** Paid minus refunded minus owed: the most a refund may give back. */
    refundableCents: number;
    /** The gateway that took the money, when it can refund it (its French name), else null. */
    gateway: string | null;
    refunds: Array<{
      id: string;
      createdAt: string;
      amountCents: number;
      method: string;
      status: string;
      reason: string;
      creditNoteId: string | null;
      /** Why a refund still owed could not be made (the gateway's refusal), if it was tried. */
      lastError: string | null;
    }>;
    /**
     * The customer's IBAN for a refund by transfer (decision 025): asked when, given when, masked
     * (`FR76 •••• •••• 0189`); null when none was asked or it was deleted. Never the full IBAN here.
     */
    iban: { requestedAt: string; receivedAt: string | null; masked: string | null } | null;
  };
}

/**
 * A line of « Clients »: an account, or a guest's orders grouped by their e-mail (no account with
 * that address). A guest's key is `invite:` + the e-mail, which `?client=` carries.
 */
export interface CustomerListRow {
  id: string;
  account: boolean;
  name: string;
  email: string;
  createdAt: string;
  orders: number;
  spentCents: number;
}

export interface CustomerDetails {
  id: string;
  /** A guest has no account: their details come from their latest order and cannot be edited. */
  account: boolean;
  firstName: string;
  lastName: string;
  name: string;
  email: string;
  phone: string | null;
  address: string | null;
  postalCode: string | null;
  city: string | null;
  createdAt: string;
  ordersCount: number;
  spentCents: number;
  orders: Array<{
    id: string;
    number: string;
    createdAt: string;
    status: OrderStatus;
    paymentStatus: PaymentStatus;
    totalCents: number;
  }>;
}

/** `credited`: credit notes for its whole amount; `partially_credited`: for part of it (partial refunds). */
export type InvoiceState = 'paid' | 'unpaid' | 'partially_credited' | 'credited';

/** How an invoice stands once its credit notes are counted (amounts in cents). */
export function invoiceState(amountCents: number, creditedCents: number, isPaid: boolean): InvoiceState {
  if (creditedCents > 0) return creditedCents >= amountCents ? 'credited' : 'partially_credited';
  return isPaid ? 'paid' : 'unpaid';
}

export interface InvoiceListRow {
  id: string;
  number: string;
  orderId: string;
  orderNumber: string;
  customer: string;
  issuedAt: string;
  amountCents: number;
  state: InvoiceState;
  /** A demonstration document (money taken by the sandbox, TEST-FA-…): no accounting value. */
  isDemo: boolean;
}

export interface CreditNoteListRow {
  id: string;
  number: string;
  orderId: string;
  orderNumber: string;
  invoiceNumber: string;
  customer: string;
  issuedAt: string;
  amountCents: number;
  reason: string | null;
  /** A demonstration document (TEST-AV-…): no accounting value. */
  isDemo: boolean;
}

export interface SearchResults {
  q: string;
  orders: {
    count: number;
    capped: boolean;
    rows: Array<{
      id: string;
      number: string;
      customer: string;
      status: OrderStatus;
      totalCents: number;
      createdAt: string;
    }>;
  };
  customers: { count: number; capped: boolean; rows: Array<{ id: string; name: string; email: string }> };
  invoices: {
    count: number;
    capped: boolean;
    rows: Array<{
      id: string;
      number: string;
      orderId: string;
      orderNumber: string;
      customer: string;
      amountCents: number;
    }>;
  };
}

export interface ReportsData {
  months: Array<{ month: string; revenueCents: number; orders: number }>;
  supports: Array<{ type: string; orders: number; quantity: number }>;
  statuses: Array<{ status: OrderStatus; orders: number }>;
  computedAt: string;
}

export const INVOICE_STATE_LABELS: Readonly<Record<InvoiceState, string>> = {
  paid: 'Payée',
  unpaid: 'En attente',
  partially_credited: 'Avoir partiel',
  credited: 'Annulée (avoir)',
};

/** The badge of a demonstration document in the back office's lists. */
export const DEMO_DOCUMENT_LABEL = 'Démonstration';

export const OUTBOX_STATUSES = ['sent', 'queued', 'held', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export const OUTBOX_STATUS_LABELS: Readonly<Record<OutboxStatus, string>> = {
  sent: 'Envoyés',
  queued: 'En file',
  held: 'En attente de configuration',
  failed: 'Échecs',
};

export interface OutboxRow {
  id: string;
  createdAt: string;
  to: string;
  template: string;
  subject: string | null;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
  /** False for an e-mail whose link served once (reset, magic link, invitation): « Renvoyer » is not offered. */
  resendable: boolean;
}

/** Why « Renvoyer » did not send an e-mail again (admin/outbox.server.ts's resendEmail). */
export const RESEND_REFUSALS: Readonly<Record<string, string>> = {
  'not-found': 'E-mail introuvable',
  held: 'Cet e-mail attend la configuration SMTP',
  queued: 'Cet e-mail est déjà en file d’envoi',
  'single-use':
    'Cet e-mail contient un lien à usage unique\u00a0: il ne peut pas être renvoyé. Demandez un nouveau lien.',
};

export function isOutboxStatus(value: unknown): value is OutboxStatus {
  return typeof value === 'string' && (OUTBOX_STATUSES as readonly string[]).includes(value);
}

/** A payment of the Validation Paiements dialog. */
export interface PendingPaymentRow {
  id: string;
  reference: string;
  orderId: string;
  orderNumber: string;
  customer: string;
  email: string | null;
  date: string;
  method: string;
  provider: string | null;
  amountCents: number;
  status: string;
}

/** The key of a guest in « Clients »: their orders' e-mail. */
export const GUEST_CUSTOMER_PREFIX = 'invite:';

export function guestCustomerKey(email: string): string {
  return `${GUEST_CUSTOMER_PREFIX}${email.toLowerCase()}`;
}

/** The e-mail behind a guest's key, or null for an account's id. */
export function guestEmailOf(key: string): string | null {
  return key.startsWith(GUEST_CUSTOMER_PREFIX) ? key.slice(GUEST_CUSTOMER_PREFIX.length) : null;
}
