import { BUYER_CORRECTION_FIELD_LABELS } from '../einvoicing/buyer-correction';
import { emailTemplateLabel } from '../email/template-labels';
import { formatEurosFromCents, NBSP, SHOP_TIME_ZONE } from '../format';
import { orderStatusLabel, paymentMethodLabel, paymentStatusLabel, workshopStageLabel } from '../order-status';
import { DEFAULT_PRICE_LIST, type DeliveryMethod } from '../pricing/default-price-list';
import { DELIVERY_LABELS } from '../pricing/labels';
import { GIFT_CARD_STATE_LABELS, GIFT_CARD_STATES, type GiftCardState } from '../vouchers/gift-cards';
import { type AuditFields, type AuditValue, SECRET_CHANGED } from './changes';

/*
 * The « Avant → Après » column of the « Journal » page, in French words: « Statut : En attente →
 * En traitement », « Prix photos papier : 0,35 € → 0,38 € », « Mot de passe SMTP : modifié ».
 * Pure, so that the page and its tests read entries the same way.
 */

export interface AuditChangeLine {
  label: string;
  /** Null when the field had no value before (or for a secret, which is never shown). */
  before: string | null;
  after: string | null;
}

type Format = (value: AuditValue) => string;

const text: Format = (value) => (value === null || value === '' ? '(vide)' : String(value));
const euros: Format = (value) => formatEurosFromCents(value);
const yesNo: Format = (value) => (value ? 'oui' : 'non');
const multiplier: Format = (value) =>
  typeof value === 'number' ? `×${NBSP}${value.toLocaleString('fr-FR', { maximumFractionDigits: 4 })}` : text(value);
const days: Format = (value) => (typeof value === 'number' ? `${value}${NBSP}jours` : text(value));
const day: Format = (value) =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value))
    ? new Intl.DateTimeFormat('fr-FR', { timeZone: SHOP_TIME_ZONE, dateStyle: 'short' }).format(new Date(value))
    : text(value);

function giftCardStateLabel(value: AuditValue): string {
  return (GIFT_CARD_STATES as readonly unknown[]).includes(value)
    ? GIFT_CARD_STATE_LABELS[value as GiftCardState]
    : text(value);
}

/** Fields of order entries and of the other actions (notes, files, exports, e-mails). */
const FIELDS: Readonly<Record<string, { label: string; format: Format }>> = {
  status: { label: 'Statut', format: (v) => orderStatusLabel(String(v)) },
  paymentStatus: { label: 'Paiement', format: (v) => paymentStatusLabel(String(v)) },
  stage: { label: 'Étape', format: (v) => workshopStageLabel(String(v)) },
  paymentMethod: { label: 'Moyen de paiement', format: (v) => paymentMethodLabel(String(v)) },
  amountCents: { label: 'Montant', format: euros },
  refundCents: { label: 'Montant remboursé', format: euros },
  keptCents: { label: 'Montant conservé', format: euros },
  startBeforePayment: { label: 'Commencée avant le paiement', format: yesNo },
  creditNote: { label: 'Avoir', format: text },
  invoice: { label: 'Facture', format: text },
  reason: { label: 'Motif', format: text },
  parcelNumber: { label: 'Numéro de colis', format: text },
  dueAt: { label: 'Date promise', format: day },
  fileCount: { label: 'Fichiers', format: text },
  expiresAt: { label: 'Disponibles jusqu’au', format: day },
  // A gift card (decision 037).
  card: { label: 'Carte cadeau', format: text },
  validUntil: { label: 'Valable jusqu’au', format: day },
  balanceCents: { label: 'Solde', format: euros },
  cardState: { label: 'État de la carte', format: giftCardStateLabel },
  note: { label: 'Note', format: text },
  file: { label: 'Fichier', format: text },
  template: { label: 'E-mail', format: (v) => emailTemplateLabel(typeof v === 'string' ? v : null) },
  messageSubject: { label: 'Sujet', format: text },
  recipient: { label: 'Destinataire', format: text },
  dataset: { label: 'Données', format: text },
  format: { label: 'Format', format: (v) => String(v).toUpperCase() },
  from: { label: 'Du', format: day },
  to: { label: 'Au', format: day },
  rows: { label: 'Lignes', format: text },
  orders: { label: 'Commandes sélectionnées', format: text },
  // Settings (e-mail, payment, files, Coliship).
  enabled: { label: 'E-mails de suivi', format: yesNo },
  senderEmail: { label: 'Adresse d’expédition', format: text },
  senderName: { label: 'Nom de l’expéditeur', format: text },
  smtpHost: { label: 'Serveur SMTP', format: text },
  smtpPort: { label: 'Port SMTP', format: text },
  smtpUsername: { label: 'Identifiant SMTP', format: text },
  smtpPassword: { label: 'Mot de passe SMTP', format: text },
  type: { label: 'Solution de paiement', format: text },
  testMode: { label: 'Mode test', format: yesNo },
  apiKey: { label: 'Clé API Stripe', format: text },
  webhookSecret: { label: 'Secret du webhook Stripe', format: text },
  merchantId: { label: 'Numéro de TPE', format: text },
  companyCode: { label: 'Code société', format: text },
  secretKey: { label: 'Clé Monetico', format: text },
  retentionDays: { label: 'Durée de conservation', format: days },
  username: { label: 'Identifiant Coliship', format: text },
  contractNumber: { label: 'Numéro de contrat', format: text },
  password: { label: 'Mot de passe Coliship', format: text },
  role: { label: 'Rôle', format: text },
  // A customer's details edited from « Clients ».
  firstName: { label: 'Prénom', format: text },
  lastName: { label: 'Nom', format: text },
  phone: { label: 'Téléphone', format: text },
  street: { label: 'Adresse', format: text },
  postalCode: { label: 'Code postal', format: text },
  city: { label: 'Ville', format: text },
  active: { label: 'Compte actif', format: yesNo },
  adminTwoFactorRequired: { label: 'Double authentification obligatoire (administrateurs)', format: yesNo },
  // Security events of a staff account (sign-in, codes, password, admin endpoints).
  method: { label: 'Méthode', format: text },
  detail: { label: 'Détail', format: text },
  action: { label: 'Action', format: text },
  account: { label: 'Compte', format: text },
  // An order's business buyer corrected before « Corriger et réémettre » (decision 047).
  ...Object.fromEntries(
    Object.entries(BUYER_CORRECTION_FIELD_LABELS).map(([field, label]) => [field, { label, format: text }]),
  ),
};

const lower = (value: string) => value.charAt(0).toLowerCase() + value.slice(1);

/** A price list's entry (a dotted path of PriceListDocument) in French, with its formatting. */
export function priceField(path: string): { label: string; format: Format } {
  const [head, key, leaf] = path.split('.');
  const list = DEFAULT_PRICE_LIST;
  if (head === 'supports' && key && leaf === 'basePrice') {
    const title = list.supports[key as keyof typeof list.supports]?.title ?? key;
    return { label: `Prix ${lower(title)}`, format: euros };
  }
  if (head === 'filmReelPricing' && key && leaf === 'price') {
    const reel = list.filmReelPricing[key as keyof typeof list.filmReelPricing]?.description ?? key;
    return { label: `Prix ${lower(reel)}`, format: euros };
  }
  if (head === 'resolutionMultipliers' && key) {
    return { label: `Coefficient ${key.replace('dpi', `${NBSP}dpi`)}`, format: multiplier };
  }
  if ((head === 'formatOptions' || head === 'qualityOptions') && key && leaf === 'multiplier') {
    const options = head === 'formatOptions' ? list.formatOptions : list.qualityOptions;
    const label = (options as Record<string, { label: string }>)[key]?.label ?? key;
    return { label: `Coefficient ${head === 'formatOptions' ? 'format' : 'qualité'} ${label}`, format: multiplier };
  }
  if (head === 'deliveryCosts' && key) {
    return { label: `Livraison ${DELIVERY_LABELS[key as DeliveryMethod] ?? key}`, format: euros };
  }
  const named: Record<string, { label: string; format: Format }> = {
    restorationPrice: { label: 'Restauration (par élément)', format: euros },
    denoisePrice: { label: 'Débruitage (par cassette ou bobine)', format: euros },
    sendingLabelPrice: { label: 'Étiquette d’envoi prépayée', format: euros },
    returnShippingPrice: { label: 'Retour des originaux', format: euros },
    'turnaround.standardDays': { label: 'Délai standard', format: days },
    'turnaround.expressDays': { label: 'Délai express', format: days },
    'turnaround.expressPrice': { label: 'Traitement express', format: euros },
    'insurance.per100EurosPrice': { label: 'Assurance (par tranche de 100 €)', format: euros },
    'insurance.maxValue': { label: 'Valeur assurée maximale', format: euros },
  };
  return named[path] ?? { label: path, format: text };
}

function fieldOf(kind: string, key: string): { label: string; format: Format } {
  if (kind === 'price.change') return priceField(key);
  return FIELDS[key] ?? { label: key, format: text };
}

/** One line per field of the entry, in the order the « after » side lists them. */
export function describeAuditChange(
  kind: string,
  before: AuditFields | null,
  after: AuditFields | null,
): AuditChangeLine[] {
  const keys = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])];
  return keys.map((key) => {
    const { label, format } = fieldOf(kind, key);
    const old = before && key in before ? (before[key] ?? null) : undefined;
    const next = after && key in after ? (after[key] ?? null) : undefined;
    if (next === SECRET_CHANGED && old === undefined) return { label, before: null, after: SECRET_CHANGED };
    return {
      label,
      before: old === undefined ? null : format(old),
      after: next === undefined ? null : format(next),
    };
  });
}

/** What the settings' entries are about, in the words of the « Paramètres » menu. */
const SUBJECT_LABELS: Readonly<Record<string, string>> = {
  email_config: 'Configuration e-mail',
  payment_config: 'Solution de paiement',
  files_config: 'Fichiers livrés',
  coliship_credentials: 'Identifiants Coliship',
  price_list: 'Tarifs',
};

/** The « Objet » column: the label stored with the entry, else the French name of its subject. */
export function auditSubjectLabel(subject: string, subjectLabel: string | null): string {
  return subjectLabel ?? SUBJECT_LABELS[subject] ?? subject;
}

const dateTime = new Intl.DateTimeFormat('fr-FR', {
  timeZone: SHOP_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** `21/11/2026 14:05` (Paris time), the Journal's date column. */
export function formatAuditDate(value: Date | string): string {
  const parts = dateTime.formatToParts(value instanceof Date ? value : new Date(value));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}/${part('month')}/${part('year')} ${part('hour')}:${part('minute')}`;
}
