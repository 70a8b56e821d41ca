import { formatDateFr } from '../format';
import { wasPaid } from '../order-status';

/*
 * An order cancelled or withdrawn before it was paid (decision 015): the checkout and the
 * confirmation no longer ask for money (no transfer details, no « Payer »); they say what happened.
 * A paid order that was withdrawn or cancelled is a refund's story, told by its own pages.
 */

export interface ClosableOrder {
  status: string;
  paymentStatus: string;
  withdrawnAt: Date | null;
}

export function isClosedUnpaid(order: ClosableOrder): boolean {
  return (order.status === 'canceled' || order.withdrawnAt !== null) && !wasPaid(order.paymentStatus);
}

/** « Commande annulée le 24/11/2026 à votre demande, rien ne vous sera demandé. » */
export function closedOrderMessage(order: ClosableOrder): string | null {
  if (!isClosedUnpaid(order)) return null;
  return order.withdrawnAt
    ? `Commande annulée le ${formatDateFr(order.withdrawnAt)} à votre demande, rien ne vous sera demandé.`
    : 'Commande annulée, rien ne vous sera demandé.';
}
