import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { walArchiveDir } from '../app/server/db/embedded.server';
import { baseBackup } from './backup/base-backup';
import { dumpBackup } from './backup/dump';
import { formatSize, listBackups } from './backup/files';
import { resolveBackupDir } from './backup/location';
import { pruneArchive } from './backup/wal';
import { CommandError, readArguments, reportFailure, withDatabase } from './database';

/*
 * npm run backup [-- --keep N]
 * An online backup of the shop, server running or not (docs/operations.md, « Sauvegarder et
 * restaurer »): with the embedded PostgreSQL, a base backup through PostgreSQL's low-level API plus
 * the WAL that makes it consistent (scripts/backup/base-backup.ts); with DATABASE_URL, a pg_dump
 * (scripts/backup/dump.ts). Written into BACKUP_DIR, never inside the project unless git ignores
 * it (scripts/backup/location.ts: by default beside DATA_DIR or beside the project), one dated
 * folder per backup. --keep N then deletes all but the N most recent backups, and the
 * archived WAL that none of the remaining base backups needs.
 */

const usage = `Usage\u00a0: npm run backup [-- --keep N]

Sauvegarde la boutique sans l’arrêter, dans BACKUP_DIR, un dossier daté par sauvegarde. Par défaut,
hors du projet\u00a0: le dossier « backups » à côté de DATA_DIR quand DATA_DIR est hors du projet,
sinon le dossier « <nom du projet>-backups » à côté du projet. Un BACKUP_DIR dans le projet est
refusé, sauf s’il est ignoré par git.
  - Base embarquée (DATA_DIR)\u00a0: copie de la base pendant qu’elle tourne, plus les WAL qui la
    rendent cohérente, app-secret et les identifiants de la base.
  - DATABASE_URL\u00a0: pg_dump --format=custom (un pg_dump de la version du serveur ou plus récent).
  --keep N   garde les N sauvegardes les plus récentes, supprime les autres et les WAL archivés
             dont aucune sauvegarde gardée n’a besoin.`;

function parse() {
  return parseArgs({
    options: { keep: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: false,
  });
}

async function main(): Promise<void> {
  const parsed = readArguments(parse, usage);
  if (!parsed) return;
  const { values } = parsed;
  const keep = values.keep === undefined ? null : Number(values.keep);
  if (keep !== null && !(Number.isInteger(keep) && keep >= 1)) {
    throw new CommandError(
      `--keep attend un nombre entier de sauvegardes à garder, 1 au moins (reçu\u00a0: ${values.keep}).`,
    );
  }

  // DATA_DIR and DATABASE_URL as the server reads them (an empty variable counts as unset).
  const dataDir = path.resolve(process.env.DATA_DIR || './data');
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const backupDir = resolveBackupDir({
    projectRoot: path.resolve(import.meta.dirname, '..'),
    dataDir,
    configured: process.env.BACKUP_DIR,
  });
  await fs.mkdir(backupDir, { recursive: true, mode: 0o700 });
  const say = (line: string) => console.log(line);
  const began = Date.now();

  if (databaseUrl) {
    const { folder } = await dumpBackup({ url: databaseUrl, dataDir, backupDir, say });
    say(`Sauvegarde terminée en ${seconds(began)}\u00a0: ${folder}`);
    if (!(await hasSecret(folder))) {
      say(
        'APP_SECRET vient de l’environnement\u00a0: gardez-en une copie à part, sans elle les secrets enregistrés (paiement, SMTP, transporteur) sont illisibles.',
      );
    }
  } else {
    // A base backup needs the cluster's superuser, not the role the shop runs as.
    const { folder, manifest, bytes } = await withDatabase((database) =>
      baseBackup({ url: database.ownerUrl, dataDir, backupDir, say }),
    );
    say(
      `Sauvegarde terminée en ${seconds(began)}\u00a0: ${folder} (${formatSize(bytes)}, ` +
        `${manifest.files.length} fichiers, PostgreSQL ${manifest.postgresVersion}, ` +
        `WAL ${manifest.startWal} à ${manifest.stopWal}).`,
    );
    say(`Archive continue des WAL\u00a0: ${manifest.walArchive}`);
    if (!(await hasSecret(folder))) {
      say('Pas de DATA_DIR/app-secret\u00a0: APP_SECRET vient de l’environnement, gardez-en une copie à part.');
    }
  }

  if (keep !== null) await prune(backupDir, keep, walArchiveDir(path.join(dataDir, 'postgres')), say);
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1).replace('.', ',')}\u00a0s`;
}

async function hasSecret(folder: string): Promise<boolean> {
  return fs.access(path.join(folder, 'app-secret')).then(
    () => true,
    () => false,
  );
}

/** Keeps the `keep` most recent backups, and the archived WAL from the oldest kept base backup on. */
async function prune(backupDir: string, keep: number, archive: string, say: (line: string) => void): Promise<void> {
  const backups = await listBackups(backupDir);
  const removed = backups.slice(0, Math.max(0, backups.length - keep));
  const kept = backups.slice(removed.length);
  for (const { folder } of removed) await fs.rm(folder, { recursive: true, force: true });
  const oldestBase = kept.find((b) => b.manifest.kind === 'base' && b.manifest.walArchive === archive);
  let wal = { removed: 0, bytes: 0 };
  if (oldestBase && oldestBase.manifest.kind === 'base')
    wal = await pruneArchive(archive, oldestBase.manifest.startWal);
  say(
    `Rétention (--keep ${keep})\u00a0: ${removed.length} ancienne(s) sauvegarde(s) supprimée(s), ` +
      `${wal.removed} segment(s) WAL archivé(s) supprimé(s) (${formatSize(wal.bytes)}).`,
  );
}

main().catch(reportFailure);
