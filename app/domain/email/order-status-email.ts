/*
 * What the customer reads when the status of an order changes:
 * processing, completed, shipped and canceled each have their own subject and message; any other
 * value (pending, or a value we do not know) gets the generic one. `{number}` is the order's human
 * number (SV-2026-000042), which is what the customer sees everywhere else.
 */

export type OrderStatusWithEmail = 'processing' | 'completed' | 'shipped' | 'canceled';

export interface OrderStatusEmailWording {
  subject: string;
  heading: string;
  message: string;
}

export const ORDER_STATUS_EMAIL_WORDING: Readonly<Record<OrderStatusWithEmail, OrderStatusEmailWording>> = {
  processing: {
    subject: 'Commande {number} en cours de traitement',
    heading: 'Votre commande est en cours de traitement',
    message: 'Votre commande est actuellement en cours de traitement par notre équipe.',
  },
  completed: {
    subject: 'Commande {number} traitée',
    heading: 'Votre commande est traitée',
    message: 'Votre commande a été traitée avec succès.',
  },
  shipped: {
    subject: 'Commande {number} expédiée',
    heading: 'Votre commande est expédiée',
    message: 'Votre commande a été expédiée et est en route.',
  },
  canceled: {
    subject: 'Commande {number} annulée',
    heading: 'Votre commande est annulée',
    message: 'Votre commande a été annulée.',
  },
};

export const GENERIC_ORDER_STATUS_EMAIL_WORDING: Readonly<OrderStatusEmailWording> = {
  subject: 'Mise à jour de votre commande {number}',
  heading: 'Le statut de votre commande a changé',
  message: 'Le statut de votre commande a été mis à jour.',
};

function hasOwnWording(status: string): status is OrderStatusWithEmail {
  return Object.hasOwn(ORDER_STATUS_EMAIL_WORDING, status);
}

/** The wording for a status, with the order number filled in. */
export function orderStatusEmailWording(
  status: string,
  orderNumber: string,
): OrderStatusEmailWording & {
  generic: boolean;
} {
  const wording = hasOwnWording(status) ? ORDER_STATUS_EMAIL_WORDING[status] : GENERIC_ORDER_STATUS_EMAIL_WORDING;
  const fill = (text: string) => text.replaceAll('{number}', orderNumber);
  return {
    subject: fill(wording.subject),
    heading: fill(wording.heading),
    message: fill(wording.message),
    generic: !hasOwnWording(status),
  };
}
