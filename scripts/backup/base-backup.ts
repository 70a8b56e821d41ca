import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { walArchiveDir } from '../../app/server/db/embedded.server';
import { CommandError } from '../database';
import {
  type BaseBackupManifest,
  copyFile,
  exists,
  formatSize,
  MANIFEST,
  type ManifestFile,
  noRow,
  stamp,
} from './files';
import { segmentsBetween } from './wal';

/*
 * An online base backup of the embedded PostgreSQL with nothing but Node and a connection, following
 * "Making a Base Backup Using the Low Level API" of the PostgreSQL documentation:
 *
 *   1. pg_backup_start(label, fast => true) on one connection, kept open until the end (closing it
 *      aborts the backup);
 *   2. copy the data directory, skipping what PostgreSQL rebuilds or must not find (below); the
 *      files change under the copy, which is fine: the WAL replayed at restore time repairs them;
 *   3. pg_backup_stop(wait_for_archive => true): PostgreSQL switches to a new WAL segment and waits
 *      until every segment from the start to the stop LSN is in the archive; it returns the
 *      backup_label (and tablespace_map) to put into the copy;
 *   4. copy those segments from the archive into the backup, so that the backup alone restores the
 *      state at its end, with no need for the archive.
 *
 * The backup is written into `<name>.partial` and renamed once complete: a folder without that
 * suffix and with a manifest.json is a whole backup.
 */

/** Directories whose content is not copied (the directory itself is). */
const CONTENT_SKIPPED = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);
/** Files never copied: the running server's, or ones that would confuse the restored cluster. */
const FILES_SKIPPED = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  'backup_manifest',
  'current_logfiles',
  'recovery.signal',
  'standby.signal',
  'pg_internal.init',
]);

function skipped(name: string): boolean {
  return FILES_SKIPPED.has(name) || name.startsWith('pgsql_tmp');
}

export interface BaseBackupResult {
  folder: string;
  manifest: BaseBackupManifest;
  bytes: number;
}

/** What the copy holds so far, for the manifest. */
interface Copied {
  files: ManifestFile[];
  dirs: string[];
  bytes: number;
}

/**
 * Copies the cluster's directory `relative` (of `pgData`) into `partial`/data, recursively: a file
 * that vanished meanwhile is left out, the content of CONTENT_SKIPPED is not copied, a symbolic
 * link (a tablespace, pg_wal elsewhere) stops the backup.
 */
async function copyTree(pgData: string, partial: string, relative: string, copied: Copied): Promise<void> {
  const from = path.join(pgData, relative);
  copied.dirs.push(path.posix.join('data', relative.split(path.sep).join('/')));
  await fs.mkdir(path.join(partial, 'data', relative), { recursive: true, mode: 0o700 });
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(from, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // dropped meanwhile
    throw error;
  }
  for (const entry of entries) {
    const child = path.join(relative, entry.name);
    if (entry.isSymbolicLink()) {
      throw new CommandError(
        `${child} est un lien symbolique (tablespace ou pg_wal déplacé)\u00a0: cette sauvegarde ne les prend pas en charge.`,
      );
    }
    if (entry.isDirectory()) await copyDirectory(pgData, partial, relative, entry.name, copied);
    else if (entry.isFile() && !skipped(entry.name)) {
      const file = await copyFile(path.join(pgData, child), path.join(partial, 'data', child), 0o600);
      if (!file) continue;
      copied.files.push({ path: `data/${child.split(path.sep).join('/')}`, ...file });
      copied.bytes += file.size;
    }
  }
}

/** A sub-directory of `relative`: copied, or only made (CONTENT_SKIPPED at the top), or left out (temporary files). */
async function copyDirectory(pgData: string, partial: string, relative: string, name: string, copied: Copied) {
  if (name.startsWith('pgsql_tmp')) return;
  if (relative === '' && CONTENT_SKIPPED.has(name)) {
    copied.dirs.push(`data/${name}`);
    await fs.mkdir(path.join(partial, 'data', name), { mode: 0o700 });
    return;
  }
  await copyTree(pgData, partial, path.join(relative, name), copied);
}

/**
 * One WAL segment (or history file) the copy needs, from the archive, else from pg_wal (PostgreSQL
 * may still hold there the segment it has just archived); missing from both, the backup stops.
 */
async function copyWalSegment(
  segment: string,
  { archive, pgData, partial }: { archive: string; pgData: string; partial: string },
  copied: Copied,
): Promise<void> {
  let file = null;
  for (const source of [archive, path.join(pgData, 'pg_wal')]) {
    const from = path.join(source, segment);
    if (!file && (await exists(from))) file = await copyFile(from, path.join(partial, 'wal', segment), 0o600);
  }
  if (!file) {
    throw new CommandError(
      `Le segment WAL ${segment} est introuvable dans ${archive}\u00a0: la sauvegarde ne serait pas cohérente.`,
    );
  }
  copied.files.push({ path: `wal/${segment}`, ...file });
  copied.bytes += file.size;
}

export async function baseBackup({
  url,
  dataDir,
  backupDir,
  say,
}: {
  url: string;
  dataDir: string;
  backupDir: string;
  say: (line: string) => void;
}): Promise<BaseBackupResult> {
  const pgData = path.join(dataDir, 'postgres');
  const archive = walArchiveDir(pgData);
  const client = new pg.Client({ connectionString: url, application_name: 'soovenirs-backup' });
  await client.connect();
  // pg_backup_stop says here when archiving lags (NOTICE: still waiting for all required WAL…).
  client.on('notice', (notice) => say(`PostgreSQL\u00a0: ${notice.message}`));
  try {
    const settings =
      (
        await client.query<{ data_directory: string; archive_mode: string; version: string; segment_size: string }>(
          `select current_setting('data_directory') as data_directory, current_setting('archive_mode') as archive_mode,
           current_setting('server_version') as version,
           (select setting from pg_settings where name = 'wal_segment_size') as segment_size`,
        )
      ).rows[0] ?? noRow();
    if ((await fs.realpath(settings.data_directory).catch(() => '')) !== (await fs.realpath(pgData))) {
      throw new CommandError(
        `La base jointe n’est pas celle de DATA_DIR (${pgData}) mais ${settings.data_directory}\u00a0: vérifiez DATA_DIR.`,
      );
    }
    if (settings.archive_mode !== 'on') {
      throw new CommandError(
        'L’archivage continu des WAL n’est pas actif sur cette base (serveur démarré avant sa mise en place)\u00a0: ' +
          'redémarrez la boutique une fois (npm start), puis relancez la sauvegarde.',
      );
    }
    const { system_identifier } =
      (await client.query<{ system_identifier: string }>('select system_identifier::text from pg_control_system()'))
        .rows[0] ?? noRow();

    const started = new Date();
    const name = stamp(started);
    const partial = path.join(backupDir, `${name}.partial`);
    const folder = path.join(backupDir, name);
    await fs.mkdir(partial, { recursive: true, mode: 0o700 });
    try {
      return await copyCluster();
    } catch (error) {
      // A backup that failed half-way is no backup: leave nothing that could be mistaken for one.
      await fs.rm(partial, { recursive: true, force: true });
      throw error;
    }

    async function copyCluster(): Promise<BaseBackupResult> {
      const start =
        (
          await client.query<{ lsn: string; timeline: number }>(
            `select lsn::text, (select timeline_id from pg_control_checkpoint()) as timeline
           from pg_backup_start($1, true) as lsn`,
            [`soovenirs ${name}`],
          )
        ).rows[0] ?? noRow();
      say(`Sauvegarde commencée (LSN ${start.lsn}), copie des fichiers de la base…`);

      const copied: Copied = { files: [], dirs: [], bytes: 0 };
      const { files, dirs } = copied;
      await copyTree(pgData, partial, '', copied);
      say(`${files.length} fichiers copiés (${formatSize(copied.bytes)})\u00a0; attente de l’archivage des WAL…`);

      const stop =
        (
          await client.query<{ lsn: string; labelfile: string; spcmapfile: string | null }>(
            'select lsn::text, labelfile, spcmapfile from pg_backup_stop(true)',
          )
        ).rows[0] ?? noRow();
      const consistentAt = new Date();
      const walNames =
        (
          await client.query<{ first: string; last: string }>(
            'select pg_walfile_name($1::pg_lsn) as first, pg_walfile_name($2::pg_lsn) as last',
            [start.lsn, stop.lsn],
          )
        ).rows[0] ?? noRow();

      const write = async (relative: string, text: string) => {
        const file = path.join(partial, relative);
        const content = Buffer.from(text);
        await fs.writeFile(file, content, { mode: 0o600, flag: 'wx', flush: true });
        files.push({
          path: relative,
          size: content.length,
          sha256: createHash('sha256').update(content).digest('hex'),
        });
      };
      await write('data/backup_label', stop.labelfile);
      if (stop.spcmapfile) await write('data/tablespace_map', stop.spcmapfile);

      // The WAL that makes the copy consistent, from the archive (or pg_wal, for the segment PostgreSQL
      // may still hold there when the archive was just written).
      await fs.mkdir(path.join(partial, 'wal'), { mode: 0o700 });
      const segments = segmentsBetween(walNames.first, walNames.last, Number(settings.segment_size));
      const history = start.timeline > 1 ? [`${String(start.timeline).padStart(8, '0')}.history`] : [];
      for (const segment of [...history, ...segments]) {
        await copyWalSegment(segment, { archive, pgData, partial }, copied);
      }

      // What a restore needs besides the database: the secret that decrypts the stored secrets, and
      // the superuser's credentials of the cluster (its password is inside the copied database).
      for (const extra of ['app-secret', 'postgres.json']) {
        const file = await copyFile(path.join(dataDir, extra), path.join(partial, extra), 0o600);
        if (file) files.push({ path: extra, ...file });
      }

      const manifest: BaseBackupManifest = {
        format: 1,
        kind: 'base',
        startedAt: started.toISOString(),
        consistentAt: consistentAt.toISOString(),
        postgresVersion: settings.version,
        systemIdentifier: system_identifier,
        timeline: start.timeline,
        startLsn: start.lsn,
        stopLsn: stop.lsn,
        startWal: walNames.first,
        stopWal: walNames.last,
        walArchive: archive,
        dirs,
        files,
      };
      await fs.writeFile(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
      await fs.rename(partial, folder);
      return { folder, manifest, bytes: copied.bytes };
    }
  } finally {
    await client.end();
  }
}
