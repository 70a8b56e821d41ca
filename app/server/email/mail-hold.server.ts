import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, lt, sql } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import {
  type Executor,
  InvalidConfigOptionError,
  readConfigOption,
  writeConfigOption,
} from '../config/config-options.server';
import { db } from '../db/client.server';
import { configOptions, emailOutbox } from '../db/schema';
import { log } from '../log.server';
import { OUTBOX_CHANNEL } from './constants.server';

/*
 * Outgoing e-mail held on a copy of the shop (docs/decisions/041-safe-drills-and-backups.md). A
 * restored copy holds the messages that were in flight when the backup was taken: started as it
 * is, it would send them again to real customers. While the database holds a `mail_hold` option,
 * the outbox worker sends nothing; messages keep being queued, and an operator releases them
 * (back office banner, or `npm run mail:release`), sending them or setting aside those that came
 * with the copy.
 *
 * The hold is written in the database itself, so it travels with the data whatever the database:
 *   - `npm run restore` writes it into the restored cluster (« restored at T from backup B »);
 *   - a copy made by other means (a folder copied, a pg_restore of a dump into another database)
 *     is recognised at start: the database remembers where it last ran (`database_identity`:
 *     PostgreSQL's system identifier, the database's name, and for the embedded cluster DATA_DIR's
 *     real path); a start elsewhere holds the mail.
 */

export const MAIL_HOLD_OPTION = 'mail_hold';

export interface MailHold {
  /** When the hold began: messages queued before it came with the copy. */
  since: string;
  reason: 'restore' | 'copy';
  /** The backup's folder (restore) or what changed (copy), for the operator. */
  source: string;
  /** The restored state's moment (the backup's end, or the point in time asked). */
  restoredTo?: string | null;
}

const mailHoldKeys = ['since', 'reason', 'source'] as const;

function isMailHold(value: unknown): value is MailHold {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return (
    mailHoldKeys.every((key) => typeof record[key] === 'string') &&
    (record.reason === 'restore' || record.reason === 'copy')
  );
}

/** The hold in force, or null when the shop may send. An unreadable value holds too (safe side). */
export async function readMailHold(executor: Executor = db()): Promise<MailHold | null> {
  // A value that is not JSON holds (InvalidConfigOptionError); a database error propagates.
  const value = await readConfigOption(MAIL_HOLD_OPTION, executor).catch((error: unknown) => {
    if (error instanceof InvalidConfigOptionError) return {};
    throw error;
  });
  if (value === null) return null;
  return isMailHold(value)
    ? value
    : { since: new Date(0).toISOString(), reason: 'copy', source: 'unreadable mail_hold setting' };
}

async function holdMail(hold: MailHold, executor: Executor = db()): Promise<void> {
  await writeConfigOption(MAIL_HOLD_OPTION, hold, executor);
}

/** Messages queued and waiting while the mail is held (for the banner and the logs). */
export async function waitingMessages(executor: Executor = db()): Promise<number> {
  const [row] = await executor
    .select({ n: sql<number>`count(*)::int` })
    .from(emailOutbox)
    .where(eq(emailOutbox.status, 'queued'));
  return row?.n ?? 0;
}

const DISCARDED_ON_RELEASE =
  'Écarté à la levée de la retenue\u00a0: ce message attendait déjà dans la copie restaurée (renvoyable depuis les échecs).';

export type ReleaseChoice = 'send' | 'discard-copied';

export interface ReleaseResult {
  /** False when nothing was held (released already, by another operator or instance). */
  released: boolean;
  /** Messages that came with the copy and were set aside as failed (still listed, resendable). */
  discarded: number;
  /** Messages the workers now send. */
  queued: number;
}

/**
 * Lifts the hold. `send`: every waiting message goes. `discard-copied`: the messages queued before
 * the hold began (those that came with the copy) are marked failed with a French reason, so they
 * stay listed and can still be resent one by one; the newer ones go. Wakes every worker.
 */
export async function releaseMail(
  choice: ReleaseChoice,
  actor: AuditActor = 'system',
  executor: Executor = db(),
): Promise<ReleaseResult> {
  return executor.transaction(async (tx) => {
    const [row] = await tx
      .delete(configOptions)
      .where(eq(configOptions.optionName, MAIL_HOLD_OPTION))
      .returning({ value: configOptions.optionValue });
    if (!row) return { released: false, discarded: 0, queued: 0 };
    let discarded = 0;
    if (choice === 'discard-copied') {
      let since: Date;
      try {
        since = new Date((JSON.parse(row.value) as MailHold).since);
      } catch {
        since = new Date();
      }
      if (Number.isNaN(since.getTime())) since = new Date();
      const rows = await tx
        .update(emailOutbox)
        .set({ status: 'failed', lastError: DISCARDED_ON_RELEASE })
        .where(and(eq(emailOutbox.status, 'queued'), lt(emailOutbox.createdAt, since)))
        .returning({ id: emailOutbox.id });
      discarded = rows.length;
    }
    const queued = await waitingMessages(tx);
    // In the Journal with the e-mail settings: who let the copy's e-mail go, and how.
    await recordAudit(tx, {
      actor,
      kind: 'settings.email',
      subject: MAIL_HOLD_OPTION,
      before: { mailHeld: true },
      after: { mailHeld: false, setAside: discarded, released: queued },
    });
    await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
    return { released: true, discarded, queued };
  });
}

// --- a copy made by other means --------------------------------------------------------------

const DATABASE_IDENTITY_OPTION = 'database_identity';

interface DatabaseIdentity {
  system: string;
  database: string;
  dataDir: string | null;
}

async function currentIdentity(executor: Executor, dataDir: string | null): Promise<DatabaseIdentity> {
  const result = await executor.execute<{ system: string; database: string }>(
    sql`select (select system_identifier from pg_control_system())::text as system, current_database() as database`,
  );
  const row = result.rows[0];
  if (!row) throw new Error('pg_control_system() returned no row');
  const real = dataDir ? await fs.realpath(dataDir).catch(() => path.resolve(dataDir)) : null;
  return { system: row.system, database: row.database, dataDir: real };
}

function differences(before: DatabaseIdentity, now: DatabaseIdentity): string[] {
  const changed: string[] = [];
  if (before.system !== now.system) changed.push(`PostgreSQL cluster ${before.system} → ${now.system}`);
  if (before.database !== now.database) changed.push(`database ${before.database} → ${now.database}`);
  if (before.dataDir !== now.dataDir)
    changed.push(`DATA_DIR ${before.dataDir ?? '(external)'} → ${now.dataDir ?? '(external)'}`);
  return changed;
}

async function recogniseCopy(executor: Executor, dataDir: string | null): Promise<void> {
  const now = await currentIdentity(executor, dataDir);
  const recorded = (await readConfigOption(DATABASE_IDENTITY_OPTION, executor).catch(
    () => null,
  )) as DatabaseIdentity | null;
  const changed = recorded ? differences(recorded, now) : [];
  if (changed.length > 0 && (await readMailHold(executor)) === null) {
    await holdMail({ since: new Date().toISOString(), reason: 'copy', source: changed.join(', ') }, executor);
  }
  if (!recorded || changed.length > 0) await writeConfigOption(DATABASE_IDENTITY_OPTION, now, executor);
}

/**
 * At start, before the workers: holds the mail when this database last ran somewhere else (a copy
 * of its folder, a dump restored into another database), then records where it runs now. The
 * first start of a database records it and holds nothing. Returns the hold in force, if any, and
 * logs it: the operator reads at start that nothing will be sent.
 */
export async function checkMailHoldAtStart({
  dataDir,
  executor = db(),
}: {
  /** The embedded cluster's DATA_DIR; null with DATABASE_URL. */
  dataDir: string | null;
  executor?: Executor;
}): Promise<MailHold | null> {
  try {
    await recogniseCopy(executor, dataDir);
  } catch (error) {
    // A managed PostgreSQL may refuse pg_control_system(): the restore's own mark still holds.
    log.warn({ err: error }, 'could not tell whether this database was copied from elsewhere');
  }
  const hold = await readMailHold(executor);
  if (hold) {
    log.warn(
      { reason: hold.reason, since: hold.since, source: hold.source, restoredTo: hold.restoredTo ?? null },
      hold.reason === 'restore'
        ? 'outgoing e-mail held: this database is a restored copy; nothing is sent until an operator releases it (npm run mail:release, or the back office banner)'
        : 'outgoing e-mail held: this database last ran elsewhere (a copy?); nothing is sent until an operator releases it (npm run mail:release, or the back office banner)',
    );
  }
  return hold;
}
