import path from 'node:path';
import { parseArgs } from 'node:util';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { formatEurosFromCents } from '../app/domain/format';
import { MigrationsPendingError, migrateDatabase } from '../app/server/db/migrate.server';
import type { OpenedDatabase } from '../app/server/db/open.server';
import { grantRuntimeRole, roleOf } from '../app/server/db/runtime-role.server';
import { env } from '../app/server/env.server';
import {
  checkFileStorage,
  createLocalStorage,
  createS3Storage,
  localFilesRoot,
  type S3Settings,
  s3SettingsFromEnv,
} from '../app/server/files/storage.server';
import { CommandError, readArguments, reportFailure, withDatabase } from './database';
import { compareFigures, countAndSum, type Difference, type Figures, moneyColumns } from './move/checks';
import { writeEnvFile } from './move/env-file';
import { copyFiles, type FileCopyResult, listLocalFiles, measureFiles } from './move/files';
import {
  COPY_SESSION_SETTINGS,
  copyTable,
  foreignKeyOrder,
  listTables,
  readSequences,
  type TableShape,
  tableDigest,
  writeSequences,
} from './move/tables';
import { checkTarget, connectTarget, type TargetFacts, TargetRefusedError, withoutPassword } from './move/target';

/*
 * npm run db:move -- --to postgres://… [--app-url postgres://…] [--files-to-s3] [--write-env F]
 * The way out of one machine (docs/operations.md, « Moving to an external PostgreSQL »;
 * docs/decisions/039): copies the shop's database (the embedded PostgreSQL of DATA_DIR, running or
 * not, opened as every command opens it) into an empty external PostgreSQL 15 or later, whose
 * schema the shop's own migrations make; with --files-to-s3, the customers' files into the bucket
 * of the S3_* variables. Then compares both sides (rows, content, money, files), prints the
 * verdict, writes the new machine's environment (APP_SECRET included) into a file of mode 600, and
 * says what to start. Exit code 0 only when everything matches.
 */

const usage = `Usage\u00a0: npm run db:move -- --to <URL PostgreSQL> [--app-url <URL>] [--files-to-s3] [--write-env <fichier>]
       npm run db:move -- --files-only --files-to-s3

Copie la base de la boutique (la PostgreSQL embarquée de DATA_DIR, serveur démarré ou non) dans une
base PostgreSQL externe VIDE, version 15 ou plus récente, puis compare les deux côtés.
  --to            URL du propriétaire de la base cible (il crée les tables par les migrations)
  --app-url       URL du rôle sous lequel la boutique tournera (sans droits de propriétaire)\u00a0:
                  il reçoit les droits dont la boutique a besoin (docs/operations.md, « Database role »)
  --files-to-s3   copie aussi les fichiers des clients (FILES_DIR, par défaut DATA_DIR/files)
                  dans le compartiment des variables S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY\u00a0;
                  les fichiers déjà présents avec la même taille ne sont pas renvoyés
  --files-only    avec --files-to-s3\u00a0: les fichiers seulement (reprise après une coupure)
  --write-env     où écrire l’environnement de la nouvelle machine (DATABASE_URL, APP_SECRET, S3_*),
                  en mode 600 (défaut\u00a0: DATA_DIR/external.env)
La copie lit un instantané cohérent de la base pendant que la boutique tourne\u00a0; ce qui est écrit
après n’est pas copié\u00a0: pour la bascule, arrêtez la boutique avant de lancer la commande.
Code de sortie 0 seulement si les deux côtés concordent.

Copies the shop's database (the embedded PostgreSQL of DATA_DIR) into an EMPTY external
PostgreSQL 15 or later, optionally the customers' files into S3 (S3_* variables), compares both
sides and writes the new machine's environment into a file of mode 600 (docs/operations.md,
« Moving to an external PostgreSQL »).`;

function parse() {
  return parseArgs({
    options: {
      to: { type: 'string' },
      'app-url': { type: 'string' },
      'files-to-s3': { type: 'boolean', default: false },
      'files-only': { type: 'boolean', default: false },
      // Not --env-file: Node 20 takes that one for itself, wherever it is on the command line.
      'write-env': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}

const fr = new Intl.NumberFormat('fr-FR');
const say = (line = '') => console.log(line);

interface DatabaseMove {
  facts: TargetFacts;
  source: Figures;
  target: Figures;
  sequences: number;
  /** Sequences whose value on the target is not the source's. */
  sequenceDifferences: Difference[];
  appRole: string | null;
}

interface FilesMove {
  local: { count: number; bytes: number };
  bucket: { count: number; bytes: number; missing: string[] } | null;
  ignored: string[];
  copied: FileCopyResult | null;
}

async function main(): Promise<void> {
  const parsed = readArguments(parse, usage);
  if (!parsed) return;
  const { values } = parsed;
  const filesOnly = values['files-only'];
  if (filesOnly && !values['files-to-s3'])
    throw new CommandError(`--files-only s’utilise avec --files-to-s3.\n\n${usage}`);
  if (!filesOnly && !values.to) throw new CommandError(`Indiquez la base cible avec --to.\n\n${usage}`);
  if (filesOnly && (values.to || values['app-url'])) {
    throw new CommandError('--files-only copie les fichiers seulement\u00a0: sans --to ni --app-url.');
  }
  const began = Date.now();

  await withDatabase(async (opened) => {
    const s3 = s3SettingsFromEnv();
    if (values['files-to-s3'] && !s3) {
      throw new CommandError(
        '--files-to-s3 demande le compartiment cible dans S3_BUCKET, S3_ACCESS_KEY_ID et S3_SECRET_ACCESS_KEY ' +
          '(et S3_ENDPOINT hors Amazon S3, S3_REGION).',
      );
    }
    // Checked before anything is copied: a wrong key must not be found after the database.
    if (values['files-to-s3'])
      await checkFileStorage().catch((error: Error) => {
        throw new CommandError(error.message);
      });
    say(
      `Source\u00a0: ${opened.embedded ? `PostgreSQL embarquée de ${path.resolve(env().DATA_DIR)}` : withoutPassword(opened.ownerUrl)}`,
    );

    let database: DatabaseMove | null = null;
    let target: pg.Client | null = null;
    try {
      if (!filesOnly) {
        target = await connectTarget(values.to as string);
        const facts = await checkTarget(target);
        say(`Cible\u00a0: ${withoutPassword(values.to as string)} (PostgreSQL ${facts.version}, rôle ${facts.role})`);
      }
      // The files first: the long part, which a second run resumes; the database after, in one go.
      // (--files-only: one pass, below.)
      const files =
        values['files-to-s3'] && target ? await moveFiles(s3 as S3Settings, opened, null, { last: false }) : null;
      if (target) {
        database = await moveDatabase(opened, target, values.to as string, values['app-url']);
      }
      // Without --files-to-s3: already in the shop's bucket (S3_* set), or left in the local folder.
      const filesAfter = values['files-to-s3']
        ? await moveFiles(s3 as S3Settings, opened, files, { last: true })
        : s3
          ? null
          : await localFiles();

      const differences = report(database, filesAfter);
      if (differences.length) {
        throw new CommandError(
          `ÉCARTS entre la source et la cible (${differences.length})\u00a0: ne basculez pas. ` +
            'Voyez le tableau ci-dessus\u00a0; une base cible incomplète se recrée vide avant de relancer.',
        );
      }
      say(`\nVérification\u00a0: tout concorde (${seconds(began)}).`);
      if (database) await nextSteps(values, database, filesAfter, Boolean(s3));
      else say('Fichiers\u00a0: tout est dans le compartiment.');
    } catch (error) {
      if (error instanceof TargetRefusedError) throw new CommandError(error.message);
      throw error;
    } finally {
      await target?.end().catch(() => {});
    }
  });
}

/** The local files, listed only (the move leaves them where they are without --files-to-s3). */
async function localFiles(): Promise<FilesMove> {
  const { files, ignored } = await listLocalFiles(localFilesRoot());
  return {
    local: { count: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0) },
    bucket: null,
    ignored,
    copied: null,
  };
}

/**
 * Copies the local files into the bucket, skipping those already there; `earlier` is the first
 * pass's result, when this is the pass after the database (it sends what was stored meanwhile);
 * `last`: the pass whose bucket the check compares.
 */
async function moveFiles(
  s3: S3Settings,
  opened: OpenedDatabase,
  earlier: FilesMove | null,
  { last }: { last: boolean },
): Promise<FilesMove> {
  const root = localFilesRoot();
  const { files, ignored } = await listLocalFiles(root);
  const bucket = createS3Storage(s3);
  const contentTypes = await storedContentTypes(opened.ownerUrl);
  if (!earlier) say(`Fichiers\u00a0: ${fr.format(files.length)} dans ${root}, vers le compartiment « ${s3.bucket} »…`);
  let shown = 0;
  const copied = await copyFiles({
    files,
    from: createLocalStorage(root),
    to: bucket,
    contentTypeOf: (key) => contentTypes.get(key) ?? (key.endsWith('.jpg') ? 'image/jpeg' : 'application/octet-stream'),
    onProgress: (done, total) => {
      if (!earlier && (done === total || done - shown >= Math.max(100, total / 10))) {
        shown = done;
        say(`  ${fr.format(done)} / ${fr.format(total)}`);
      }
    },
  });
  if (!earlier || copied.copied) {
    say(
      `Fichiers${earlier ? ' (écrits pendant la copie)' : ''}\u00a0: ${fr.format(copied.copied)} envoyé(s) ` +
        `(${formatBytes(copied.bytesCopied)}), ${fr.format(copied.skipped)} déjà présent(s).`,
    );
  }
  // The bucket is measured for the check once, after the last pass.
  const measured = last ? await measureFiles(bucket, files) : null;
  const total = earlier?.copied;
  return {
    local: { count: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0) },
    bucket: measured,
    ignored,
    copied: total
      ? {
          copied: total.copied + copied.copied,
          // What the first pass found there already; the second finds those and the first's copies.
          skipped: total.skipped,
          bytesCopied: total.bytesCopied + copied.bytesCopied,
          conflicts: copied.conflicts,
        }
      : copied,
  };
}

/** The content types the database knows for stored keys (delivered files and their playback copies). */
async function storedContentTypes(url: string): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ key: string; type: string }>(
      `select storage_key as key, content_type as type from order_files
       union all
       select playback_key, playback_content_type from order_file_media
        where playback_key is not null and playback_content_type is not null`,
    );
    return new Map(rows.map((r) => [r.key, r.type]));
  } finally {
    await client.end();
  }
}

async function moveDatabase(
  opened: OpenedDatabase,
  target: pg.Client,
  targetUrl: string,
  appUrl: string | undefined,
): Promise<DatabaseMove> {
  const source = new pg.Client({ connectionString: opened.ownerUrl });
  source.on('error', () => {});
  await source.connect();
  try {
    // One snapshot for everything read from the source: the copy is consistent while the shop runs.
    await source.query('begin isolation level repeatable read, read only');
    await source.query(COPY_SESSION_SETTINGS);
    await requireSameMigrations(source);

    // Checked again just before the first write: the files' copy may have taken hours.
    const facts = await checkTarget(target);
    await migrateDatabase(targetUrl).catch((error: Error) => {
      throw new CommandError(
        error instanceof MigrationsPendingError
          ? 'Le rôle de --to ne possède pas la base cible\u00a0: donnez l’URL de son propriétaire (create database … owner …). Rien n’a été écrit.'
          : `Les migrations de la boutique ont échoué sur la base cible\u00a0: ${error.message}. ` +
              'La base doit être vide et permettre l’extension pg_trgm (docs/operations.md, « Moving to an external PostgreSQL »).',
      );
    });
    await target.query(COPY_SESSION_SETTINGS);
    const tables = await foreignKeyOrder(target, await listTables(target));
    requireSameTables(await listTables(source), tables);
    const money = await moneyColumns(target, tables);

    say(`Base\u00a0: ${tables.length} tables, copiées dans l’ordre de leurs clés étrangères…`);
    const sourceFigures: Figures = new Map();
    // Every row in one transaction: a copy cut short leaves the target's tables empty, and the
    // command can be run again (an empty schema of the shop's counts as empty).
    await target.query('begin');
    try {
      for (const table of tables) {
        const counted = await countAndSum(source, table.name, money.get(table.name) ?? []);
        const copied = await copyTable(source, target, table);
        sourceFigures.set(table.name, { ...counted, sha256: copied.sha256 });
        if (copied.rows >= 10_000) say(`  ${table.name}\u00a0: ${fr.format(copied.rows)} lignes`);
      }
      const sequences = await readSequences(source);
      await writeSequences(target, sequences);
      await target.query('commit');
      await source.query('commit');

      // The role the shop will run as: granted what it needs, as the shop does at each start.
      let appRole: string | null = null;
      if (appUrl && roleOf(appUrl) !== roleOf(targetUrl)) {
        appRole = roleOf(appUrl);
        await grantRuntimeRole(targetUrl, appRole);
        await requireAppRoleReads(appUrl);
      }
      // Read back: a sequence behind its table would hand out an id already taken.
      const written = new Map((await readSequences(target)).map((q) => [q.name, q]));
      const sequenceDifferences: Difference[] = sequences
        .filter((q) => written.get(q.name)?.lastValue !== q.lastValue || written.get(q.name)?.isCalled !== q.isCalled)
        .map((q) => ({
          what: `séquence ${q.name}`,
          source: q.lastValue,
          target: written.get(q.name)?.lastValue ?? '—',
        }));
      return {
        facts,
        source: sourceFigures,
        target: await readFigures(target, tables, money),
        sequences: sequences.length,
        sequenceDifferences,
        appRole,
      };
    } catch (error) {
      await target.query('rollback').catch(() => {});
      throw error;
    }
  } finally {
    await source.end().catch(() => {});
  }
}

/** The source's applied migrations must all be this code's: the target gets exactly these. */
async function requireSameMigrations(source: pg.Client): Promise<void> {
  const known = new Set(readMigrationFiles({ migrationsFolder: path.resolve('drizzle') }).map((m) => m.hash));
  const { rows } = await source.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations');
  const unknown = rows.filter((r) => !known.has(r.hash));
  if (unknown.length) {
    throw new CommandError(
      `La base source a ${unknown.length} migration(s) que cette version du code ne connaît pas\u00a0: ` +
        'lancez la commande depuis la même version que la boutique. Rien n’a été écrit.',
    );
  }
}

function requireSameTables(source: TableShape[], target: TableShape[]): void {
  const shape = (t: TableShape) => `${t.name}(${t.columns.join(',')})`;
  const wanted = new Set(target.map(shape));
  const different = source.filter((t) => !wanted.has(shape(t))).map((t) => t.name);
  const had = new Set(source.map(shape));
  different.push(...target.filter((t) => !had.has(shape(t))).map((t) => t.name));
  if (different.length) {
    throw new CommandError(
      `Les tables de la source et de la cible diffèrent (${[...new Set(different)].join(', ')})\u00a0: ` +
        'la cible vient d’être créée par les migrations, la source a été modifiée à la main. Aucune ligne copiée.',
    );
  }
}

async function requireAppRoleReads(appUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: appUrl });
  try {
    await client.connect();
    await client.query('select count(*) from orders');
  } catch (error) {
    throw new CommandError(
      `Le rôle de --app-url (${withoutPassword(appUrl)}) ne lit pas la base copiée\u00a0: ${(error as Error).message}`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/** The target's figures, read back after the commit in one snapshot. */
async function readFigures(target: pg.Client, tables: TableShape[], money: Map<string, string[]>): Promise<Figures> {
  const figures: Figures = new Map();
  await target.query('begin isolation level repeatable read, read only');
  try {
    for (const table of tables) {
      const counted = await countAndSum(target, table.name, money.get(table.name) ?? []);
      figures.set(table.name, { ...counted, sha256: await tableDigest(target, table) });
    }
  } finally {
    await target.query('commit');
  }
  return figures;
}

/** Prints both sides' figures; returns what differs. */
function report(database: DatabaseMove | null, files: FilesMove | null): Difference[] {
  const differences: Difference[] = [];
  const line = (what: string, source: string, target: string, verdict: string) =>
    say(`${what.padEnd(34)}${source.padStart(16)}${target.padStart(16)}  ${verdict}`);
  say('');
  if (database) {
    const found = compareFigures(database.source, database.target);
    differences.push(...found, ...database.sequenceDifferences);
    const wrong = new Set(found.map((d) => d.what));
    line('Table (lignes, contenu)', 'source', 'cible', '');
    const byName = [...database.source].sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [table, s] of byName) {
      const t = database.target.get(table);
      const same = !wrong.has(`${table} (lignes)`) && !wrong.has(`${table} (contenu)`) && t;
      line(table, fr.format(s.rows), t ? fr.format(t.rows) : '—', same ? 'identique' : 'DIFFÉRENT');
    }
    say('');
    line('Somme', 'source', 'cible', '');
    for (const [, s] of byName) {
      for (const [sum, value] of Object.entries(s.sums)) {
        const t = [...database.target.values()].find((figures) => sum in figures.sums)?.sums[sum];
        line(sum, euros(value), t === undefined ? '—' : euros(t), t === value ? 'identique' : 'DIFFÉRENT');
      }
    }
    const rows = [...database.source.values()].reduce((sum, f) => sum + f.rows, 0);
    say(
      `\n${fr.format(database.source.size)} tables, ${fr.format(rows)} lignes, ${database.sequences} séquence(s) reprise(s)` +
        (database.sequenceDifferences.length ? ', DIFFÉRENTES\u00a0:' : ' à la même valeur.'),
    );
    for (const d of database.sequenceDifferences)
      say(`  ${d.what}\u00a0: ${d.source} à la source, ${d.target} dans la cible`);
  }
  say('');
  if (!files) {
    say('Fichiers\u00a0: déjà dans le compartiment de la boutique (S3_*)\u00a0: rien à copier.');
  } else if (files.bucket) {
    const { local, bucket } = files;
    line('Fichiers', 'dossier local', 'compartiment', '');
    line(
      'nombre',
      fr.format(local.count),
      fr.format(bucket.count),
      local.count === bucket.count ? 'identique' : 'DIFFÉRENT',
    );
    line(
      'octets',
      fr.format(local.bytes),
      fr.format(bucket.bytes),
      local.bytes === bucket.bytes ? 'identique' : 'DIFFÉRENT',
    );
    if (local.count !== bucket.count) {
      differences.push({ what: 'fichiers (nombre)', source: String(local.count), target: String(bucket.count) });
      for (const key of bucket.missing.slice(0, 10)) say(`  absent du compartiment\u00a0: ${key}`);
    }
    if (local.bytes !== bucket.bytes) {
      differences.push({ what: 'fichiers (octets)', source: String(local.bytes), target: String(bucket.bytes) });
    }
    for (const conflict of files.copied?.conflicts ?? []) {
      say(
        `  ${conflict.key}\u00a0: déjà dans le compartiment avec une autre taille ` +
          `(${fr.format(conflict.bucketSize)} octets au lieu de ${fr.format(conflict.localSize)})\u00a0: non remplacé`,
      );
      differences.push({ what: conflict.key, source: String(conflict.localSize), target: String(conflict.bucketSize) });
    }
  } else {
    say(
      `Fichiers\u00a0: ${fr.format(files.local.count)} (${formatBytes(files.local.bytes)}) restent dans ${localFilesRoot()}\u00a0: ` +
        'copiez ce dossier sur la nouvelle machine, ou relancez avec --files-to-s3.',
    );
  }
  if (files?.ignored.length) {
    say(
      `  ${files.ignored.length} fichier(s) ignoré(s), restes d’écritures interrompues (….partial), téléversements en cours (uploads/) ou noms inconnus.`,
    );
  }
  return differences;
}

function euros(cents: string): string {
  return formatEurosFromCents(Number(cents));
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${fr.format(Math.round(bytes / 1024))}\u00a0Ko`;
  if (bytes < 1024 ** 3) return `${fr.format(Math.round((bytes / 1024 ** 2) * 10) / 10)}\u00a0Mo`;
  return `${fr.format(Math.round((bytes / 1024 ** 3) * 10) / 10)}\u00a0Go`;
}

function seconds(since: number): string {
  return `${fr.format(Math.round((Date.now() - since) / 100) / 10)}\u00a0s`;
}

/** Writes the new machine's environment (secrets included, mode 600) and says what to start. */
async function nextSteps(
  values: { to?: string; 'app-url'?: string; 'write-env'?: string },
  database: DatabaseMove,
  files: FilesMove | null,
  s3: boolean,
): Promise<void> {
  const dataDir = path.resolve(env().DATA_DIR);
  const file = path.resolve(values['write-env'] ?? path.join(dataDir, 'external.env'));
  const ownerUrl = values.to as string;
  const variables: Record<string, string> = database.appRole
    ? { DATABASE_URL: values['app-url'] as string, DATABASE_OWNER_URL: ownerUrl }
    : { DATABASE_URL: ownerUrl };
  // The same secret: sessions stay valid and the stored secrets (payment, SMTP, carrier) decrypt.
  variables.APP_SECRET = process.env.APP_SECRET as string;
  if (process.env.APP_SECRET_PREVIOUS) variables.APP_SECRET_PREVIOUS = process.env.APP_SECRET_PREVIOUS;
  if (s3) {
    const e = env();
    Object.assign(variables, {
      ...(e.S3_ENDPOINT ? { S3_ENDPOINT: e.S3_ENDPOINT } : {}),
      S3_BUCKET: e.S3_BUCKET as string,
      S3_REGION: e.S3_REGION,
      S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID as string,
      S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY as string,
    });
  }
  await writeEnvFile(file, variables);
  say(`\nEnvironnement de la nouvelle machine écrit dans ${file} (mode 600, il contient APP_SECRET)\u00a0:`);
  say(`  ${Object.keys(variables).join(', ')}`);
  say('\nÀ faire maintenant\u00a0:');
  say(`  1. Gardez l’ancienne boutique arrêtée (${dataDir} tel quel\u00a0: c’est le retour en arrière).`);
  say(`  2. Démarrez la boutique avec ces variables, par exemple\u00a0: set -a; . ${file}; set +a; npm start`);
  say(
    `     DATABASE_URL=${withoutPassword(variables.DATABASE_URL as string)}` +
      (variables.DATABASE_OWNER_URL ? `, DATABASE_OWNER_URL=${withoutPassword(variables.DATABASE_OWNER_URL)}` : ''),
  );
  say(`  3. ${path.join(dataDir, 'postgres')} n’est plus utilisé par la boutique.`);
  if (files && !files.bucket) {
    say(
      `  4. Les fichiers restent dans ${localFilesRoot()}\u00a0: la nouvelle machine a besoin de ce dossier (même DATA_DIR).`,
    );
  }
  if (!database.appRole) {
    say(
      '  Conseil\u00a0: un rôle sans droits de propriétaire pour la boutique (--app-url), ' +
        'voir docs/operations.md, « Database role ».',
    );
  }
}

main().catch(reportFailure);
