import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { CommandError } from '../database';

/*
 * Where `npm run backup` writes. A backup holds customers' data, the PostgreSQL password and
 * app-secret: it must never sit where `git add -A` would take it, nor where the lint reads it. So
 * the default is outside the project's folder:
 *   - `backups` beside DATA_DIR when DATA_DIR itself is outside the project (a production layout,
 *     /srv/soovenirs/data → /srv/soovenirs/backups: the same place as before);
 *   - else a folder beside the project, named after it (/home/me/soovenirs-shop with the default
 *     ./data → /home/me/soovenirs-shop-backups).
 * A BACKUP_DIR set inside the project is accepted only when git ignores it (`backups/` is in
 * .gitignore); else the command stops before writing anything. `npm run restore --target` follows
 * the same rule: a restored DATA_DIR holds the same data and secrets.
 */

/** Whether `child` is `parent` or inside it. */
export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The default BACKUP_DIR for this project and DATA_DIR (both absolute). */
export function defaultBackupDir(projectRoot: string, dataDir: string): string {
  if (!isInside(dataDir, projectRoot)) return path.join(path.dirname(dataDir), 'backups');
  return path.join(path.dirname(projectRoot), `${path.basename(projectRoot)}-backups`);
}

/** Whether git ignores `dir` in the repository at `projectRoot` (false when git cannot tell). */
function gitIgnores(projectRoot: string, dir: string): boolean {
  try {
    // --no-index: the folder need not exist nor be tracked; exit 0 means ignored, 1 not ignored.
    execFileSync('git', ['check-ignore', '-q', '--no-index', `${path.relative(projectRoot, dir)}/`], {
      cwd: projectRoot,
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses, in French, a folder for customers' data and secrets (`what`: « BACKUP_DIR », « --target »)
 * inside the project unless git ignores it.
 */
export function refuseUnignoredInProject(projectRoot: string, dir: string, what: string, elsewhere: string): void {
  if (isInside(dir, projectRoot) && (dir === projectRoot || !gitIgnores(projectRoot, dir))) {
    throw new CommandError(
      `${what} (${dir}) est dans le dossier du projet et git ne l’ignore pas\u00a0: une sauvegarde contient ` +
        'les données des clients, le mot de passe de PostgreSQL et app-secret, qu’un « git add » enverrait au dépôt. ' +
        `Choisissez un dossier hors du projet (${elsewhere}), ou un dossier ignoré par git.`,
    );
  }
}

/**
 * BACKUP_DIR as configured (empty counts as unset) or the default; refuses, in French, a folder
 * inside the project that git does not ignore.
 */
export function resolveBackupDir({
  projectRoot,
  dataDir,
  configured,
}: {
  projectRoot: string;
  dataDir: string;
  configured: string | undefined;
}): string {
  if (!configured) return defaultBackupDir(projectRoot, dataDir);
  const dir = path.resolve(configured);
  refuseUnignoredInProject(
    projectRoot,
    dir,
    'BACKUP_DIR',
    `par défaut\u00a0: ${defaultBackupDir(projectRoot, dataDir)}\u00a0; « backups/ » dans le projet est ignoré par git`,
  );
  return dir;
}
