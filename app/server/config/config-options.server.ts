import { eq, sql } from 'drizzle-orm';
import { type Database, db, type Tx } from '../db/client.server';
import { configOptions } from '../db/schema';

/*
 * The back office's settings: one row per option in config_options,
 * the value a JSON string. Secret fields inside a value are encrypted by the module that owns the
 * option (crypto.server.ts), never here: this module only reads and writes JSON.
 */

export type ConfigOptionName =
  | 'email_config'
  | 'payment_config'
  | 'coliship_credentials'
  | 'laposte_tracking'
  | 'files_config'
  | 'staff_security'
  // Outgoing e-mail held on a restored or copied database, and where it last ran (email/mail-hold.server.ts).
  | 'mail_hold'
  | 'database_identity'
  // The DKIM signing key, its private half encrypted (email/dkim.server.ts).
  | 'email_dkim'
  // The accounts and journal codes of the accounting exports (accounting/accounting-settings.server.ts).
  | 'accounting_accounts'
  // The VAT regime that sets the e-reporting cadence, and its first day (e-reporting/settings.server.ts).
  | 'e_reporting'
  // The payment journal's Ed25519 signing key, its private half encrypted (payment-journal/key.server.ts).
  | 'payment_journal_key'
  // The plateforme agréée: its addresses and credentials (secret encrypted), and where the reading
  // of its statuses stopped (einvoicing/pa-config.server.ts, pa-deposits.server.ts).
  | 'pa_config'
  | 'pa_status_cursor'
  // VAT on debits and business payment terms, frozen on each document (invoices/invoicing-settings.server.ts).
  | 'invoicing_config';

export type Executor = Database | Tx;

export class InvalidConfigOptionError extends Error {
  constructor(name: ConfigOptionName) {
    super(`config_options.${name} does not hold valid JSON`);
    this.name = 'InvalidConfigOptionError';
  }
}

/** The option's parsed JSON value, or null when the option was never saved. */
export async function readConfigOption(name: ConfigOptionName, executor: Executor = db()): Promise<unknown | null> {
  const [row] = await executor
    .select({ value: configOptions.optionValue })
    .from(configOptions)
    .where(eq(configOptions.optionName, name))
    .limit(1);
  if (!row) return null;
  try {
    return JSON.parse(row.value) as unknown;
  } catch {
    throw new InvalidConfigOptionError(name);
  }
}

/** Insert or replace the option (an upsert, conflict on option_name). */
export async function writeConfigOption(
  name: ConfigOptionName,
  value: unknown,
  executor: Executor = db(),
): Promise<void> {
  const json = JSON.stringify(value);
  await executor
    .insert(configOptions)
    .values({ optionName: name, optionValue: json })
    .onConflictDoUpdate({
      target: configOptions.optionName,
      set: { optionValue: json, updatedAt: sql`now()` },
    });
}
