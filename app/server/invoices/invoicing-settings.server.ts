import { changedFields } from '~/domain/audit/changes';
import {
  DEFAULT_INVOICING_SETTINGS,
  INVOICING_SETTINGS_MESSAGES,
  type InvoicingSettings,
  invoicingSettingsFrom,
  invoicingSettingsSchema,
} from '~/domain/invoices/invoicing-settings';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { type Executor, readConfigOption, writeConfigOption } from '../config/config-options.server';
import { db } from '../db/client.server';

/*
 * « Facturation » (docs/invoicing.md): VAT on debits and a business invoice's payment terms, kept in
 * config_options.invoicing_config. Read when a document is issued, which freezes them in its
 * snapshot: changing a setting later never changes a document already issued.
 */

const OPTION = 'invoicing_config';

export async function readInvoicingSettings(executor: Executor = db()): Promise<InvoicingSettings> {
  const stored = await readConfigOption(OPTION, executor).catch(() => null);
  return stored === null ? DEFAULT_INVOICING_SETTINGS : invoicingSettingsFrom(stored);
}

export type SaveInvoicingSettingsResult =
  | { ok: true; settings: InvoicingSettings; message: string }
  | { ok: false; error: string };

/** Validates (French messages) and saves the back office's form, with its line in the audit journal. */
export async function saveInvoicingSettings(
  input: Record<string, unknown>,
  actor: AuditActor = 'system',
  executor: Executor = db(),
): Promise<SaveInvoicingSettingsResult> {
  const parsed = invoicingSettingsSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? INVOICING_SETTINGS_MESSAGES.rate };
  await executor.transaction(async (tx) => {
    const change = changedFields(await readInvoicingSettings(tx), parsed.data);
    await writeConfigOption(OPTION, parsed.data, tx);
    if (change) await recordAudit(tx, { actor, kind: 'settings.invoicing', subject: OPTION, ...change });
  });
  return { ok: true, settings: parsed.data, message: INVOICING_SETTINGS_MESSAGES.saved };
}
