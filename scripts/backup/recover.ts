import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import {
  archiveSettings,
  binaries,
  chownTree,
  freePort,
  shellQuote,
  spawnPostgres,
  unprivilegedIds,
} from '../../app/server/db/embedded.server';
import { MAIL_HOLD_OPTION, type MailHold } from '../../app/server/email/mail-hold.server';
import { CommandError } from '../database';
import { type BaseBackupManifest, copyFile, exists, formatSize, type ManifestFile, noRow, readManifest } from './files';

/*
 * A base backup put back into a new DATA_DIR, then brought forward by PostgreSQL's own archive
 * recovery ("Recovering Using a Continuous Archive Backup" in the PostgreSQL documentation):
 *
 *   - the cluster's files, each checked against the manifest's SHA-256 while it is copied;
 *   - the backup's WAL into pg_wal/ (PostgreSQL reads there what the archive does not have), so
 *     that a backup whose archive is lost still restores the state at its end;
 *   - recovery.signal, and the recovery settings as command-line flags of this one start only
 *     (restore_command reading the archive, recovery_target_time, recovery_target_action =
 *     promote): nothing of the restore stays in the cluster's configuration;
 *   - PostgreSQL started on a free port: it replays the WAL, promotes itself (a new timeline) and
 *     accepts connections; we check it is out of recovery, count what it holds, mark the copy's
 *     outgoing e-mail held (the messages in flight at backup time must not reach customers twice:
 *     app/server/email/mail-hold.server.ts), and stop it.
 */

export type RecoveryTarget = 'latest' | { time: string };

export interface RestoreResult {
  orders: number;
  invoices: number;
  lastTransaction: string | null;
  appSecret: boolean;
}

export async function restoreBaseBackup({
  folder,
  target,
  recoveryTarget,
  walArchive,
  say,
}: {
  folder: string;
  target: string;
  recoveryTarget: RecoveryTarget;
  walArchive?: string;
  say: (line: string) => void;
}): Promise<RestoreResult> {
  const read = await readManifest(folder);
  if (read?.kind !== 'base' || read.format !== 1) {
    throw new CommandError(
      `${folder} n’est pas une sauvegarde de « npm run backup » (manifest.json absent ou inconnu).`,
    );
  }
  const manifest: BaseBackupManifest = read;
  const archive = walArchive ?? manifest.walArchive;
  const archiveFound = await exists(archive);
  say(
    `Sauvegarde du ${manifest.consistentAt} (PostgreSQL ${manifest.postgresVersion}), ` +
      (recoveryTarget === 'latest'
        ? 'restauration jusqu’au dernier WAL archivé'
        : `restauration jusqu’à ${recoveryTarget.time}`) +
      '.',
  );
  if (!archiveFound) {
    say(
      `Archive des WAL introuvable (${archive})\u00a0: seul l’état de la fin de la sauvegarde peut être restauré ` +
        '(--wal-archive indique où la trouver).',
    );
  }

  const pgData = path.join(target, 'postgres');
  await fs.mkdir(target, { recursive: true, mode: 0o700 });
  try {
    return await recover();
  } catch (error) {
    // The target was empty or absent: leave it so, a failed restore must not look like a result.
    await fs.rm(target, { recursive: true, force: true });
    throw error;
  }

  async function recover(): Promise<RestoreResult> {
    for (const dir of manifest.dirs) {
      await fs.mkdir(path.join(pgData, dir.slice('data'.length)), { recursive: true, mode: 0o700 });
    }
    const files = manifest.files;
    const total = files.reduce((sum, f) => sum + f.size, 0);
    say(`Vérification et copie de ${files.length} fichiers (${formatSize(total)})…`);
    for (const file of files) await copyVerified(file, folder, { target, pgData });
    await fs.writeFile(path.join(pgData, 'recovery.signal'), '', { mode: 0o600 });

    const ids = unprivilegedIds();
    if (ids) {
      await fs.chmod(target, 0o755);
      await chownTree(pgData, ids);
    }
    const settings = [
      'listen_addresses=127.0.0.1',
      'unix_socket_directories=',
      'max_connections=200',
      ...(await archiveSettings(pgData, ids)),
      // Archive recovery requires a restore_command: without the archive, one that finds nothing.
      `restore_command=${archiveFound ? `cp ${shellQuote(archive).replace(/%/g, '%%')}/%f %p` : 'false'}`,
      ...(recoveryTarget === 'latest' ? [] : [`recovery_target_time=${recoveryTarget.time}`]),
      'recovery_target_action=promote',
    ];
    const { postgres } = await binaries();
    const port = await freePort();
    say('Rejeu des WAL par PostgreSQL…');
    let child: ChildProcess;
    try {
      child = await spawnPostgres(postgres, pgData, port, settings, ids);
    } catch (error) {
      throw explain((error as Error).message, recoveryTarget, manifest.consistentAt);
    }
    try {
      return await inspect(port);
    } finally {
      await stop(child);
    }
  }

  async function inspect(port: number): Promise<RestoreResult> {
    const credentialsFile = path.join(target, 'postgres.json');
    if (!(await exists(credentialsFile))) {
      throw new CommandError(
        'La sauvegarde ne contient pas postgres.json (identifiants de la base)\u00a0: restauration impossible.',
      );
    }
    const { user, password } = JSON.parse(await fs.readFile(credentialsFile, 'utf8')) as {
      user: string;
      password: string;
    };
    const url = (db: string) => `postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;
    const client = new pg.Client({ connectionString: url('soovenirs') });
    await client.connect();
    try {
      // PostgreSQL accepts read-write connections once promoted; say so only when it really is.
      const deadline = Date.now() + 60_000;
      while ((await client.query<{ r: boolean }>('select pg_is_in_recovery() as r')).rows[0]?.r) {
        if (Date.now() > deadline) throw new CommandError('PostgreSQL est resté en restauration plus d’une minute.');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const row =
        (
          await client.query<{ orders: number; invoices: number; last: Date | null }>(
            `select (select count(*) from orders)::int as orders, (select count(*) from invoices)::int as invoices,
             pg_last_xact_replay_timestamp() as last`,
          )
        ).rows[0] ?? noRow();
      // Written in the database, not beside it: the hold travels with the data wherever it is started.
      const hold: MailHold = {
        since: new Date().toISOString(),
        reason: 'restore',
        source: folder,
        restoredTo: row.last ? row.last.toISOString() : manifest.consistentAt,
      };
      await client.query(
        `insert into config_options (option_name, option_value) values ($1, $2)
         on conflict (option_name) do update set option_value = excluded.option_value, updated_at = now()`,
        [MAIL_HOLD_OPTION, JSON.stringify(hold)],
      );
      return {
        orders: row.orders,
        invoices: row.invoices,
        lastTransaction: row.last ? row.last.toISOString() : null,
        appSecret: await exists(path.join(target, 'app-secret')),
      };
    } finally {
      await client.end();
    }
  }
}

/** Where a backed-up file goes: data/ into the cluster, wal/ into its pg_wal, the rest beside it. */
function destinationOf(file: ManifestFile, { target, pgData }: { target: string; pgData: string }): string {
  if (file.path.startsWith('data/')) return path.join(pgData, file.path.slice('data/'.length));
  if (file.path.startsWith('wal/')) return path.join(pgData, 'pg_wal', file.path.slice('wal/'.length));
  return path.join(target, file.path);
}

/** Copies one file of the backup, checked against the manifest: a file missing or altered stops the restore. */
async function copyVerified(
  file: ManifestFile,
  folder: string,
  places: { target: string; pgData: string },
): Promise<void> {
  const copied = await copyFile(path.join(folder, file.path), destinationOf(file, places), 0o600);
  if (!copied || copied.sha256 !== file.sha256 || copied.size !== file.size) {
    throw new CommandError(
      `Sauvegarde altérée\u00a0: ${file.path} ${copied ? 'ne correspond plus à son empreinte SHA-256' : 'est absent'}. ` +
        'Restaurez une autre sauvegarde.',
    );
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT'); // "fast" shutdown: a clean checkpoint, the next start needs no recovery
  await exited;
}

/** PostgreSQL's reasons for refusing a recovery target, in the operator's words. */
function explain(output: string, recoveryTarget: RecoveryTarget, consistentAt: string): Error {
  const time = recoveryTarget === 'latest' ? '' : recoveryTarget.time;
  if (output.includes('recovery ended before configured recovery target was reached')) {
    return new CommandError(
      `Aucune transaction après l’instant demandé (${time}) dans les WAL archivés\u00a0: il est après le dernier état archivé. ` +
        'Restaurez sans --time pour obtenir le dernier état archivé.',
    );
  }
  if (output.includes('before consistent recovery point')) {
    return new CommandError(
      `L’instant demandé (${time}) est avant la fin de cette sauvegarde (${consistentAt})\u00a0: choisissez une sauvegarde plus ancienne.`,
    );
  }
  const lines = output.trim().split('\n').slice(-8).join('\n');
  return new CommandError(`PostgreSQL n’a pas pu terminer la restauration\u00a0:\n${lines}`);
}
