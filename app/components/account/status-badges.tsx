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

const VARIANTS: Record<StatusTone, 'outline' | 'info' | 'success' | 'warning' | 'destructive'> = {
  neutral: 'outline',
  info: 'info',
  success: 'success',
  warning: 'warning',
  danger: 'destructive',
};

export function OrderStatusBadge({ status }: { status: string }) {
  const tone = isOrderStatus(status) ? ORDER_STATUS_TONES[status] : 'neutral';
  return <Badge variant={VARIANTS[tone]}>{orderStatusLabel(status)}</Badge>;
}

export function PaymentStatusBadge({ status }: { status: string }) {
  const tone = isPaymentStatus(status) ? PAYMENT_STATUS_TONES[status] : 'neutral';
  return <Badge variant={VARIANTS[tone]}>{paymentStatusLabel(status)}</Badge>;
}
