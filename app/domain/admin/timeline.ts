import { orderStatusLabel, paymentMethodLabel, paymentStatusLabel } from '../order-status';

/*
 * An order's history as the staff read it in the order details dialog: every order_events row,
 * internal notes and e-mail bookkeeping included (the customer's view leaves those out).
 */

export interface AdminEventView {
  at: string;
  kind: string;
  from: string | null;
  to: string | null;
  /** The admin's name when the actor is an account, else the system name (`sandbox`, `customer`...). */
  actorName: string | null;
  data: Record<string, unknown> | null;
}

export interface AdminTimelineEntry {
  at: string;
  label: string;
  detail: string | null;
  actorName: string | null;
  isNote: boolean;
}

const SYSTEM_ACTORS: Record<string, string> = {
  system: 'Système',
  customer: 'Client',
  guest: 'Client',
  sandbox: 'Paiement (sandbox)',
  stripe: 'Stripe',
  monetico: 'Monetico',
  staff: 'Équipe',
};

export function actorLabel(actor: string | null): string | null {
  if (!actor) return null;
  return SYSTEM_ACTORS[actor] ?? actor;
}

function text(data: Record<string, unknown> | null, key: string): string | null {
  const value = data?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function eventLabel(event: Pick<AdminEventView, 'kind' | 'from' | 'to'>): string {
  switch (event.kind) {
    case 'created':
      return 'Commande enregistrée';
    case 'status_changed':
      return event.from
        ? `Statut : ${orderStatusLabel(event.from)} → ${orderStatusLabel(event.to ?? '')}`
        : `Statut : ${orderStatusLabel(event.to ?? '')}`;
    case 'payment_paid':
      return 'Paiement reçu';
    case 'payment_validated':
      return 'Paiement validé manuellement';
    case 'payment_rejected':
      return 'Paiement rejeté';
    case 'payment_failed':
      return 'Échec du paiement';
    case 'payment_refunded':
      return 'Paiement remboursé';
    case 'payment_method_chosen':
      return `Moyen de paiement choisi : ${paymentMethodLabel(event.to ?? '')}`;
    case 'payment_status_changed':
      return `Paiement : ${paymentStatusLabel(event.to ?? '')}`;
    case 'invoice_issued':
      return 'Facture émise';
    case 'credit_note_issued':
      return 'Avoir émis';
    case 'withdrawal_requested':
      return 'Rétractation demandée';
    case 'email_queued':
      return 'Email au client mis en file d’envoi';
    case 'email_sent':
      return 'Email envoyé au client';
    case 'note':
      return 'Note interne';
    default:
      return event.kind;
  }
}

function eventDetail(event: AdminEventView): string | null {
  if (event.kind === 'note') return text(event.data, 'text');
  if (event.kind === 'email_queued' || event.kind === 'email_sent') return text(event.data, 'to');
  if (event.kind === 'invoice_issued' || event.kind === 'credit_note_issued') return text(event.data, 'number');
  if (event.kind === 'payment_failed') return text(event.data, 'reason');
  return null;
}

/** Oldest first, as a history reads. */
export function adminTimeline(events: ReadonlyArray<AdminEventView>): AdminTimelineEntry[] {
  return [...events]
    .sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime())
    .map((event) => ({
      at: event.at,
      label: eventLabel(event),
      detail: eventDetail(event),
      actorName: event.actorName,
      isNote: event.kind === 'note',
    }));
}

export const MAX_NOTE_LENGTH = 2000;
