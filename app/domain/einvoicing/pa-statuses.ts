/*
 * The lifecycle statuses of an invoice on the plateforme agréée (PA), as the e-invoicing reform
 * lists them (the CDAR messages of the French specifications, carried by the AFNOR XP Z12-013
 * interface): their codes, their French names, and what each means for the shop. Pure: no I/O.
 */

export const PA_STATUS_LABELS = {
  200: 'Déposée',
  201: 'Émise par la plateforme',
  202: 'Reçue',
  203: 'Mise à disposition',
  204: 'Prise en charge',
  205: 'Approuvée',
  206: 'Approuvée partiellement',
  207: 'En litige',
  208: 'Suspendue',
  209: 'Complétée',
  210: 'Refusée',
  211: 'Paiement transmis',
  212: 'Encaissée',
  213: 'Rejetée',
} as const;

export type PaStatusCode = keyof typeof PA_STATUS_LABELS;

export const PA_STATUS_CODES = Object.keys(PA_STATUS_LABELS).map(Number) as PaStatusCode[];

export function isPaStatusCode(value: unknown): value is PaStatusCode {
  return typeof value === 'number' && Object.hasOwn(PA_STATUS_LABELS, value);
}

/** « Rejetée » (213): the PA or the buyer's platform refused the file; the invoice is deemed not issued. */
export const PA_REJECTED = 213;
/** « Refusée » (210): the buyer refuses the invoice itself; the seller cancels it with a credit note. */
export const PA_REFUSED = 210;
/** « Encaissée » (212): the seller received the payment (sent by the shop for services). */
export const PA_COLLECTED = 212;
/** « Reçue » (202): the buyer's platform has it; from here no « Rejetée » can follow. */
export const PA_RECEIVED = 202;

/** The French name of a status code; an unknown code is named by its number. */
export function paStatusLabel(code: number): string {
  return isPaStatusCode(code) ? PA_STATUS_LABELS[code] : `Statut ${code}`;
}

/** What the shop does when a status arrives for one of its documents. */
export type PaStatusEffect = 'record' | 'rejected' | 'refused';

export function paStatusEffect(code: number): PaStatusEffect {
  if (code === PA_REJECTED) return 'rejected';
  if (code === PA_REFUSED) return 'refused';
  return 'record';
}

/**
 * Whether an invoice with this latest status has been accepted by the platforms: received by the
 * buyer's (202) or any later step short of a refusal. A rejection can only come before that.
 */
export function isAcceptedStatus(code: number | null | undefined): boolean {
  if (code === null || code === undefined) return false;
  return code >= PA_RECEIVED && code !== PA_REJECTED && code !== PA_REFUSED;
}

/**
 * The retry delay after `attempts` failed deposits: 30 s doubling, at most 6 h, so that a PA down
 * for a day gets a few tries an hour and never a storm.
 */
export function depositBackoffMs(attempts: number, baseMs = 30_000, maxMs = 6 * 3600_000): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 30));
  return Math.min(maxMs, baseMs * 2 ** exponent);
}

/** After this many failed attempts a deposit is `failed`: shown to the staff, retried by hand. */
export const MAX_DEPOSIT_ATTEMPTS = 12;
