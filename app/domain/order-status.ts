/*
 * Order and payment statuses: English code values in the database and the code, French labels and
 * colours for people (docs/product.md, « Orders: statuses, payment status, stages »). Every screen
 * and e-mail reads its wording here.
 */

export const ORDER_STATUSES = ['pending', 'processing', 'completed', 'shipped', 'canceled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export type StatusTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  pending: 'En attente',
  processing: 'En traitement',
  completed: 'Traité',
  shipped: 'Expédié',
  canceled: 'Annulé',
};

export const ORDER_STATUS_TONES: Readonly<Record<OrderStatus, StatusTone>> = {
  pending: 'warning',
  processing: 'info',
  completed: 'success',
  shipped: 'success',
  canceled: 'danger',
};

export const PAYMENT_STATUS_LABELS: Readonly<Record<PaymentStatus, string>> = {
  pending: 'En attente',
  paid: 'Payée',
  failed: 'Échec',
  partially_refunded: 'Partiellement remboursée',
  refunded: 'Remboursée',
};

export const PAYMENT_STATUS_TONES: Readonly<Record<PaymentStatus, StatusTone>> = {
  pending: 'warning',
  paid: 'success',
  failed: 'danger',
  partially_refunded: 'neutral',
  refunded: 'neutral',
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

/** The order was paid (even if part or all of it was refunded since): it can never be paid again. */
export function wasPaid(paymentStatus: string): boolean {
  return paymentStatus === 'paid' || paymentStatus === 'partially_refunded' || paymentStatus === 'refunded';
}

export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(value);
}

/** The French label of a status; an unknown value is shown as it is. */
export function orderStatusLabel(status: string): string {
  return isOrderStatus(status) ? ORDER_STATUS_LABELS[status] : status;
}

export function paymentStatusLabel(status: string): string {
  return isPaymentStatus(status) ? PAYMENT_STATUS_LABELS[status] : status;
}

export const PAYMENT_METHOD_LABELS: Readonly<Record<string, string>> = {
  card: 'Carte bancaire',
  transfer: 'Virement bancaire',
  cheque: 'Chèque',
  gift_card: 'Carte cadeau',
};

export function paymentMethodLabel(method: string): string {
  return PAYMENT_METHOD_LABELS[method] ?? method;
}

/*
 * The workshop stages inside « En traitement » (docs/product.md): the parcel is awaited,
 * received, digitised, checked, then the files are ready (order « Traité »).
 */
export const WORKSHOP_STAGES = ['awaiting_originals', 'received', 'digitising', 'quality_check', 'ready'] as const;
export type WorkshopStage = (typeof WORKSHOP_STAGES)[number];

export const WORKSHOP_STAGE_LABELS: Readonly<Record<WorkshopStage, string>> = {
  awaiting_originals: 'En attente des originaux',
  received: 'Reçu',
  digitising: 'Numérisation',
  quality_check: 'Contrôle qualité',
  ready: 'Prêt',
};

export function isWorkshopStage(value: unknown): value is WorkshopStage {
  return typeof value === 'string' && (WORKSHOP_STAGES as readonly string[]).includes(value);
}

export function workshopStageLabel(stage: string): string {
  return isWorkshopStage(stage) ? WORKSHOP_STAGE_LABELS[stage] : stage;
}
