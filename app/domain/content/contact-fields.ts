/*
 * The contact form's fields, limits and French messages,
 * without zod: the browser's form imports this module only, its checks run on the server
 * (./contact-form.ts), so that the /contact page does not ship zod (decision 018).
 */

export const CONTACT_SERVICES = ['photos', 'slides', 'negatives', 'vhs', 'film', 'documents', 'other'] as const;
export type ContactService = (typeof CONTACT_SERVICES)[number];

export const CONTACT_SERVICE_LABELS: Record<ContactService, string> = {
  photos: 'Photos',
  slides: 'Diapositives',
  negatives: 'Négatifs',
  vhs: 'Cassettes VHS',
  film: 'Films',
  documents: 'Documents',
  other: 'Autre',
};

export const CONTACT_MESSAGES = {
  name: 'Veuillez indiquer votre nom',
  email: 'Veuillez indiquer votre adresse email',
  emailInvalid: 'Veuillez saisir une adresse email valide',
  phoneInvalid: 'Veuillez saisir un numéro de téléphone valide',
  subject: 'Veuillez indiquer le sujet de votre message',
  message: 'Veuillez écrire votre message',
  tooLong: (max: number) => `${max} caractères au maximum`,
  service: 'Veuillez choisir une prestation de la liste',
  success: 'Message envoyé avec succès',
  error: "Erreur lors de l'envoi",
  rateLimited: 'Vous avez envoyé plusieurs messages en peu de temps. Veuillez réessayer dans quelques minutes.',
} as const;

/** The most characters each text field takes: the server's limits, and the inputs' maxLength. */
export const CONTACT_MAX_LENGTH = { name: 120, email: 254, subject: 200, message: 5000 } as const;

/**
 * The fields' HTML constraints, written by hand rather than derived from the zod schema in the
 * browser: screen readers announce the required fields and the text inputs stop at their limit.
 * The browser's own validation stays off (Conform's noValidate): the server's French messages show.
 */
export const CONTACT_CONSTRAINT = {
  name: { required: true, maxLength: CONTACT_MAX_LENGTH.name },
  email: { required: true, maxLength: CONTACT_MAX_LENGTH.email },
  subject: { required: true, maxLength: CONTACT_MAX_LENGTH.subject },
  message: { required: true, maxLength: CONTACT_MAX_LENGTH.message },
} as const;

/** Named in the form and ignored by people (hidden): a robot that fills it is not served. */
export const HONEYPOT_FIELD = 'site_web';

/** Subjects that other pages may preselect with /contact?sujet=… */
export const CONTACT_SUBJECT_PRESETS: Readonly<Record<string, string>> = {
  'essai-gratuit': 'Demande d’essai gratuit',
  'boite-soovenirs': 'La boîte Soovenirs',
  restauration: 'Restauration de photos',
  montage: 'Montage vidéo et album',
  archivage: 'Archivage sécurisé',
  'carte-cadeau': 'Carte cadeau',
  professionnel: 'Demande de devis professionnel',
};

/** The form's starting values from the page's query string (?pro=true, ?sujet=…, ?service=…). */
export function contactDefaults(search: URLSearchParams): { pro: boolean; subject: string; service: string } {
  const pro = search.get('pro') === 'true';
  const subjectKey = search.get('sujet') ?? '';
  const service = search.get('service') ?? '';
  return {
    pro,
    subject: CONTACT_SUBJECT_PRESETS[subjectKey] ?? (pro ? (CONTACT_SUBJECT_PRESETS.professionnel as string) : ''),
    service: (CONTACT_SERVICES as readonly string[]).includes(service) ? service : '',
  };
}
