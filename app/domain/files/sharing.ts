import { z } from 'zod';
import '../zod-config';

/*
 * « Partager avec la famille » (decision 028), the pure rules: how long a share lasts, whose
 * memories its page names, when it has ended, and the customer's form. The server module is
 * app/server/files/sharing.server.ts; the choices are in docs/decisions/028-family-sharing.md.
 */

/** A new share lasts a month unless the customer chooses otherwise. */
export const SHARE_DEFAULT_DAYS = 30;
/** Bounds of the duration (days): at least a day, at most a year (and never beyond the files' retention). */
export const SHARE_MIN_DAYS = 1;
export const SHARE_MAX_DAYS = 365;
/** What the form offers (a select works without JavaScript and on a phone). */
export const SHARE_DURATION_CHOICES: ReadonlyArray<{ days: number; label: string }> = [
  { days: 7, label: '1 semaine' },
  { days: 30, label: '1 mois' },
  { days: 90, label: '3 mois' },
  { days: 180, label: '6 mois' },
  { days: 365, label: '1 an' },
];
/** E-mail invitations per share (one e-mail each): a family, not a mailing list. */
export const SHARE_MAX_INVITATIONS = 20;
/** E-mail invitations per order over 24 hours: the shop's mail server is not a relay. */
export const SHARE_MAX_INVITATIONS_PER_DAY = 50;
/** Random bytes of a share's token: 256 bits, far above the 128 bits asked for. */
export const SHARE_TOKEN_BYTES = 32;
export const SHARE_LABEL_MAX = 80;
export const SHARE_MESSAGE_MAX = 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** « Marie D. »: the first name and the last name's initial, nothing more of the customer. */
export function sharerDisplayName(firstName: string | null | undefined, lastName: string | null | undefined): string {
  const first = (firstName ?? '').trim().replace(/\s+/g, ' ');
  const initial = Array.from((lastName ?? '').trim())[0];
  if (first && initial) return `${first} ${initial.toLocaleUpperCase('fr-FR')}.`;
  if (first) return first;
  return 'un proche';
}

/** The page's title: « Les souvenirs de Marie D. » (« d’Anne D. » before a vowel). */
export function shareTitle(sharerName: string): string {
  if (sharerName === 'un proche') return 'Les souvenirs d’un proche';
  return /^[aeiouyàâäéèêëîïôöùûüœh]/i.test(sharerName)
    ? `Les souvenirs d’${sharerName}`
    : `Les souvenirs de ${sharerName}`;
}

/** When a share made `now` for `days` ends: never after the files themselves are deleted. */
export function shareExpiry(now: Date, days: number, filesExpireAt: Date | null): Date {
  const end = new Date(now.getTime() + days * DAY_MS);
  return filesExpireAt && filesExpireAt.getTime() < end.getTime() ? filesExpireAt : end;
}

export type ShareState = 'active' | 'expired' | 'revoked';

/** A share ends when revoked, at its expiry, or when the order's files are deleted (retention). */
export function shareState(
  share: { expiresAt: Date; revokedAt: Date | null },
  order: { filesDeletedAt: Date | null; filesPublishedAt: Date | null },
  now: Date = new Date(),
): ShareState {
  if (share.revokedAt) return 'revoked';
  if (order.filesDeletedAt || !order.filesPublishedAt) return 'expired';
  return share.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

export const SHARE_STATE_LABELS: Record<ShareState, string> = {
  active: 'Actif',
  expired: 'Expiré',
  revoked: 'Révoqué',
};

export const SHARE_MESSAGES = {
  noFiles: 'Cochez au moins un fichier à partager, ou choisissez « Tous mes fichiers ».',
  unknownFile: 'Un des fichiers cochés n’est plus dans votre commande.',
  duration: `Choisissez une durée entre ${SHARE_MIN_DAYS} et ${SHARE_MAX_DAYS} jours.`,
  emailInvalid: (value: string) => `« ${value} » n’est pas une adresse e-mail valide.`,
  tooManyEmails: `Vous pouvez inviter ${SHARE_MAX_INVITATIONS} adresses au plus par partage.`,
  tooManyToday: `Vous avez déjà envoyé beaucoup d’invitations aujourd’hui (${SHARE_MAX_INVITATIONS_PER_DAY} au plus par jour) : copiez plutôt le lien, ou réessayez demain.`,
  labelTooLong: `Le nom du partage est trop long (${SHARE_LABEL_MAX} caractères au plus).`,
  messageTooLong: `Le message est trop long (${SHARE_MESSAGE_MAX} caractères au plus).`,
  notServed: 'Vos fichiers ne peuvent pas être partagés : ils ne sont pas encore prêts, ou ont été supprimés.',
  staffOnly: 'Seul le client peut partager ses fichiers ou arrêter un partage.',
  unknownShare: 'Ce partage n’existe pas.',
} as const;

const emailSchema = z.email().max(254);

/** The invitation box: addresses separated by commas, semicolons, spaces or lines; doubles dropped. */
export function parseInvitationEmails(text: string): { ok: true; emails: string[] } | { ok: false; error: string } {
  const seen = new Set<string>();
  const emails: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    const value = raw.trim().replace(/^<|>$/g, '');
    if (!value) continue;
    if (!emailSchema.safeParse(value).success) return { ok: false, error: SHARE_MESSAGES.emailInvalid(value) };
    const key = value.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    emails.push(value);
  }
  if (emails.length > SHARE_MAX_INVITATIONS) return { ok: false, error: SHARE_MESSAGES.tooManyEmails };
  return { ok: true, emails };
}

export interface ShareFormInput {
  scope: 'all' | 'selection';
  fileIds: string[];
  allowDownloads: boolean;
  days: number;
  emails: string[];
  label: string | null;
  message: string | null;
}

/** The form as posted (every field a string, `fileId` repeated), checked; the first problem's French message. */
export function parseShareForm(form: {
  scope?: unknown;
  fileIds?: unknown[];
  access?: unknown;
  days?: unknown;
  emails?: unknown;
  label?: unknown;
  message?: unknown;
}): { ok: true; value: ShareFormInput } | { ok: false; error: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const scope = form.scope === 'selection' ? 'selection' : 'all';
  const uuid = z.uuid();
  const fileIds = [...new Set((form.fileIds ?? []).filter((id): id is string => typeof id === 'string' && id !== ''))];
  if (scope === 'selection') {
    if (fileIds.length === 0) return { ok: false, error: SHARE_MESSAGES.noFiles };
    if (!fileIds.every((id) => uuid.safeParse(id).success)) return { ok: false, error: SHARE_MESSAGES.unknownFile };
  }
  const daysText = text(form.days) || String(SHARE_DEFAULT_DAYS);
  const days = /^\d{1,4}$/.test(daysText) ? Number(daysText) : Number.NaN;
  if (!Number.isInteger(days) || days < SHARE_MIN_DAYS || days > SHARE_MAX_DAYS) {
    return { ok: false, error: SHARE_MESSAGES.duration };
  }
  const emails = parseInvitationEmails(typeof form.emails === 'string' ? form.emails : '');
  if (!emails.ok) return emails;
  const label = text(form.label);
  if (label.length > SHARE_LABEL_MAX) return { ok: false, error: SHARE_MESSAGES.labelTooLong };
  const message = typeof form.message === 'string' ? form.message.replace(/\r\n?/g, '\n').trim() : '';
  if (message.length > SHARE_MESSAGE_MAX) return { ok: false, error: SHARE_MESSAGES.messageTooLong };
  return {
    ok: true,
    value: {
      scope,
      fileIds: scope === 'selection' ? fileIds : [],
      allowDownloads: form.access === 'download',
      days,
      emails: emails.emails,
      label: label || null,
      message: message || null,
    },
  };
}

/** The share's public address (the token is the only key). */
export function sharePath(token: string): string {
  return `/partage/${encodeURIComponent(token)}`;
}

/** The archive of a share: « Souvenirs de Marie D.zip » (a file name: no final dot before .zip). */
export function shareZipName(sharerName: string): string {
  const title = shareTitle(sharerName).replace(/^Les souvenirs/, 'Souvenirs');
  return `${title.replace(/[.\s]+$/, '')}.zip`;
}

/** The addresses of a shared file (each checks the token and the selection on the server). */
export function shareFilePaths(token: string, fileId: string) {
  const base = `${sharePath(token)}/fichiers/${fileId}`;
  return { original: base, thumbnail: `${base}/miniature.jpg`, preview: `${base}/apercu.jpg` };
}

/** Where a relative orders a USB key or DVD of the shared files (wired by the extra copies' work). */
export function shareCopyPath(token: string): string {
  return `${sharePath(token)}/copie`;
}
