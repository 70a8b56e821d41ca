import { z } from 'zod';
import { isVatRegime, VAT_REGIMES, type VatRegime } from '~/domain/e-reporting/cadence';
import { recordAudit } from '../audit/audit.server';
import { readConfigOption, writeConfigOption } from '../config/config-options.server';
import { db } from '../db/client.server';

/*
 * The e-reporting setting (config_options.e_reporting, docs/e-reporting.md « The setting »): the
 * shop's VAT regime, which sets the cadence of the transmissions, and the first day to report
 * (1 September 2027 for the shop's size). No regime chosen: nothing is prepared, the page says so;
 * guessing a regime would send the wrong periods.
 */

/** The first day SMEs report (the reform's calendar). */
export const DEFAULT_E_REPORTING_START = '2027-09-01';

export interface EReportingSettings {
  regime: VatRegime | null;
  /** YYYY-MM-DD, in France. */
  startDate: string;
}

const stored = z.object({
  regime: z.enum(VAT_REGIMES).nullable().catch(null),
  startDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .catch(DEFAULT_E_REPORTING_START),
});

export async function readEReportingSettings(): Promise<EReportingSettings> {
  const value = await readConfigOption('e_reporting');
  const parsed = stored.safeParse(value ?? {});
  return parsed.success ? parsed.data : { regime: null, startDate: DEFAULT_E_REPORTING_START };
}

export type SaveSettingsResult = { ok: true } | { ok: false; fieldErrors: { regime?: string; startDate?: string } };

function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Checks and saves the setting, journaled (`settings.ereporting`) with what changed. */
export async function saveEReportingSettings(
  input: { regime: string; startDate: string },
  actor: string,
): Promise<SaveSettingsResult> {
  const fieldErrors: { regime?: string; startDate?: string } = {};
  if (!isVatRegime(input.regime)) fieldErrors.regime = 'Choisissez le régime de TVA de la boutique.';
  if (!isCalendarDay(input.startDate)) fieldErrors.startDate = 'Indiquez une date (jj/mm/aaaa).';
  if (fieldErrors.regime || fieldErrors.startDate) return { ok: false, fieldErrors };
  const before = await readEReportingSettings();
  const after = { regime: input.regime as VatRegime, startDate: input.startDate };
  if (before.regime === after.regime && before.startDate === after.startDate) return { ok: true };
  await db().transaction(async (tx) => {
    await writeConfigOption('e_reporting', after, tx);
    await recordAudit(tx, {
      actor,
      kind: 'settings.ereporting',
      subject: 'e_reporting',
      before: { regime: before.regime, startDate: before.startDate },
      after,
    });
  });
  return { ok: true };
}
