import { Badge } from '~/components/ui/badge';
import {
  isOrderStatus,
  isPaymentStatus,
  ORDER_STATUS_TONES,
  orderStatusLabel,
  PAYMENT_STATUS_TONES,
  paymentStatusLabel,
  type StatusTone,
} from '~/domain/order-status';

/*
 * The one order / payment status badge, with the French labels of app/domain/order-status.ts:
 * the customer's pages, the confirmation page and the back office show the same words and colours.
 */

export function OrderStatusBadge({ status }: { status: string }) {
  return (
    <ToneBadge tone={isOrderStatus(status) ? ORDER_STATUS_TONES[status] : 'neutral'}>
      {orderStatusLabel(status)}
    </ToneBadge>
  );
}

export function PaymentStatusBadge({ status }: { status: string }) {
  return (
    <ToneBadge tone={isPaymentStatus(status) ? PAYMENT_STATUS_TONES[status] : 'neutral'}>
      {paymentStatusLabel(status)}
    </ToneBadge>
  );
}

/** A badge in one of the status tones, for another state told the same way (an invoice, a payment). */
export function ToneBadge({ tone, children }: { tone: StatusTone; children: React.ReactNode }) {
  return <Badge variant={tone}>{children}</Badge>;
}
