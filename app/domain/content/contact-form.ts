import { z } from 'zod';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';
// jitless parsing (CSP without 'unsafe-eval') and zod's own messages in French.
import '../zod-config';

/*
 * The contact form (specification 000, sections 3, 4, 5 and 8): one schema for the browser and the
 * server. Name, email, subject and message are required; phone and service are optional.
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

/** Named in the form and ignored by people (hidden): a robot that fills it is not served. */
export const HONEYPOT_FIELD = 'site_web';

const required = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, { error: CONTACT_MESSAGES.tooLong(max) })
    .refine(hasNoForbiddenCharacter, { error: FORBIDDEN_CHARACTER_MESSAGE });

export const contactMessageSchema = z.object({
  name: required(CONTACT_MESSAGES.name, 120),
  email: z
    .string({ error: CONTACT_MESSAGES.email })
    .trim()
    .min(1, { error: CONTACT_MESSAGES.email, abort: true })
    .max(254, { error: CONTACT_MESSAGES.emailInvalid, abort: true })
    .pipe(z.email({ error: CONTACT_MESSAGES.emailInvalid })),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[\d\s.()-]{6,25}$/, { error: CONTACT_MESSAGES.phoneInvalid })
    .optional(),
  subject: required(CONTACT_MESSAGES.subject, 200),
  message: required(CONTACT_MESSAGES.message, 5000),
  service: z.enum(CONTACT_SERVICES, { error: CONTACT_MESSAGES.service }).optional(),
  // A checkbox: "on" when ticked, absent otherwise.
  pro: z
    .union([z.boolean(), z.literal('on')])
    .optional()
    .transform((value) => value === true || value === 'on'),
});

export type ContactMessageInput = z.output<typeof contactMessageSchema>;

/** Subjects that other pages may preselect with /contact?sujet=… */
export const CONTACT_SUBJECT_PRESETS: Readonly<Record<string, string>> = {
  'essai-gratuit': 'Demande d’essai gratuit',
  'boite-soovenirs': 'Boîte Soovenirs',
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
