import { z } from 'zod';
import '../zod-config';
import { addDays, dayKey, parisDay, parisMidnight } from '../calendar';
import { formatDateFr } from '../format';
import { DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS, MIN_RETENTION_DAYS, retentionEnd } from './delivered-files';

/*
 * The retention of the delivered files as the back office sets it (decision 014): the shop's
 * period (« Durée de conservation des fichiers ») and the staff's « Prolonger la conservation » of
 * one order. Pure rules; the database side is server/files/retention*.server.ts.
 */

/** By how much « + 30 jours » pushes an order's expiry. */
export const EXTENSION_DAYS = 30;

export const RETENTION_MESSAGES = {
  daysInvalid: `Indiquez une durée de conservation entre ${MIN_RETENTION_DAYS} et ${MAX_RETENTION_DAYS} jours.`,
  saved: (days: number) => `Les fichiers sont désormais conservés ${days} jours après leur publication.`,
  notPublished: 'Les fichiers de cette commande ne sont pas encore publiés.',
  deleted: 'Les fichiers de cette commande ont déjà été supprimés : leur conservation ne peut plus être prolongée.',
  dateInvalid: 'Indiquez une date valide.',
  beforeToday: 'La nouvelle date ne peut pas être antérieure à aujourd’hui.',
  notLater: (current: Date) => `Choisissez une date postérieure au ${formatDateFr(current)}, la date actuelle.`,
  tooFar: (limit: Date) => `La conservation ne peut pas dépasser le ${formatDateFr(limit)}.`,
  extended: (until: Date) => `Les fichiers sont conservés jusqu’au ${formatDateFr(until)}.`,
} as const;

/** The setting as stored in config_options.files_config and as the form sends it. */
export const filesConfigSchema = z.object({
  retentionDays: z.coerce
    .number({ error: RETENTION_MESSAGES.daysInvalid })
    .int({ error: RETENTION_MESSAGES.daysInvalid })
    .min(MIN_RETENTION_DAYS, { error: RETENTION_MESSAGES.daysInvalid })
    .max(MAX_RETENTION_DAYS, { error: RETENTION_MESSAGES.daysInvalid }),
});

export type FilesConfig = z.output<typeof filesConfigSchema>;

export const DEFAULT_FILES_CONFIG: FilesConfig = { retentionDays: DEFAULT_RETENTION_DAYS };

/** A stored value that no longer fits (edited by hand, older limits) falls back to the default. */
export function filesConfigFrom(stored: unknown): FilesConfig {
  const parsed = filesConfigSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_FILES_CONFIG;
}

/** The last minute of a Paris calendar day (`2027-01-22`): the files are there all that day. */
export function endOfParisDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const calendar = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  // Reject 2027-02-31 and the like: the day must survive a round trip.
  if (dayKey(addDays(calendar, 0)) !== day) return null;
  return new Date(parisMidnight(addDays(calendar, 1)).getTime() - 60_000);
}

/** `YYYY-MM-DD` of the Paris day of an instant (the date field's value). */
export function parisDayKey(instant: Date): string {
  return dayKey(parisDay(instant));
}

export type ExtensionRequest = { kind: 'days'; days: number } | { kind: 'until'; day: string };

/**
 * « Prolonger la conservation » as the form posts it: « Prolonger » with a new date (`until`, a
 * date input's `2026-12-31`), or « + 30 jours » (`mode=days`). The date's other rules (not before
 * today, later than the current expiry, not too far) need the order: extendedExpiry below.
 */
export const extensionFormSchema = z
  .object({ mode: z.enum(['until', 'days']).default('until'), until: z.string().trim().optional() })
  .superRefine((form, ctx) => {
    if (form.mode === 'until' && !endOfParisDay(form.until ?? '')) {
      ctx.addIssue({ code: 'custom', path: ['until'], message: RETENTION_MESSAGES.dateInvalid });
    }
  })
  .transform(
    (form): ExtensionRequest =>
      form.mode === 'days' ? { kind: 'days', days: EXTENSION_DAYS } : { kind: 'until', day: form.until ?? '' },
  );

export type ExtensionFormInput = z.input<typeof extensionFormSchema>;

export interface RetentionState {
  expiresAt: Date | null;
  deletedAt: Date | null;
}

/**
 * The new expiry of an order's files, or the French reason why not: never after the deletion,
 * never earlier than today nor than the current expiry, at most MAX_RETENTION_DAYS from today.
 */
export function extendedExpiry(
  state: RetentionState,
  request: ExtensionRequest,
  now: Date,
): { ok: true; expiresAt: Date } | { ok: false; message: string } {
  if (state.deletedAt) return { ok: false, message: RETENTION_MESSAGES.deleted };
  if (!state.expiresAt) return { ok: false, message: RETENTION_MESSAGES.notPublished };
  const current = state.expiresAt;
  let expiresAt: Date;
  if (request.kind === 'days') {
    // From the current expiry, or from now when it has already passed (the job has not run yet).
    expiresAt = retentionEnd(current.getTime() > now.getTime() ? current : now, request.days);
  } else {
    const end = endOfParisDay(request.day);
    if (!end) return { ok: false, message: RETENTION_MESSAGES.dateInvalid };
    if (request.day < parisDayKey(now)) return { ok: false, message: RETENTION_MESSAGES.beforeToday };
    if (end.getTime() <= current.getTime()) return { ok: false, message: RETENTION_MESSAGES.notLater(current) };
    expiresAt = end;
  }
  const limit = retentionEnd(now, MAX_RETENTION_DAYS);
  if (expiresAt.getTime() > limit.getTime()) return { ok: false, message: RETENTION_MESSAGES.tooFar(limit) };
  return { ok: true, expiresAt };
}
