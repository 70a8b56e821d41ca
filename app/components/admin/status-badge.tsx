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

const VARIANT: Record<StatusTone, 'secondary' | 'info' | 'success' | 'warning' | 'destructive'> = {
  neutral: 'secondary',
  info: 'info',
  success: 'success',
  warning: 'warning',
  danger: 'destructive',
};

export function OrderStatusBadge({ status }: { status: string }) {
  const tone = isOrderStatus(status) ? ORDER_STATUS_TONES[status] : 'neutral';
  return <Badge variant={VARIANT[tone]}>{orderStatusLabel(status)}</Badge>;
}

export function PaymentStatusBadge({ status }: { status: string }) {
  const tone = isPaymentStatus(status) ? PAYMENT_STATUS_TONES[status] : 'neutral';
  return <Badge variant={VARIANT[tone]}>{paymentStatusLabel(status)}</Badge>;
}

export function ToneBadge({ tone, children }: { tone: StatusTone; children: React.ReactNode }) {
  return <Badge variant={VARIANT[tone]}>{children}</Badge>;
}
