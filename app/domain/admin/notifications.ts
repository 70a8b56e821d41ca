/* The header's notifications, as the server sends them to the back office. */

export type NotificationKind = 'order' | 'payment' | 'contact' | 'withdrawal' | 'status';

export interface NotificationView {
  id: number;
  createdAt: string;
  kind: NotificationKind;
  orderId: string | null;
  status: string | null;
  title: string;
  body: string;
  read: boolean;
}

export interface NotificationFeed {
  notifications: NotificationView[];
  unread: number;
  /** The newest id, from which the live stream continues. */
  lastId: number;
}

export const NOTIFICATION_KIND_LABELS: Readonly<Record<string, string>> = {
  order: 'Commande',
  payment: 'Paiement',
  contact: 'Message',
  withdrawal: 'Rétractation',
  status: 'Statut',
};
