import { z } from 'zod';
import '../zod-config';

/*
 * The shop's invoicing settings (back office, « Facturation »; docs/invoicing.md): whether it opted
 * to pay VAT on debits (« Option pour le paiement de la taxe d'après les débits », then printed on
 * every document), and a business invoice's payment terms: the due date, so many days after issue
 * (at most 60: Code de commerce L441-10), and the late-payment penalty rate as the invoice states it.
 * Each document freezes what they were when it was issued.
 */

export const MAX_PAYMENT_DUE_DAYS = 60;
export const DEFAULT_LATE_PENALTY_RATE = 'trois fois le taux d’intérêt légal';

export const INVOICING_SETTINGS_MESSAGES = {
  dueDays: `Indiquez un délai de paiement entre 0 et ${MAX_PAYMENT_DUE_DAYS}\u00a0jours (article L441-10 du Code de commerce).`,
  rate: 'Indiquez le taux des pénalités de retard (par exemple\u00a0: trois fois le taux d’intérêt légal), 200\u00a0caractères au plus.',
  saved: 'Les réglages de facturation sont enregistrés. Les documents déjà émis ne changent pas.',
} as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** The settings as stored (config_options.invoicing_config) and as the form sends them. */
export const invoicingSettingsSchema = z.object({
  vatOnDebits: z.preprocess((value) => value === true || value === 'on', z.boolean()),
  paymentDueDays: z.coerce
    .number({ error: INVOICING_SETTINGS_MESSAGES.dueDays })
    .int({ error: INVOICING_SETTINGS_MESSAGES.dueDays })
    .min(0, { error: INVOICING_SETTINGS_MESSAGES.dueDays })
    .max(MAX_PAYMENT_DUE_DAYS, { error: INVOICING_SETTINGS_MESSAGES.dueDays }),
  latePenaltyRate: z
    .string({ error: INVOICING_SETTINGS_MESSAGES.rate })
    .transform((value) => value.trim().replace(/\s+/g, ' '))
    .refine((value) => value.length > 0 && value.length <= 200 && !CONTROL_CHARACTER.test(value), {
      error: INVOICING_SETTINGS_MESSAGES.rate,
    }),
});

export type InvoicingSettings = z.output<typeof invoicingSettingsSchema>;

export const DEFAULT_INVOICING_SETTINGS: InvoicingSettings = {
  vatOnDebits: false,
  paymentDueDays: 30,
  latePenaltyRate: DEFAULT_LATE_PENALTY_RATE,
};

/** A stored value that no longer fits (edited by hand) falls back to the defaults. */
export function invoicingSettingsFrom(stored: unknown): InvoicingSettings {
  const parsed = invoicingSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_INVOICING_SETTINGS;
}
