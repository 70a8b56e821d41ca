import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { CommandError } from '../database';
import {
  copyFile,
  type DumpManifest,
  exists,
  formatSize,
  hashFile,
  MANIFEST,
  type ManifestFile,
  noRow,
  stamp,
} from './files';

/*
 * The backup of an external PostgreSQL (DATABASE_URL): a `pg_dump --format=custom`, which needs a
 * pg_dump of the server's major version or later (an older one refuses: "server version mismatch").
 * The shop ships no pg_dump, so the machine's are looked for; without a suitable one the command
 * stops and says what to install. Base backups and WAL archiving of an external server are its
 * operator's business (pg_basebackup, docs/operations.md).
 */

const run = promisify(execFile);

/** Where the PostgreSQL client tools live on Debian/Ubuntu, RHEL and Homebrew, besides PATH. */
const GLOBS: { dir: string; pattern: RegExp; bin: string }[] = [
  { dir: '/usr/lib/postgresql', pattern: /^\d+$/, bin: 'bin' },
  { dir: '/usr', pattern: /^pgsql-\d+$/, bin: 'bin' },
  { dir: '/opt/homebrew/opt', pattern: /^postgresql@\d+$/, bin: 'bin' },
  { dir: '/usr/local/opt', pattern: /^postgresql@\d+$/, bin: 'bin' },
];

async function candidates(): Promise<string[]> {
  if (process.env.PG_DUMP) return [process.env.PG_DUMP];
  const found = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const { dir, pattern, bin } of GLOBS) {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => pattern.test(n))) found.push(path.join(dir, name, bin));
  }
  const files = [...new Set(found.map((d) => path.join(d, 'pg_dump')))];
  const present: string[] = [];
  for (const file of files) if (await exists(file)) present.push(file);
  return present;
}

async function majorOf(pgDump: string): Promise<number | null> {
  try {
    const { stdout } = await run(pgDump, ['--version']);
    const match = /\(PostgreSQL\) (\d+)/.exec(stdout);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** The newest pg_dump able to dump a server of `serverMajor`, or the reason there is none. */
export async function findPgDump(serverMajor: number): Promise<{ file: string; major: number }> {
  const found: { file: string; major: number }[] = [];
  for (const file of await candidates()) {
    const major = await majorOf(file);
    if (major !== null) found.push({ file, major });
  }
  const suitable = found.filter((f) => f.major >= serverMajor).sort((a, b) => b.major - a.major);
  const best = suitable[0];
  if (best) return best;
  const seen = found.length
    ? `trouvé\u00a0: ${found.map((f) => `pg_dump ${f.major} (${f.file})`).join(', ')}, trop ancien`
    : process.env.PG_DUMP
      ? `PG_DUMP=${process.env.PG_DUMP} n’est pas un pg_dump utilisable`
      : 'aucun pg_dump trouvé';
  throw new CommandError(
    `Sauvegarde impossible\u00a0: le serveur PostgreSQL de DATABASE_URL est en version ${serverMajor}, ` +
      `et il faut un pg_dump ${serverMajor} ou plus récent (${seen}).\n` +
      `Installez le paquet postgresql-client-${serverMajor} (dépôt apt.postgresql.org sur Debian ou Ubuntu), ` +
      `ou indiquez le chemin d’un pg_dump récent avec PG_DUMP=/chemin/vers/pg_dump.`,
  );
}

export async function dumpBackup({
  url,
  dataDir,
  backupDir,
  say,
}: {
  url: string;
  dataDir: string;
  backupDir: string;
  say: (line: string) => void;
}): Promise<{ folder: string; manifest: DumpManifest; bytes: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let version: string;
  let versionNum: number;
  try {
    const row =
      (
        await client.query<{ version: string; num: string }>(
          `select current_setting('server_version') as version, current_setting('server_version_num') as num`,
        )
      ).rows[0] ?? noRow();
    version = row.version;
    versionNum = Number(row.num);
  } finally {
    await client.end();
  }
  const pgDump = await findPgDump(Math.floor(versionNum / 10000));

  const started = new Date();
  const name = `${stamp(started)}-dump`;
  const partial = path.join(backupDir, `${name}.partial`);
  const folder = path.join(backupDir, name);
  await fs.mkdir(partial, { recursive: true, mode: 0o700 });
  try {
    say(`pg_dump ${pgDump.major} (${pgDump.file}) de la base PostgreSQL ${version}…`);
    // The password goes through the environment, not the command line that `ps` shows.
    const target = new URL(url);
    const password = decodeURIComponent(target.password);
    target.password = '';
    const dumpFile = path.join(partial, 'soovenirs.dump');
    await new Promise<void>((resolve, reject) => {
      const child = spawn(pgDump.file, ['--format=custom', `--file=${dumpFile}`, `--dbname=${target.toString()}`], {
        env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
        stdio: ['ignore', 'inherit', 'pipe'],
      });
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => {
        errors += chunk.toString();
      });
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new CommandError(`pg_dump a échoué (code ${code})\u00a0:\n${errors.trim()}`)),
      );
    });
    await fs.chmod(dumpFile, 0o600);

    const files: ManifestFile[] = [];
    let bytes = 0;
    const { size } = await fs.stat(dumpFile);
    files.push({ path: 'soovenirs.dump', size, sha256: await hashFile(dumpFile) });
    bytes += size;
    const secret = await copyFile(path.join(dataDir, 'app-secret'), path.join(partial, 'app-secret'), 0o600);
    if (secret) files.push({ path: 'app-secret', ...secret });

    const manifest: DumpManifest = {
      format: 1,
      kind: 'dump',
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      postgresVersion: version,
      pgDump: `${pgDump.file} (${pgDump.major})`,
      files,
    };
    await fs.writeFile(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await fs.rename(partial, folder);
    say(`Dump écrit (${formatSize(bytes)}).`);
    return { folder, manifest, bytes };
  } catch (error) {
    await fs.rm(partial, { recursive: true, force: true });
    throw error;
  }
}
