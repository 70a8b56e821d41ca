import {
  type AccountingSettings,
  accountingSettingsOf,
  type ParsedAccountingSettings,
  parseAccountingSettings,
} from '~/domain/accounting/accounts';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { readConfigOption, writeConfigOption } from '../config/config-options.server';
import { db } from '../db/client.server';

/*
 * The accounts and journal codes of the accounting exports (« Comptes comptables »), one setting
 * (config_options.accounting_accounts). Never saved, the Plan comptable général's defaults apply.
 * A change is journaled, kept 10 years: the accounts an export used are part of what it means.
 */

const OPTION = 'accounting_accounts';

export async function readAccountingSettings(): Promise<AccountingSettings> {
  return accountingSettingsOf(await readConfigOption(OPTION));
}

export async function saveAccountingSettings(
  input: Readonly<Record<string, unknown>>,
  actor: AuditActor,
): Promise<ParsedAccountingSettings> {
  const parsed = parseAccountingSettings(input);
  if (!parsed.ok) return parsed;
  await db().transaction(async (tx) => {
    const before = accountingSettingsOf(await readConfigOption(OPTION, tx));
    await writeConfigOption(OPTION, parsed.settings, tx);
    await recordAudit(tx, {
      actor,
      kind: 'settings.accounting',
      subject: OPTION,
      subjectLabel: 'Comptes comptables',
      before: { ...before },
      after: { ...parsed.settings },
    });
  });
  return parsed;
}
