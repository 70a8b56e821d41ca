import type { TransitionType } from '../orders/lifecycle';

/*
 * What the audit log records (docs/decisions/017-audit-log.md): one kind per back-office
 * action, with its French wording for the « Journal » page. The code values are stored in
 * audit_log.kind; the labels may be reworded at any time without touching the rows.
 */

export const AUDIT_KIND_LABELS = {
  'order.status': 'Statut de commande',
  'order.cancel': 'Annulation de commande',
  'order.stage': 'Étape de l’atelier',
  'order.reception': 'Réception des originaux',
  'order.shipping': 'Expédition',
  'order.files': 'Publication des fichiers',
  'order.supplement': 'Supplément',
  'order.withdrawal': 'Rétractation',
  'order.payment_method': 'Moyen de paiement',
  'order.refund': 'Remboursement',
  'order.note': 'Note sur la commande',
  'order.message': 'Message au client',
  // The customer's IBAN for a refund by transfer (decision 025): who read it, and the refund it paid;
  // never the IBAN itself.
  'order.iban_viewed': 'IBAN du client consulté',
  'order.iban_used': 'IBAN du client utilisé pour un remboursement',
  // « Cartes cadeaux » (decision 037): the subject is the card's sale order, the card named by its masked code.
  'gift_card.resend': 'Carte cadeau renvoyée',
  'gift_card.extend': 'Carte cadeau prolongée',
  'gift_card.refund': 'Carte cadeau annulée et remboursée',
  // « Codes promo » (decision 038): the subject is the code's id, known by the code itself.
  'promotion.create': 'Code promo créé',
  'promotion.pause': 'Code promo suspendu',
  'promotion.resume': 'Code promo réactivé',
  'payment.validate': 'Paiement validé',
  'payment.reject': 'Paiement rejeté',
  'price.change': 'Modification des tarifs',
  'settings.email': 'Paramètres e-mail',
  'settings.payment': 'Paramètres de paiement',
  // The plateforme agréée (docs/plateforme-agreee.md): its settings, an invoice it rejected re-issued,
  // and the business buyer corrected before that.
  'settings.pa': 'Plateforme agréée',
  'order.einvoice_reissue': 'Facture rejetée corrigée et réémise',
  'order.business_buyer': 'Acheteur professionnel corrigé',
  'settings.files': 'Conservation des fichiers',
  'settings.invoicing': 'Réglages de facturation',
  'settings.shipping': 'Identifiants Coliship',
  'settings.security': 'Règle de double authentification',
  // The accounts and journal codes of the accounting exports (FEC, journal in entries).
  'settings.accounting': 'Comptes comptables',
  // E-reporting (docs/e-reporting.md): the VAT regime that sets the cadence, each transmission sent
  // to the plateforme agréée or deposited by hand; the subject is the transmission's id, known by its file.
  'settings.ereporting': 'Régime de TVA (e-reporting)',
  'ereporting.send': 'Transmission e-reporting envoyée',
  'ereporting.deposit': 'Transmission e-reporting déposée manuellement',
  'staff.invite': 'Invitation d’un membre de l’équipe',
  'staff.revoke': 'Invitation annulée',
  'staff.role': 'Changement de rôle',
  'staff.deactivate': 'Désactivation d’un compte',
  'staff.reactivate': 'Réactivation d’un compte',
  'staff.join': 'Invitation acceptée',
  // Security events of the staff's own accounts (docs/decisions/020).
  'security.sign_in': 'Connexion',
  'security.code_refused': 'Code de vérification refusé',
  'security.two_factor_on': 'Double authentification activée',
  'security.two_factor_off': 'Double authentification désactivée',
  'security.password': 'Mot de passe modifié',
  'security.admin_api': 'Action d’administration des comptes',
  'customer.details': 'Coordonnées d’un client',
  export: 'Export de données',
  'file.delete': 'Suppression de fichier',
  'email.resend': 'E-mail renvoyé',
  'email.send': 'E-mail envoyé par l’API',
} as const;

export type AuditKind = keyof typeof AUDIT_KIND_LABELS;
export const AUDIT_KINDS = Object.keys(AUDIT_KIND_LABELS) as AuditKind[];

export function isAuditKind(value: unknown): value is AuditKind {
  return typeof value === 'string' && Object.hasOwn(AUDIT_KIND_LABELS, value);
}

export function auditKindLabel(kind: string): string {
  return isAuditKind(kind) ? AUDIT_KIND_LABELS[kind] : kind;
}

/** The kind of entry an order transition applied by a staff member writes. */
export const TRANSITION_AUDIT_KINDS: Readonly<Record<TransitionType, AuditKind>> = {
  place: 'order.status',
  set_status: 'order.status',
  cancel: 'order.cancel',
  choose_payment_method: 'order.payment_method',
  settle_payment: 'payment.validate',
  settle_supplement: 'payment.validate',
  fail_payment: 'payment.reject',
  refund: 'order.refund',
  record_reduction: 'order.refund',
  withdraw: 'order.withdrawal',
  settle_withdrawal: 'order.withdrawal',
  receive: 'order.reception',
  advance_stage: 'order.stage',
  ship: 'order.shipping',
  request_supplement: 'order.supplement',
  decline_supplement: 'order.supplement',
  publish_files: 'order.files',
  open_review: 'order.files',
  close_review: 'order.files',
};

/** Who is shown for entries written by the shop itself (housekeeping, retention). */
export const SYSTEM_ACTOR_NAME = 'Système';

/** The French name of a role frozen in an entry (the staff roles; anything else as stored). */
export const AUDIT_ROLE_LABELS: Readonly<Record<string, string>> = {
  admin: 'Administrateur',
  atelier: 'Atelier',
  comptabilite: 'Comptabilité',
  system: 'Système',
};

export function auditRoleLabel(role: string): string {
  return AUDIT_ROLE_LABELS[role] ?? role;
}

/**
 * Kinds whose subject is an order's id (and subject label its number): the Journal links them. A
 * re-sent e-mail is about its order when it has one (its subject is then the order's id); a gift
 * card's entries are about the order that sold it.
 */
export function isOrderKind(kind: string): boolean {
  return (
    kind.startsWith('order.') ||
    kind.startsWith('payment.') ||
    kind.startsWith('gift_card.') ||
    kind === 'file.delete' ||
    kind === 'email.resend'
  );
}
