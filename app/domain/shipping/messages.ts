import { NNBSP } from '../format';

/** What the shop says when a Colissimo label cannot be made (client, back office, history). */
export const LABEL_MESSAGES = {
  notConfigured: 'Les identifiants Coliship ne sont pas configurés dans le back office',
  unavailable: `Le service Colissimo ne répond pas pour le moment${NNBSP}; réessayez dans quelques minutes`,
  credentials: 'Colissimo a refusé les identifiants Coliship enregistrés dans le back office',
  refused: (detail: string) => `Colissimo a refusé l’étiquette${NNBSP}: ${detail}`,
  unreadable: 'La réponse de Colissimo est illisible',
  notNeeded: 'Cette commande n’a pas d’étiquette d’envoi prépayée',
  notPaid: 'L’étiquette d’envoi sera disponible une fois la commande payée',
  noReturn: 'Cette commande n’a rien à renvoyer par Colissimo',
  parcelNumberRequired: 'Saisissez le numéro de suivi du colis',
  parcelNumberTooLong: 'Le numéro de suivi est trop long',
} as const;
