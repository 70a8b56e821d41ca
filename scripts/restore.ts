import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { listBackups, readManifest } from './backup/files';
import { refuseUnignoredInProject } from './backup/location';
import { type RecoveryTarget, restoreBaseBackup } from './backup/recover';
import { CommandError, readArguments, reportFailure } from './database';

/*
 * npm run restore -- <sauvegarde> --target <nouveau DATA_DIR> [--time "2026-11-23 22:15:00+00"]
 * Restores a base backup of `npm run backup` into a new DATA_DIR, then replays the archived WAL to
 * the latest state, or up to --time (scripts/backup/recover.ts). <sauvegarde> is one backup's
 * folder, or a BACKUP_DIR: then the most recent backup that can reach the target is taken.
 */

const usage = `Usage\u00a0: npm run restore -- <sauvegarde> --target <nouveau DATA_DIR> [--time "AAAA-MM-JJ HH:MM:SS+00"] [--wal-archive <dossier>]

Restaure une sauvegarde de « npm run backup » dans un NOUVEAU dossier de données (vide ou absent),
puis rejoue les WAL archivés\u00a0: jusqu’au dernier archivé, ou jusqu’à l’instant --time.
  <sauvegarde>    le dossier d’une sauvegarde, ou le dossier des sauvegardes (BACKUP_DIR)\u00a0: la plus
                  récente qui convient est prise
  --target        le nouveau DATA_DIR à créer
  --time          restauration à un instant (heure du serveur si aucun fuseau n’est donné)
  --wal-archive   l’archive des WAL, si elle n’est plus là où la sauvegarde l’a notée`;

function parse() {
  return parseArgs({
    options: {
      target: { type: 'string' },
      time: { type: 'string' },
      'wal-archive': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
}

async function main(): Promise<void> {
  const parsed = readArguments(parse, usage);
  if (!parsed) return;
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || !values.target) {
    throw new CommandError(`Indiquez une sauvegarde et --target.\n\n${usage}`);
  }
  let time: Date | null = null;
  if (values.time) {
    time = new Date(values.time.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
    if (Number.isNaN(time.getTime())) {
      throw new CommandError(`Instant illisible\u00a0: « ${values.time} » (exemple\u00a0: "2026-11-23 22:15:00+00").`);
    }
  }
  const target = path.resolve(values.target);
  const projectRoot = path.resolve(import.meta.dirname, '..');
  refuseUnignoredInProject(
    projectRoot,
    target,
    '--target',
    `par exemple ${path.dirname(projectRoot)}/soovenirs-restauree`,
  );
  const entries = await fs.readdir(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries.length) {
    throw new CommandError(
      `Le dossier ${target} n’est pas vide\u00a0: la restauration se fait toujours dans un nouveau dossier, ` +
        'pour ne jamais écraser des données. Choisissez un dossier vide ou absent.',
    );
  }

  const folder = await chooseBackup(path.resolve(positionals[0] as string), time);
  // PostgreSQL's recovery_target_time wants "2026-11-23 22:15:00.000+00", not ISO 8601's T and Z.
  const recoveryTarget: RecoveryTarget = time
    ? { time: time.toISOString().replace('T', ' ').replace('Z', '+00') }
    : 'latest';
  const result = await restoreBaseBackup({
    folder,
    target,
    recoveryTarget,
    walArchive: values['wal-archive'] ? path.resolve(values['wal-archive']) : undefined,
    say: (line) => console.log(line),
  });

  console.log(
    `\nRestauration terminée dans ${target}\u00a0: ${result.orders} commande(s), ${result.invoices} facture(s)` +
      (result.lastTransaction ? `, dernière transaction rejouée le ${result.lastTransaction}.` : '.'),
  );
  if (!result.appSecret) {
    console.log('La sauvegarde ne contient pas app-secret\u00a0: démarrez avec le même APP_SECRET qu’avant.');
  }
  console.log(
    'Les e-mails sortants de cette copie sont retenus\u00a0: ceux qui attendaient au moment de la sauvegarde ' +
      'ne partiront pas d’eux-mêmes vers les clients. Une fois la copie vérifiée, libérez-les depuis le bandeau ' +
      'du back-office ou avec\u00a0:\n\n' +
      `  DATA_DIR=${shellWord(target)} npm run mail:release [-- --discard-copied]\n`,
  );
  console.log(`Pour démarrer la boutique sur cette copie\u00a0:\n\n  DATA_DIR=${shellWord(target)} npm start\n`);
  console.log(
    'Puis faites une nouvelle sauvegarde (npm run backup avec ce DATA_DIR)\u00a0: la base restaurée commence ' +
      'une nouvelle ligne temporelle, archivée dans son propre dossier wal-archive.',
  );
}

function shellWord(value: string): string {
  return /^[\w./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The folder itself when it is a backup; else the most recent base backup in it that can reach `time`. */
async function chooseBackup(folder: string, time: Date | null): Promise<string> {
  const manifest = await readManifest(folder);
  if (manifest?.kind === 'dump') {
    throw new CommandError(
      `${folder} est un dump pg_dump (base externe)\u00a0: il se restaure avec pg_restore (docs/operations.md, « Sauvegarder et restaurer »).`,
    );
  }
  if (manifest) {
    if (time && new Date(manifest.consistentAt) > time) {
      throw new CommandError(
        `L’instant demandé est avant la fin de cette sauvegarde (${manifest.consistentAt})\u00a0: choisissez une sauvegarde plus ancienne.`,
      );
    }
    return folder;
  }
  const usable = (await listBackups(folder)).filter(
    (b) => b.manifest.kind === 'base' && (!time || new Date(b.manifest.consistentAt) <= time),
  );
  const chosen = usable.at(-1);
  if (!chosen) {
    throw new CommandError(
      time
        ? `Aucune sauvegarde de ${folder} ne se termine avant ${time.toISOString()}\u00a0: une restauration ne peut pas remonter avant la fin d’une sauvegarde.`
        : `Aucune sauvegarde dans ${folder} (ni manifest.json).`,
    );
  }
  console.log(`Sauvegarde choisie\u00a0: ${chosen.folder}`);
  return chosen.folder;
}

main().catch(reportFailure);
