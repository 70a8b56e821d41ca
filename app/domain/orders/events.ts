import { z } from 'zod';
import '../zod-config';
import { BUYER_CORRECTION_FIELD_LABELS, type BuyerCorrectionField } from '../einvoicing/buyer-correction';
import { PA_REFUSED, PA_REJECTED, paStatusLabel } from '../einvoicing/pa-statuses';
import { emailTemplateLabel } from '../email/template-labels';
import { formatDateFr, formatEurosFromCents, NBSP } from '../format';
import {
  isOrderStatus,
  type OrderStatus,
  orderStatusLabel,
  paymentMethodLabel,
  paymentStatusLabel,
  workshopStageLabel,
} from '../order-status';

/*
 * The one registry of order history events (docs/product.md, « The lifecycle »).
 *
 * Every row of order_events has a kind from this registry. For each kind: the shape of its `data`,
 * its French label for the back office, an optional detail line, and whether the customer sees it
 * (with the customer's wording). Writers build their rows with `orderEvent()`, so that TypeScript
 * refuses an unknown kind or data of the wrong shape; readers go through `describeOrderEvent()`, so
 * that no screen, export or e-mail ever shows a raw code.
 *
 * The schemas are tolerant (optional fields, passthrough) because rows written by older code stay in
 * the database for years: a missing or odd field makes a shorter line, never an error.
 */

const cents = z.number().int();
const text = z.string();
const provider = z.string();

/** The gateways and system names that may write an event, with the name a person reads. */
const NAMED_ACTORS: Readonly<Record<string, string>> = {
  system: 'Système',
  customer: 'Client',
  guest: 'Client',
  sandbox: 'Paiement de démonstration',
  stripe: 'Stripe',
  monetico: 'Monetico',
  staff: 'Équipe',
  // The plateforme agréée: deposits and the statuses it reports (docs/plateforme-agreee.md).
  pa: 'Plateforme agréée',
};

const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  sandbox: 'Paiement de démonstration',
  stripe: 'Stripe',
  monetico: 'Monetico',
};

/** `stripe` -> `Stripe`; an unknown or missing gateway -> null (the line is left out). */
export function providerName(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  return PROVIDER_NAMES[value] ?? null;
}

/** Customer wording of an order status: « Votre commande est expédiée ». */
const CUSTOMER_STATUS_WORDING: Readonly<Record<OrderStatus, string>> = {
  pending: 'Votre commande est en attente',
  processing: 'Votre commande est en traitement',
  completed: 'Votre commande est traitée',
  shipped: 'Votre commande est expédiée',
  canceled: 'Votre commande est annulée',
};

const SESSION_CLOSE_REASONS = ['canceled', 'withdrawn', 'replaced', 'expired'] as const;
const SESSION_CLOSE_WORDING: Readonly<Record<(typeof SESSION_CLOSE_REASONS)[number], string>> = {
  canceled: 'commande annulée',
  withdrawn: 'rétractation du client',
  replaced: 'remplacée par une nouvelle tentative',
  expired: 'expirée',
};

const UNAPPLIED_REASONS = ['canceled', 'withdrawn', 'already_paid', 'amount_mismatch', 'draft'] as const;
const UNAPPLIED_WORDING: Readonly<Record<(typeof UNAPPLIED_REASONS)[number], string>> = {
  canceled: 'la commande est annulée',
  withdrawn: 'le client s’est rétracté',
  already_paid: 'la commande était déjà payée',
  amount_mismatch: 'le montant diffère du total de la commande',
  draft: 'la commande n’était pas confirmée',
};

const REFUND_METHODS = ['gateway', 'transfer', 'cheque'] as const;
const REFUND_METHOD_WORDING: Readonly<Record<(typeof REFUND_METHODS)[number], string>> = {
  gateway: 'par le prestataire de paiement',
  transfer: 'par virement',
  cheque: 'par chèque',
};

/** The gateways' failure codes we know, in words; any other reason is shown as the gateway wrote it. */
const FAILURE_REASONS: Readonly<Record<string, string>> = {
  card_declined: 'carte refusée',
  insufficient_funds: 'provision insuffisante',
  expired_card: 'carte expirée',
  incorrect_cvc: 'cryptogramme incorrect',
  processing_error: 'erreur du prestataire de paiement',
  authentication_required: 'authentification 3-D Secure requise',
};

const GUEST_FIELDS: Readonly<Record<string, string>> = {
  email: 'e-mail',
  firstName: 'prénom',
  lastName: 'nom',
  phone: 'téléphone',
  address: 'adresse',
  postalCode: 'code postal',
  city: 'ville',
};

/** What a label or detail reads of an event besides its data. */
export interface EventTransition {
  from: string | null;
  to: string | null;
}

interface KindDefinition<S extends z.ZodType> {
  schema: S;
  /** The back office's label, e.g. « Statut : En attente → En traitement ». */
  label: (data: z.output<S>, event: EventTransition) => string;
  /** A second line for the staff: a reason, an amount, a number, a recipient. */
  detail?: (data: z.output<S>, event: EventTransition) => string | null;
  /** The customer's wording; absent when the customer does not see the kind; null hides one row. */
  customer?: (data: z.output<S>, event: EventTransition) => string | null;
  /** Internal notes are listed apart in the order dialog. */
  isNote?: boolean;
}

/** Keeps each definition's data type tied to its schema (an object literal alone would widen it). */
function kind<S extends z.ZodType>(definition: KindDefinition<S>): KindDefinition<S> {
  return definition;
}

function nbsp(label: string, value: string): string {
  return `${label}${NBSP}: ${value}`;
}

function amount(value: number | null | undefined): string | null {
  return typeof value === 'number' && Number.isFinite(value) ? formatEurosFromCents(value) : null;
}

function nonEmpty(value: string | null | undefined): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A stored ISO date as `21/11/2026`; null when missing or unreadable. */
function day(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : formatDateFr(date);
}

/** Several optional pieces on one line, separated by a middle dot; null when none is there. */
function joined(...parts: Array<string | null | undefined>): string | null {
  const present = parts.filter((part): part is string => typeof part === 'string' && part !== '');
  return present.length > 0 ? present.join(' · ') : null;
}

function capitalized(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

function failureReason(value: string | null | undefined): string | null {
  const reason = nonEmpty(value);
  if (!reason) return null;
  return nbsp('Motif', FAILURE_REASONS[reason] ?? reason);
}

const transitionLabel = (prefix: string, name: (status: string) => string, event: EventTransition): string =>
  event.from
    ? nbsp(prefix, `${name(event.from)} → ${name(event.to ?? '')}`)
    : event.to
      ? nbsp(prefix, name(event.to))
      : prefix;

/** « Confirmation de commande · jeanne@example.fr »: which e-mail, to whom. */
function emailDetail(data: { to?: string | undefined; template?: string | undefined }): string | null {
  const to = nonEmpty(data.to);
  if (!data.template) return to;
  return to ? `${emailTemplateLabel(data.template)} · ${to}` : emailTemplateLabel(data.template);
}

export const ORDER_EVENTS = {
  // ---- Kinds already in the database ----
  created: kind({
    schema: z
      .object({
        totalCents: cents.optional(),
        priceListVersion: z.union([z.number(), z.string()]).optional(),
        source: z.enum(['quote', 'configurator', 'extra_copy', 'retention_extension']).optional(),
        quoteId: text.optional(),
      })
      .passthrough(),
    label: () => 'Commande enregistrée',
    detail: (data) =>
      joined(
        data.totalCents === undefined ? null : nbsp('Total', formatEurosFromCents(data.totalCents)),
        data.source === 'quote' ? 'depuis un devis' : null,
      ),
    customer: () => 'Commande enregistrée',
  }),
  status_changed: kind({
    schema: z.object({}).passthrough(),
    label: (_data, event) => transitionLabel('Statut', orderStatusLabel, event),
    // The staff started an unpaid order's work on purpose: the history says so.
    detail: (data) => (data.startBeforePayment === true ? 'Commencée avant le paiement' : null),
    customer: (_data, event) =>
      event.to && isOrderStatus(event.to) ? CUSTOMER_STATUS_WORDING[event.to] : 'Le statut de votre commande a changé',
  }),
  early_start_consent: kind({
    // Written at checkout when the customer asks for the work to start within the withdrawal period.
    schema: z.object({ text: text.optional(), first: z.boolean().optional() }).passthrough(),
    label: () => 'Accord du client pour commencer avant la fin du délai de rétractation',
  }),
  payment_session_created: kind({
    schema: z
      .object({ provider: provider.optional(), sessionId: text.optional(), amountCents: cents.optional() })
      .passthrough(),
    label: () => 'Session de paiement ouverte',
    detail: (data) => joined(providerName(data.provider), amount(data.amountCents)),
  }),
  payment_paid: kind({
    schema: z
      .object({
        provider: provider.optional(),
        providerRef: text.optional(),
        amountCents: cents.optional(),
        method: text.optional(),
      })
      .passthrough(),
    label: () => 'Paiement reçu',
    detail: (data) => joined(amount(data.amountCents), providerName(data.provider)),
    customer: () => 'Paiement reçu',
  }),
  payment_validated: kind({
    schema: z
      .object({
        provider: provider.nullable().optional(),
        reference: text.nullable().optional(),
        amountCents: cents.optional(),
        method: text.nullable().optional(),
      })
      .passthrough(),
    label: () => 'Paiement validé manuellement',
    detail: (data) =>
      joined(
        amount(data.amountCents),
        data.method ? paymentMethodLabel(data.method) : null,
        nonEmpty(data.reference) ? nbsp('Référence', data.reference as string) : null,
      ),
    customer: () => 'Paiement reçu',
  }),
  payment_rejected: kind({
    schema: z.object({ provider: provider.nullable().optional(), reference: text.nullable().optional() }).passthrough(),
    label: () => 'Paiement rejeté',
    detail: (data) => (nonEmpty(data.reference) ? nbsp('Référence', data.reference as string) : null),
    customer: () => 'Paiement non validé',
  }),
  payment_failed: kind({
    // `detail` is the gateway's reason; rows from before it was named so (and the demo data) say `reason`.
    schema: z
      .object({
        provider: provider.optional(),
        detail: text.nullable().optional(),
        reason: text.nullable().optional(),
      })
      .passthrough(),
    label: () => 'Échec du paiement',
    detail: (data) => joined(failureReason(data.detail ?? data.reason), providerName(data.provider)),
    customer: () => 'Échec du paiement',
  }),
  payment_canceled: kind({
    schema: z.object({ provider: provider.optional() }).passthrough(),
    label: () => 'Paiement abandonné par le client',
    detail: (data) => providerName(data.provider),
  }),
  payment_refunded: kind({
    schema: z.object({ amountCents: cents.optional(), provider: provider.optional() }).passthrough(),
    label: () => 'Paiement remboursé',
    detail: (data) => joined(amount(data.amountCents), providerName(data.provider)),
    customer: (data) => {
      const value = amount(data.amountCents);
      return value ? `Remboursement de ${value}` : 'Paiement remboursé';
    },
  }),
  payment_method_chosen: kind({
    schema: z.object({ method: text.optional(), amountCents: cents.optional() }).passthrough(),
    label: (data, event) => {
      const method = event.to ?? data.method;
      return method ? nbsp('Moyen de paiement choisi', paymentMethodLabel(method)) : 'Moyen de paiement choisi';
    },
    detail: (data) => amount(data.amountCents),
  }),
  payment_status_changed: kind({
    schema: z.object({}).passthrough(),
    label: (_data, event) => transitionLabel('Paiement', paymentStatusLabel, event),
    customer: (_data, event) => (event.to ? nbsp('Paiement', paymentStatusLabel(event.to)) : null),
  }),
  payment_amount_mismatch: kind({
    schema: z
      .object({
        provider: provider.optional(),
        amountCents: cents.optional(),
        expectedCents: cents.optional(),
        currency: text.nullable().optional(),
      })
      .passthrough(),
    label: () => 'Montant payé différent du total',
    detail: (data) => {
      const foreign = data.currency && data.currency.toUpperCase() !== 'EUR' ? ` (${data.currency.toUpperCase()})` : '';
      const received = amount(data.amountCents);
      const expected = amount(data.expectedCents);
      return joined(
        received ? `${received}${foreign} reçus` : null,
        expected ? `${expected} attendus` : null,
        providerName(data.provider),
      );
    },
  }),
  payment_duplicate: kind({
    schema: z.object({ provider: provider.optional(), amountCents: cents.optional() }).passthrough(),
    label: () => 'Paiement en double, à rembourser',
    detail: (data) => joined(amount(data.amountCents), providerName(data.provider)),
  }),
  invoice_issued: kind({
    schema: z.object({ number: text.optional(), amountCents: cents.optional() }).passthrough(),
    label: () => 'Facture émise',
    detail: (data) => joined(nonEmpty(data.number), amount(data.amountCents)),
    customer: () => 'Facture émise',
  }),
  credit_note_issued: kind({
    schema: z
      .object({ number: text.optional(), invoiceNumber: text.optional(), amountCents: cents.optional() })
      .passthrough(),
    label: () => 'Avoir émis',
    detail: (data) =>
      joined(
        nonEmpty(data.number),
        amount(data.amountCents),
        nonEmpty(data.invoiceNumber) ? `sur la facture ${data.invoiceNumber}` : null,
      ),
    customer: () => 'Avoir émis',
  }),
  // The plateforme agréée (docs/plateforme-agreee.md, decision 047): a business document deposited,
  // each status it reports, a status the shop sent (« Encaissée »), a deposit given up, a re-issue.
  einvoice_deposited: kind({
    schema: z.object({ number: text.optional(), flowId: text.optional(), documentKind: text.optional() }).passthrough(),
    label: (data) =>
      data.documentKind === 'credit_note'
        ? 'Avoir déposé sur la plateforme agréée'
        : 'Facture déposée sur la plateforme agréée',
    detail: (data) => joined(nonEmpty(data.number), data.flowId ? `flux ${data.flowId}` : null),
  }),
  einvoice_status: kind({
    schema: z
      .object({ number: text.optional(), code: z.number().int().optional(), reason: text.optional() })
      .passthrough(),
    label: (data) => {
      const code = data.code ?? 0;
      if (code === PA_REJECTED) return 'Facture rejetée par la plateforme';
      if (code === PA_REFUSED) return 'Facture refusée par l’acheteur';
      return nbsp('Plateforme agréée', paStatusLabel(code));
    },
    detail: (data) =>
      joined(
        nonEmpty(data.number),
        data.code !== undefined ? `statut ${data.code}` : null,
        nonEmpty(data.reason) ? nbsp('motif', data.reason as string) : null,
      ),
  }),
  einvoice_status_sent: kind({
    schema: z
      .object({ number: text.optional(), code: z.number().int().optional(), amountCents: cents.nullable().optional() })
      .passthrough(),
    label: (data) => nbsp('Statut transmis à la plateforme', paStatusLabel(data.code ?? 0)),
    detail: (data) => joined(nonEmpty(data.number), amount(data.amountCents)),
  }),
  einvoice_deposit_failed: kind({
    schema: z.object({ number: text.optional(), error: text.optional() }).passthrough(),
    label: () => 'Dépôt sur la plateforme agréée abandonné',
    detail: (data) => joined(nonEmpty(data.number), nonEmpty(data.error)),
  }),
  business_buyer_corrected: kind({
    // The staff corrected the order's business buyer before re-issuing an invoice the plateforme
    // agréée rejected (decision 047); the invoices already issued keep the buyer they name.
    schema: z
      .object({
        changes: z
          .array(z.object({ field: text, before: text.nullable().optional(), after: text.nullable().optional() }))
          .optional(),
      })
      .passthrough(),
    label: () => 'Acheteur professionnel corrigé',
    detail: (data) =>
      joined(
        ...(data.changes ?? []).map((change) =>
          nbsp(
            BUYER_CORRECTION_FIELD_LABELS[change.field as BuyerCorrectionField] ?? change.field,
            `${nonEmpty(change.before) ?? '(vide)'} → ${nonEmpty(change.after) ?? '(vide)'}`,
          ),
        ),
      ),
  }),
  einvoice_reissued: kind({
    schema: z
      .object({
        rejectedNumber: text.optional(),
        creditNoteNumber: text.nullable().optional(),
        number: text.optional(),
      })
      .passthrough(),
    label: () => 'Facture rejetée corrigée et réémise',
    detail: (data) =>
      joined(
        data.rejectedNumber ? `${data.rejectedNumber} annulée` : null,
        nonEmpty(data.creditNoteNumber) ? `avoir ${data.creditNoteNumber}` : null,
        data.number ? `remplacée par ${data.number}` : null,
      ),
  }),
  withdrawal_requested: kind({
    schema: z.object({ requestedAt: text.optional(), statusAtRequest: text.optional() }).passthrough(),
    label: () => 'Rétractation demandée',
    detail: (data) =>
      data.statusAtRequest ? nbsp('Statut à la demande', orderStatusLabel(data.statusAtRequest)) : null,
    customer: () => 'Rétractation demandée',
  }),
  email_queued: kind({
    schema: z.object({ to: text.optional(), template: text.optional(), outboxId: text.optional() }).passthrough(),
    label: () => 'E-mail au client mis en file d’envoi',
    detail: emailDetail,
  }),
  email_sent: kind({
    schema: z.object({ to: text.optional(), template: text.optional(), outboxId: text.optional() }).passthrough(),
    label: () => 'E-mail envoyé au client',
    detail: emailDetail,
  }),
  customer_message: kind({
    // « Contacter le client »: the staff's message, sent by e-mail.
    schema: z.object({ to: text.optional(), subject: text.optional(), message: text.optional() }).passthrough(),
    label: () => 'Message envoyé au client',
    detail: (data) => [nonEmpty(data.subject), nonEmpty(data.message)].filter(Boolean).join(' — ') || null,
  }),
  note: kind({
    schema: z.object({ text: text.optional() }).passthrough(),
    label: () => 'Note interne',
    detail: (data) => nonEmpty(data.text),
    isNote: true,
  }),
  attached_to_account: kind({
    // A guest signed in or registered at the checkout of an unpaid order of theirs (decision 015).
    schema: z
      .object({ guestEmail: text.nullable().optional(), how: z.enum(['sign-in', 'register', 'session']).optional() })
      .passthrough(),
    label: () => 'Commande rattachée au compte',
    detail: (data) => (data.guestEmail ? nbsp('E-mail de la commande invité', data.guestEmail) : null),
    customer: () => 'Commande rattachée à votre compte',
  }),
  guest_info_updated: kind({
    schema: z.object({ fields: z.array(text).optional() }).passthrough(),
    label: () => 'Coordonnées du client mises à jour',
    detail: (data) => {
      const fields = (data.fields ?? []).map((field) => GUEST_FIELDS[field]).filter(Boolean);
      return fields.length > 0 ? capitalized(fields.join(', ')) : null;
    },
  }),

  // ---- Kinds of the money lifecycle (drafts, refunds, settlement) ----
  placed: kind({
    schema: z.object({ method: z.enum(['card', 'transfer', 'cheque']).optional() }).passthrough(),
    label: () => 'Commande confirmée',
    // The lifecycle's rule book (lifecycle.ts) records the chosen method as the event's `to` too.
    detail: (data, event) => {
      const method = data.method ?? event.to;
      return method ? nbsp('Paiement', paymentMethodLabel(method)) : null;
    },
    customer: () => 'Commande confirmée',
  }),
  payment_session_closed: kind({
    schema: z
      .object({
        provider: provider.optional(),
        sessionId: text.optional(),
        reason: z.enum(SESSION_CLOSE_REASONS).optional(),
      })
      .passthrough(),
    label: () => 'Session de paiement fermée',
    detail: (data) =>
      joined(providerName(data.provider), data.reason ? capitalized(SESSION_CLOSE_WORDING[data.reason]) : null),
  }),
  payment_expired: kind({
    schema: z.object({ provider: provider.optional(), amountCents: cents.optional() }).passthrough(),
    label: () => `Paiement par carte non abouti sous 24${NBSP}h`,
    detail: (data) => joined(amount(data.amountCents), providerName(data.provider)),
  }),
  payment_unapplied: kind({
    schema: z
      .object({
        reason: z.enum(UNAPPLIED_REASONS).optional(),
        amountCents: cents.optional(),
        provider: provider.optional(),
      })
      .passthrough(),
    label: () => 'Paiement reçu sans régler la commande',
    detail: (data) => {
      const received = amount(data.amountCents);
      const by = providerName(data.provider);
      const what = received ? `${received} reçus${by ? ` par ${by}` : ''}` : by;
      return joined(what, data.reason ? UNAPPLIED_WORDING[data.reason] : null);
    },
  }),
  refund_issued: kind({
    schema: z
      .object({
        amountCents: cents.optional(),
        method: z.enum(REFUND_METHODS).optional(),
        provider: provider.optional(),
        reason: text.optional(),
        creditNoteNumber: text.optional(),
      })
      .passthrough(),
    label: (data) => {
      const value = amount(data.amountCents);
      return value ? `Remboursement de ${value}` : 'Remboursement';
    },
    detail: (data) =>
      joined(
        data.method ? capitalized(REFUND_METHOD_WORDING[data.method]) : null,
        providerName(data.provider),
        nonEmpty(data.creditNoteNumber) ? nbsp('Avoir', data.creditNoteNumber as string) : null,
        nonEmpty(data.reason),
      ),
    customer: (data) => {
      const value = amount(data.amountCents);
      return value ? `Remboursement de ${value}` : 'Remboursement effectué';
    },
  }),
  refund_failed: kind({
    schema: z
      .object({ amountCents: cents.optional(), detail: text.nullable().optional(), provider: provider.optional() })
      .passthrough(),
    label: (data) => {
      const value = amount(data.amountCents);
      return value ? `Échec du remboursement de ${value}` : 'Échec du remboursement';
    },
    detail: (data) => joined(failureReason(data.detail), providerName(data.provider)),
  }),
  refund_due: kind({
    schema: z
      .object({ amountCents: cents.optional(), provider: provider.optional(), reason: text.optional() })
      .passthrough(),
    label: (data) => {
      const value = amount(data.amountCents);
      return value ? `À rembourser${NBSP}: ${value}` : 'À rembourser';
    },
    detail: (data) => {
      const by = providerName(data.provider);
      return joined(nonEmpty(data.reason), by ? `Reçu par ${by}` : null);
    },
  }),
  // The refund of an order paid by transfer or cheque: the customer's IBAN (decision 025). Never
  // the IBAN in the data, only the amount and why it was deleted.
  iban_requested: kind({
    schema: z.object({ amountCents: cents.optional(), reminder: z.boolean().optional() }).passthrough(),
    label: (data) => {
      const value = amount(data.amountCents);
      const what = data.reminder ? `Rappel envoyé${NBSP}: IBAN du client` : 'IBAN demandé au client';
      return value ? `${what} (remboursement de ${value})` : what;
    },
    customer: (data) => {
      const value = amount(data.amountCents);
      if (data.reminder) return null;
      return value ? `Votre IBAN vous est demandé pour un remboursement de ${value}` : 'Votre IBAN vous est demandé';
    },
  }),
  iban_received: kind({
    schema: z.object({}).passthrough(),
    label: () => 'IBAN reçu du client',
    customer: () => 'Vous nous avez indiqué votre IBAN',
  }),
  iban_deleted: kind({
    schema: z.object({ reason: z.enum(['refunded', 'expired']).optional() }).passthrough(),
    label: () => 'IBAN du client effacé',
    detail: (data) =>
      data.reason === 'refunded'
        ? 'Remboursement fait'
        : data.reason === 'expired'
          ? 'Durée de conservation écoulée'
          : null,
    customer: () => 'Vos coordonnées bancaires ont été effacées',
  }),
  withdrawal_settled: kind({
    schema: z.object({ keptCents: cents.optional(), refundedCents: cents.optional() }).passthrough(),
    label: () => 'Rétractation réglée',
    detail: (data) =>
      joined(
        data.keptCents === undefined ? null : nbsp('Conservé', formatEurosFromCents(data.keptCents)),
        data.refundedCents === undefined ? null : nbsp('Remboursé', formatEurosFromCents(data.refundedCents)),
      ),
    customer: () => 'Rétractation traitée',
  }),

  // ---- Kinds of the originals' journey ----
  address_recorded: kind({
    schema: z.object({ kinds: z.array(z.enum(['delivery', 'billing'])).optional() }).passthrough(),
    label: (data) =>
      (data.kinds ?? []).includes('billing')
        ? 'Adresses de livraison et de facturation enregistrées'
        : 'Adresse de livraison enregistrée',
  }),
  label_created: kind({
    schema: z
      .object({ direction: z.enum(['inbound', 'outbound']).optional(), parcelNumber: text.optional() })
      .passthrough(),
    label: (data) => (data.direction === 'outbound' ? 'Étiquette de retour créée' : 'Étiquette d’envoi prépayée créée'),
    detail: (data) => (nonEmpty(data.parcelNumber) ? nbsp('Colis', data.parcelNumber as string) : null),
    customer: (data) => (data.direction === 'outbound' ? null : 'Étiquette d’envoi prête à imprimer'),
  }),
  label_failed: kind({
    schema: z.object({ direction: z.enum(['inbound', 'outbound']).optional(), detail: text.optional() }).passthrough(),
    label: (data) =>
      data.direction === 'outbound'
        ? 'Échec de la création de l’étiquette de retour'
        : 'Échec de la création de l’étiquette d’envoi',
    detail: (data) => nonEmpty(data.detail),
  }),
  parcel_posted: kind({
    // The carrier's first scan of a parcel (server/shipping/tracking.server.ts): the originals are
    // on their way. `scannedAt` is the carrier's date of the scan.
    schema: z
      .object({
        direction: z.enum(['inbound', 'outbound']).optional(),
        parcelNumber: text.optional(),
        code: text.optional(),
        scannedAt: text.optional(),
      })
      .passthrough(),
    label: (data) =>
      data.direction === 'outbound'
        ? 'Colis retour pris en charge par La Poste'
        : 'Colis des originaux pris en charge par La Poste',
    detail: (data) =>
      joined(
        nonEmpty(data.parcelNumber) ? nbsp('Colis', data.parcelNumber as string) : null,
        day(data.scannedAt) ? `scanné le ${day(data.scannedAt)}` : null,
      ),
    customer: (data) => (data.direction === 'outbound' ? null : 'Votre colis a été pris en charge par La Poste'),
  }),
  parcel_received: kind({
    schema: z
      .object({
        dueAt: text.optional(),
        receivedByName: text.optional(),
        counted: z.number().int().optional(),
        ordered: z.number().int().optional(),
      })
      .passthrough(),
    label: () => 'Colis reçu à l’atelier',
    detail: (data) =>
      joined(
        data.counted === undefined
          ? null
          : `${data.counted} élément${data.counted > 1 ? 's' : ''} compté${data.counted > 1 ? 's' : ''}`,
        data.ordered === undefined ? null : `${data.ordered} commandé${data.ordered > 1 ? 's' : ''}`,
        nonEmpty(data.receivedByName) ? `par ${data.receivedByName}` : null,
      ),
    customer: () => 'Vos souvenirs sont arrivés à l’atelier',
  }),
  stage_changed: kind({
    schema: z.object({}).passthrough(),
    label: (_data, event) => transitionLabel('Étape', workshopStageLabel, event),
    customer: (_data, event) => {
      if (event.to === 'digitising') return 'Numérisation en cours';
      if (event.to === 'quality_check') return 'Contrôle qualité';
      if (event.to === 'ready') return 'Vos fichiers sont prêts';
      return null;
    },
  }),
  shipped: kind({
    schema: z
      .object({ parcelNumber: text.optional(), carrier: z.enum(['colissimo', 'other']).optional() })
      .passthrough(),
    label: () => 'Commande expédiée',
    detail: (data) =>
      joined(
        nonEmpty(data.parcelNumber) ? nbsp('Suivi', data.parcelNumber as string) : null,
        data.carrier === 'colissimo' ? 'Colissimo' : null,
      ),
    customer: () => 'Votre commande est expédiée',
  }),
  tracking_corrected: kind({
    schema: z.object({ from: text.optional(), to: text.optional() }).passthrough(),
    label: () => 'Numéro de suivi corrigé',
    detail: (data) => {
      const from = nonEmpty(data.from);
      const to = nonEmpty(data.to);
      return from && to ? `${from} → ${to}` : to;
    },
    customer: () => 'Numéro de suivi corrigé',
  }),
  supplement_requested: kind({
    schema: z.object({ amountCents: cents.optional(), adjustmentId: text.optional() }).passthrough(),
    label: (data) => {
      const value = amount(data.amountCents);
      return value ? `Supplément de ${value} demandé au client` : 'Supplément demandé au client';
    },
    customer: (data) => {
      const value = amount(data.amountCents);
      return value ? `Supplément de ${value} à approuver` : 'Supplément à approuver';
    },
  }),
  supplement_paid: kind({
    schema: z
      .object({ amountCents: cents.optional(), adjustmentId: text.optional(), provider: provider.optional() })
      .passthrough(),
    label: (data) => {
      const value = amount(data.amountCents);
      return value ? `Supplément de ${value} payé` : 'Supplément payé';
    },
    detail: (data) => providerName(data.provider),
    customer: () => 'Supplément payé',
  }),
  reduction_recorded: kind({
    schema: z.object({ amountCents: cents.optional(), refundRight: z.boolean().optional() }).passthrough(),
    label: (data) => {
      const value = amount(data.amountCents);
      return value ? `Réduction de ${value} au comptage` : 'Réduction au comptage';
    },
    detail: (_data, event) => (event.to === 'to_approve' ? 'À rembourser après approbation' : null),
  }),
  supplement_declined: kind({
    schema: z
      .object({ decision: z.enum(['digitise_paid', 'return_extra']).optional(), by: text.optional() })
      .passthrough(),
    label: () => 'Supplément refusé',
    detail: (data, event) => {
      const decision = data.decision ?? event.to;
      if (decision === 'digitise_paid') return 'Seuls les éléments payés seront numérisés';
      if (decision === 'return_extra') return 'Les éléments en plus seront renvoyés sans être numérisés';
      return null;
    },
    customer: () => 'Supplément refusé',
  }),
  files_published: kind({
    schema: z.object({ fileCount: z.number().int().optional(), expiresAt: text.optional() }).passthrough(),
    label: () => 'Livraison des fichiers publiée',
    detail: (data) =>
      joined(
        data.fileCount === undefined ? null : `${data.fileCount} fichier${data.fileCount > 1 ? 's' : ''}`,
        day(data.expiresAt) ? `conservés jusqu’au ${day(data.expiresAt)}` : null,
      ),
    customer: () => 'Vos fichiers sont prêts',
  }),
  review_opened: kind({
    schema: z.object({ fileCount: z.number().int().optional(), endsAt: text.optional() }).passthrough(),
    label: () => 'Fichiers publiés pour la sélection du client',
    detail: (data) =>
      joined(
        data.fileCount === undefined ? null : `${data.fileCount} fichier${data.fileCount > 1 ? 's' : ''}`,
        day(data.endsAt) ? `jusqu’au ${day(data.endsAt)}` : null,
      ),
    customer: () => 'En attente de votre sélection',
  }),
  review_closed: kind({
    schema: z.object({ droppedCount: z.number().int().optional(), lapsed: z.boolean().optional() }).passthrough(),
    label: (data) =>
      data.lapsed ? 'Sélection close (délai écoulé, tout est gardé)' : 'Sélection validée par le client',
    detail: (data) =>
      data.droppedCount
        ? `${data.droppedCount} fichier${data.droppedCount > 1 ? 's' : ''} retiré${data.droppedCount > 1 ? 's' : ''}`
        : null,
    customer: (data) => (data.lapsed ? `Délai de sélection écoulé${NBSP}: tout est gardé` : 'Sélection validée'),
  }),
  review_reminder: kind({
    schema: z.object({ endsAt: text.optional() }).passthrough(),
    label: () => `Rappel envoyé${NBSP}: sélection à faire`,
    detail: (data) => (day(data.endsAt) ? `Fin le ${day(data.endsAt)}` : null),
  }),
  file_rework_requested: kind({
    schema: z.object({ fileId: text.optional(), fileName: text.optional(), comment: text.optional() }).passthrough(),
    label: (data) =>
      nonEmpty(data.fileName) ? nbsp('Fichier à refaire', data.fileName as string) : 'Fichier à refaire',
    detail: (data) => nonEmpty(data.comment),
    customer: (data) =>
      nonEmpty(data.fileName)
        ? `Vous avez demandé à refaire ${data.fileName}`
        : 'Vous avez demandé à refaire un fichier',
  }),
  file_rework_done: kind({
    schema: z.object({ fileId: text.optional(), fileName: text.optional() }).passthrough(),
    label: (data) => (nonEmpty(data.fileName) ? nbsp('Fichier refait', data.fileName as string) : 'Fichier refait'),
    customer: (data) => (nonEmpty(data.fileName) ? `${data.fileName} a été refait` : 'Le fichier demandé a été refait'),
  }),
  files_retention_extended: kind({
    schema: z.object({ expiresAt: text.optional() }).passthrough(),
    label: (data) =>
      day(data.expiresAt)
        ? `Conservation des fichiers prolongée jusqu’au ${day(data.expiresAt)}`
        : 'Conservation des fichiers prolongée',
    customer: (data) =>
      day(data.expiresAt)
        ? `Vos fichiers sont conservés jusqu’au ${day(data.expiresAt)}`
        : 'La conservation de vos fichiers est prolongée',
  }),
  files_expiry_reminder: kind({
    schema: z.object({ expiresAt: text.optional() }).passthrough(),
    label: () => `Rappel envoyé${NBSP}: fichiers bientôt supprimés`,
    detail: (data) => (day(data.expiresAt) ? `Suppression le ${day(data.expiresAt)}` : null),
  }),
  files_deleted: kind({
    schema: z
      .object({ fileCount: z.number().int().optional(), reason: z.enum(['retention', 'staff']).optional() })
      .passthrough(),
    label: (data) =>
      data.reason === 'staff' ? 'Fichiers supprimés par l’équipe' : 'Fichiers supprimés (fin de la conservation)',
    detail: (data) =>
      data.fileCount === undefined ? null : `${data.fileCount} fichier${data.fileCount > 1 ? 's' : ''}`,
    customer: () => 'Vos fichiers ont été supprimés à la fin de leur conservation',
  }),
  order_canceled: kind({
    schema: z.object({ reason: text.optional() }).passthrough(),
    label: () => 'Commande annulée',
    detail: (data) => nonEmpty(data.reason),
    customer: () => 'Commande annulée',
  }),
} as const;

type Registry = typeof ORDER_EVENTS;

/** Every kind of order history event. */
export type OrderEventKind = keyof Registry;

export const ORDER_EVENT_KINDS = Object.keys(ORDER_EVENTS) as OrderEventKind[];

/** The data a writer gives for a kind (fields with defaults or optional may be left out). */
export type OrderEventData<K extends OrderEventKind> = z.input<Registry[K]['schema']>;

/** What a writer inserts into order_events, besides order_id, actor and at. */
export interface OrderEventRow<K extends OrderEventKind = OrderEventKind> {
  kind: K;
  from: string | null;
  to: string | null;
  data: OrderEventData<K>;
}

/**
 * A typed event for a writer: `tx.insert(orderEvents).values({ orderId, actor, ...orderEvent('payment_paid',
 * { amountCents, provider }) })`. The data is not parsed again at run time: a writer is often inside a
 * payment notification's transaction, where refusing to record money would be worse than a row with
 * an unexpected field; the compiler is the check.
 */
export function orderEvent<K extends OrderEventKind>(
  kind: K,
  data: OrderEventData<K>,
  transition: Partial<EventTransition> = {},
): OrderEventRow<K> {
  return { kind, from: transition.from ?? null, to: transition.to ?? null, data };
}

export function isOrderEventKind(value: unknown): value is OrderEventKind {
  return typeof value === 'string' && Object.hasOwn(ORDER_EVENTS, value);
}

/** The label of a kind this code does not know (a row written by newer code, a typo in a script). */
export const UNKNOWN_EVENT_LABEL = 'Événement de la commande';

/** An order_events row as read from the database. */
export interface StoredOrderEvent {
  kind: string;
  from: string | null;
  to: string | null;
  data: unknown;
}

export interface OrderEventDescription {
  label: string;
  detail: string | null;
  /** The customer's wording, or null when the customer does not see this event. */
  customerLabel: string | null;
  isNote: boolean;
  known: boolean;
}

/** Everything a screen shows of one stored event, in French, whatever its data looks like. */
export function describeOrderEvent(event: StoredOrderEvent): OrderEventDescription {
  if (!isOrderEventKind(event.kind)) {
    return { label: UNKNOWN_EVENT_LABEL, detail: null, customerLabel: null, isNote: false, known: false };
  }
  // The registry's union of definitions is too wide for TypeScript to pair each schema with its
  // functions here; the pairing is checked where each definition is written (`kind()`).
  const definition = ORDER_EVENTS[event.kind] as unknown as KindDefinition<z.ZodType<Record<string, unknown>>>;
  const parsed = definition.schema.safeParse(event.data ?? {});
  // Old or odd data: the label stays, the detail built from the data is left out.
  const data = parsed.success ? parsed.data : {};
  const transition = { from: event.from, to: event.to };
  return {
    label: definition.label(data, transition),
    detail: definition.detail?.(data, transition) ?? null,
    customerLabel: definition.customer?.(data, transition) ?? null,
    isNote: definition.isNote === true,
    known: true,
  };
}

/** Whether the customer ever sees a kind (some rows of a visible kind may still be hidden). */
export function isCustomerVisibleKind(kind: OrderEventKind): boolean {
  return (ORDER_EVENTS[kind] as { customer?: unknown }).customer !== undefined;
}

/** The account behind an event, when the actor is a user id. */
export interface ActorAccount {
  name: string | null;
  email: string | null;
  /** The order's own customer: shown as « Client », whatever the account's name. */
  isOrderCustomer?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who did it, by name: « Système », « Client », « Stripe », « Paiement de démonstration », or the
 * staff member's name (e-mail when the name is empty). Never an id nor an English code.
 */
export function actorName(actor: string | null | undefined, account?: ActorAccount | null): string {
  if (account) {
    if (account.isOrderCustomer) return NAMED_ACTORS.customer as string;
    return nonEmpty(account.name) ?? nonEmpty(account.email) ?? 'Compte supprimé';
  }
  if (!actor) return NAMED_ACTORS.system as string;
  const named = NAMED_ACTORS[actor.toLowerCase()];
  if (named) return named;
  // A user id whose account is gone: the id means nothing to a person.
  if (UUID.test(actor)) return 'Compte supprimé';
  return NAMED_ACTORS.system as string;
}

/** One line of an order's history as a screen shows it. */
export interface OrderHistoryEntry {
  at: string;
  /** The stored kind, for tests and styling; never shown. */
  kind: string;
  label: string;
  detail: string | null;
  /** Null in the customer's view: the customer is not told which staff member did what. */
  actorName: string | null;
  isNote: boolean;
  /** Staff only: the outbox row of an e-mail sent, which « Renvoyer » sends again. */
  emailId?: string | null;
}

export type HistoryAudience = 'staff' | 'customer';

export interface HistoryInput extends StoredOrderEvent {
  at: Date | string;
  actor: string | null;
  account?: ActorAccount | null;
}

/** The outbox id an `email_sent` row names, when it is one. */
function sentEmailId(data: unknown): string | null {
  const id = (data as { outboxId?: unknown } | null)?.outboxId;
  return typeof id === 'string' && UUID.test(id) ? id : null;
}

/** The history for one audience, oldest first; the customer's leaves out internal bookkeeping. */
export function orderHistory(events: ReadonlyArray<HistoryInput>, audience: HistoryAudience): OrderHistoryEntry[] {
  const entries: Array<OrderHistoryEntry & { time: number; index: number }> = [];
  events.forEach((event, index) => {
    const description = describeOrderEvent(event);
    const at = new Date(event.at);
    const base = { at: at.toISOString(), kind: event.kind, time: at.getTime(), index };
    if (audience === 'staff') {
      entries.push({
        ...base,
        label: description.label,
        detail: description.detail,
        actorName: actorName(event.actor, event.account),
        isNote: description.isNote,
        emailId: event.kind === 'email_sent' ? sentEmailId(event.data) : null,
      });
    } else if (description.customerLabel) {
      entries.push({ ...base, label: description.customerLabel, detail: null, actorName: null, isNote: false });
    }
  });
  // Stable: events at the same instant keep the order they were read in (by id).
  return entries
    .sort((a, b) => a.time - b.time || a.index - b.index)
    .map(({ time: _time, index: _index, ...entry }) => entry);
}
