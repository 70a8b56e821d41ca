/*
 * The back office's French wording, in one place: route modules,
 * components and tests read it here, so that a message changes everywhere at once.
 */

export const ACCESS_MESSAGES = {
  unauthenticated: 'Non authentifié',
  forbidden: 'Accès non autorisé',
  deniedDetail: 'Votre rôle ne donne pas accès à cette page. Demandez à un administrateur si vous en avez besoin.',
  sessionError: "Erreur d'authentification. Veuillez vous reconnecter.",
  permissionsError: 'Impossible de vérifier vos permissions. Veuillez réessayer.',
  genericError: "Une erreur s'est produite lors de la vérification de votre accès.",
} as const;

export const STATUS_CHANGE_MESSAGES = {
  /** The success message of the status-change form. */
  updated: 'Statut de la commande mis à jour',
  sending: "Envoi de l'email au client...",
  /** `{name}`: the customer's name, or their e-mail address when the order has no name. */
  sent: 'Email de notification envoyé à {name}',
  /** `{status}`: the new status in French. */
  sentDescription: 'Statut de commande: {status}',
  failed: "L'email n'a pas pu être envoyé",
  exception: "Erreur lors de l'envoi de l'email",
  updateFailed: 'Le statut n’a pas pu être mis à jour',
  creditNoteIssued: 'Avoir {number} émis',
} as const;

export const PAYMENT_VALIDATION_MESSAGES = {
  validatedMany: '{n} paiements validés avec succès',
  rejectedMany: '{n} paiements ont été rejetés',
  validatedOne: 'Paiement {reference} validé',
  rejectedOne: 'Paiement {reference} rejeté',
  nothingSelected: 'Sélectionnez au moins un paiement',
  failed: 'L’opération n’a pas pu aboutir',
} as const;

export const COLISHIP_MESSAGES = {
  required: 'Veuillez remplir tous les champs',
  success: 'Connexion à Coliship réussie',
  failure: 'Échec de la connexion à Coliship',
  failureDescription: 'Vérifiez vos identifiants et réessayez.',
  error: 'Erreur lors de la validation',
  saved: 'Identifiants Coliship enregistrés',
} as const;

export const PLATFORM_TEST_MESSAGES = {
  completed: 'Platform tests completed',
  databaseOk: 'Connexion à la base de données réussie',
  databaseError: 'Erreur de connexion à la base de données',
  sessionOk: 'Session administrateur active',
  noSession: 'Aucune session active (mode invité)',
  orderFunctionsOk: 'Fonctions de commande accessibles',
  noTestOrder: 'Fonctions de commande accessibles, aucune commande de test trouvée (normal)',
  orderFunctionsError: 'Les fonctions de commande ne répondent pas',
  paymentOk: 'Paiement en ligne opérationnel',
  paymentKeys: 'Les clés de paiement doivent être configurées',
  emailOk: 'Service email opérationnel',
  emailConfig: 'Le service email doit être configuré',
} as const;

/** `fill('Paiement {reference} validé', { reference: 'X' })` -> `Paiement X validé`. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) =>
    Object.hasOwn(values, key) ? String(values[key]) : match,
  );
}
