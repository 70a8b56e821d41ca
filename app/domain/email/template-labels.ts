/*
 * The shop's e-mails as the staff name them (the order's history, the e-mail log): never the
 * template's code. Keys are the names of email_outbox.template (server/email/templates/registry.ts;
 * a unit test there checks that every template has its words here).
 */
export const EMAIL_TEMPLATE_LABELS: Readonly<Record<string, string>> = {
  welcome: 'Bienvenue',
  'password-reset': 'Réinitialisation du mot de passe',
  'magic-link': 'Lien de connexion',
  'email-verification': 'Confirmation de l’adresse e-mail',
  'order-confirmation': 'Confirmation de commande',
  'payment-received': 'Paiement reçu',
  'payment-rejected': 'Paiement non validé',
  'order-status': 'Changement de statut',
  'quote-saved': 'Devis enregistré',
  'contact-to-shop': 'Message du formulaire de contact',
  'contact-acknowledgement': 'Accusé de réception du contact',
  'withdrawal-acknowledgement': 'Accusé de rétractation',
  'refund-issued': 'Remboursement',
  'refund-iban-request': 'Demande d’IBAN pour un remboursement',
  'supplement-requested': 'Supplément à régler',
  'supplement-paid': 'Supplément réglé',
  'originals-received': 'Originaux reçus',
  'order-ready': 'Commande prête',
  'order-shipped': 'Commande expédiée',
  'label-ready': 'Étiquette prépayée prête',
  'files-expiring': 'Fichiers bientôt supprimés',
  'review-open': 'Sélection des fichiers ouverte',
  'review-reminder': 'Rappel de sélection des fichiers',
  'order-message': 'Message de l’atelier',
  'staff-invitation': 'Invitation à l’équipe',
  'share-invitation': 'Partage avec la famille',
  'gift-card': 'Carte cadeau',
  'gift-card-copy': 'Carte cadeau envoyée (copie à l’acheteur)',
  'gift-card-expiring': 'Rappel avant l’expiration d’une carte cadeau',
  'test-email': 'E-mail de test',
  custom: 'Message personnalisé',
};

/** « Confirmation de commande »; an unknown name reads « E-mail ». */
export function emailTemplateLabel(template: string | null | undefined): string {
  return (template && EMAIL_TEMPLATE_LABELS[template]) || 'E-mail';
}
