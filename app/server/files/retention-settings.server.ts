import { changedFields } from '~/domain/audit/changes';
import {
  DEFAULT_FILES_CONFIG,
  type FilesConfig,
  filesConfigFrom,
  filesConfigSchema,
  RETENTION_MESSAGES,
} from '~/domain/files/retention';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { type Executor, readConfigOption, writeConfigOption } from '../config/config-options.server';
import { db } from '../db/client.server';

/*
 * « Durée de conservation des fichiers » (decision 014): how many days the delivered files
 * stay online after « Publier la livraison », kept in config_options.files_config. Read when
 * publishing (the expiry is fixed on the order then: changing the setting later does not move the
 * orders already published) and by the privacy policy, which states the period.
 */

export async function readFilesConfig(executor: Executor = db()): Promise<FilesConfig> {
  const stored = await readConfigOption('files_config', executor).catch(() => null);
  return stored === null ? DEFAULT_FILES_CONFIG : filesConfigFrom(stored);
}

export async function retentionDays(executor: Executor = db()): Promise<number> {
  return (await readFilesConfig(executor)).retentionDays;
}

export type SaveFilesConfigResult =
  | { ok: true; config: FilesConfig; message: string }
  | { ok: false; error: string; fieldErrors: Record<string, string[]> };

/** Validates (French messages) and saves the back office's form. */
export async function saveFilesConfig(
  input: Record<string, unknown>,
  actor: AuditActor = 'system',
  executor: Executor = db(),
): Promise<SaveFilesConfigResult> {
  const parsed = filesConfigSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      error: RETENTION_MESSAGES.daysInvalid,
      fieldErrors: { retentionDays: [RETENTION_MESSAGES.daysInvalid] },
    };
  }
  await executor.transaction(async (tx) => {
    const change = changedFields(await readFilesConfig(tx), parsed.data);
    await writeConfigOption('files_config', parsed.data, tx);
    if (change) await recordAudit(tx, { actor, kind: 'settings.files', subject: 'files_config', ...change });
  });
  return { ok: true, config: parsed.data, message: RETENTION_MESSAGES.saved(parsed.data.retentionDays) };
}
