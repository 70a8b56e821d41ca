/*
 * The payment wording of the shop's error catalogue and of our own
 * additions, in one place for the checkout, the gateway pages and the API.
 */

export const PAYMENT_MESSAGES = {
  orderNotFound: 'Commande introuvable',
  orderNotFoundDetail: (detail: string) => `Commande introuvable: ${detail}`,
  sessionFailed: (detail: string) => `Échec de création de la session de paiement: ${detail}`,
  invalidResponse: 'Réponse invalide du serveur de paiement',
  processingError: (detail: string) => `Erreur lors du traitement du paiement: ${detail}`,
  errorTitle: 'Erreur de paiement',
  canceledTitle: 'Paiement annulé',
  canceledBanner: 'Le paiement a été annulé. Vous pouvez réessayer quand vous le souhaitez.',
  alreadyPaid: 'Cette commande est déjà payée.',
  orderCanceled: 'Cette commande est annulée : elle ne peut plus être payée.',
  orderWithdrawn: 'Vous vous êtes rétracté de cette commande : elle ne peut plus être payée.',
  nothingToPay: 'Cette commande n’a pas de montant à payer.',
  notConfigured: 'Les clés de paiement ne sont pas configurées',
  providerRefused: 'La solution de paiement a refusé la demande',
  providerUnreachable: 'La solution de paiement ne répond pas',
  tooManyRequests: 'Trop de tentatives de paiement. Veuillez patienter une minute avant de réessayer.',
  invalidRequest: 'Requête invalide',
  sessionNotFound: 'Session de paiement introuvable',
  sessionExpired: 'Cette session de paiement a expiré. Retournez à votre commande pour réessayer.',
  sessionClosed: 'Cette session de paiement est terminée.',
} as const;
