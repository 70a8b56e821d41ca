import { z } from 'zod';
import '../zod-config';
import { addDays, type CalendarDay, parisMidnight } from '../calendar';
import { parseEurosToCents } from '../orders/refund-form';
import { SUPPORT_TYPES } from '../pricing/default-price-list';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';
import { normalisePromotionCode, PROMOTION_KINDS, type PromotionTerms } from './promotions';

/*
 * The back office's form for a new promotion code (decision 038), apart from the rules a customer's
 * page runs (promotions.ts): the configurator's bundle carries the rules, never this schema.
 */

export const PROMOTION_FORM_MESSAGES = {
  code: 'Indiquez un code de 3 à 32 lettres ou chiffres (tirets permis), par exemple NOEL20.',
  codeTaken: 'Ce code existe déjà.',
  label: 'Indiquez un libellé de 120 caractères au plus.',
  kind: 'Choisissez une remise en pourcentage ou en montant.',
  percent: 'Indiquez un pourcentage entier entre 1 et 100.',
  amount: 'Indiquez un montant en euros, par exemple 10 ou 12,50.',
  supports: 'Choisissez des supports de la liste.',
  minimum: 'Indiquez un montant minimum en euros, ou laissez vide.',
  startsOn: 'Indiquez la date de début (jj/mm/aaaa).',
  endsOn: 'Indiquez une date de fin (jj/mm/aaaa) postérieure au début, ou laissez vide.',
  limit: 'Indiquez un nombre entier entre 1 et 1 000 000, ou laissez vide.',
} as const;

/** « 01/12/2026 » or « 2026-12-01 » (a date input) → that Paris day. */
export function parseDay(value: string): CalendarDay | null {
  const fr = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const [y, m, d] = fr ? [fr[3], fr[2], fr[1]] : iso ? [iso[1], iso[2], iso[3]] : [];
  if (!y || !m || !d) return null;
  const check = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(m) - 1) return null;
  return { year: Number(y), month: Number(m), day: Number(d) };
}

const optionalText = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

const limit = z.preprocess(
  optionalText,
  z.coerce
    .number({ error: PROMOTION_FORM_MESSAGES.limit })
    .int(PROMOTION_FORM_MESSAGES.limit)
    .min(1, PROMOTION_FORM_MESSAGES.limit)
    .max(1_000_000, PROMOTION_FORM_MESSAGES.limit)
    .optional(),
);

const euros = (message: string) =>
  z.preprocess(
    optionalText,
    z
      .string({ error: message })
      .transform((value, ctx) => {
        const cents = parseEurosToCents(value);
        if (cents === null) {
          ctx.addIssue({ code: 'custom', message });
          return z.NEVER;
        }
        return cents;
      })
      .optional(),
  );

const day = (message: string) =>
  z.preprocess(
    optionalText,
    z
      .string({ error: message })
      .transform((value, ctx) => {
        const parsed = parseDay(value);
        if (!parsed) {
          ctx.addIssue({ code: 'custom', message });
          return z.NEVER;
        }
        return parsed;
      })
      .optional(),
  );

const checkbox = z.preprocess((value) => value === 'on' || value === 'true' || value === true, z.boolean());

/** The terms a new code is created with, as the back office's form posts them. */
export const promotionFormSchema = z
  .object({
    code: z
      .string({ error: PROMOTION_FORM_MESSAGES.code })
      .transform(normalisePromotionCode)
      .pipe(z.string().regex(/^[A-Z0-9][A-Z0-9-]{2,31}$/, PROMOTION_FORM_MESSAGES.code)),
    label: z
      .string({ error: PROMOTION_FORM_MESSAGES.label })
      .trim()
      .min(1, PROMOTION_FORM_MESSAGES.label)
      .max(120, PROMOTION_FORM_MESSAGES.label)
      .refine(hasNoForbiddenCharacter, FORBIDDEN_CHARACTER_MESSAGE),
    kind: z.enum(PROMOTION_KINDS, { error: PROMOTION_FORM_MESSAGES.kind }),
    percent: z.preprocess(
      optionalText,
      z.coerce
        .number({ error: PROMOTION_FORM_MESSAGES.percent })
        .int(PROMOTION_FORM_MESSAGES.percent)
        .min(1, PROMOTION_FORM_MESSAGES.percent)
        .max(100, PROMOTION_FORM_MESSAGES.percent)
        .optional(),
    ),
    amount: euros(PROMOTION_FORM_MESSAGES.amount),
    supports: z.preprocess(
      (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
      z.array(z.enum(SUPPORT_TYPES, { error: PROMOTION_FORM_MESSAGES.supports })),
    ),
    minimum: euros(PROMOTION_FORM_MESSAGES.minimum),
    startsOn: day(PROMOTION_FORM_MESSAGES.startsOn).refine((value) => value !== undefined, {
      message: PROMOTION_FORM_MESSAGES.startsOn,
    }),
    endsOn: day(PROMOTION_FORM_MESSAGES.endsOn),
    maxUses: limit,
    maxUsesPerCustomer: limit,
    firstOrderOnly: checkbox,
    combinable: checkbox,
  })
  .superRefine((form, ctx) => {
    if (form.kind === 'percent' && form.percent === undefined) {
      ctx.addIssue({ code: 'custom', path: ['percent'], message: PROMOTION_FORM_MESSAGES.percent });
    }
    if (form.kind === 'amount' && (form.amount === undefined || form.amount <= 0)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: PROMOTION_FORM_MESSAGES.amount });
    }
    if (form.endsOn && form.startsOn && dayNumber(form.endsOn) < dayNumber(form.startsOn)) {
      ctx.addIssue({ code: 'custom', path: ['endsOn'], message: PROMOTION_FORM_MESSAGES.endsOn });
    }
  })
  .transform((form): Omit<PromotionTerms, 'startsAt'> & { startsAt: Date } => ({
    code: form.code,
    label: form.label,
    kind: form.kind,
    percent: form.kind === 'percent' ? (form.percent ?? null) : null,
    amountCents: form.kind === 'amount' ? (form.amount ?? null) : null,
    supports: [...new Set(form.supports)],
    minimumOrderCents: form.minimum ?? 0,
    // From midnight of the first day to the midnight after the last (Paris time).
    startsAt: parisMidnight(form.startsOn as CalendarDay),
    endsAt: form.endsOn ? parisMidnight(addDays(form.endsOn, 1)) : null,
    maxUses: form.maxUses ?? null,
    maxUsesPerCustomer: form.maxUsesPerCustomer ?? null,
    firstOrderOnly: form.firstOrderOnly,
    combinable: form.combinable,
  }));

export type PromotionFormInput = z.input<typeof promotionFormSchema>;

function dayNumber(day: CalendarDay): number {
  return Date.UTC(day.year, day.month - 1, day.day);
}
