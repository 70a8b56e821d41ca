import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultBackupDir } from './backup/location';

/*
 * `npm run backup` and `npm run restore` as an operator runs them (node --import tsx scripts/…):
 * exit codes, French messages, and what lands in BACKUP_DIR. The backup of a running shop under load
 * and its restores are in tests/resilience/backup-restore.test.ts.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-backup-cmd-'));
  // Run as root, the embedded PostgreSQL runs as `postgres`, which must reach DATA_DIR inside.
  await fs.chmod(dir, 0o755);
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

async function command(script: string, args: string[], env: Record<string, string | undefined>) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', `scripts/${script}`, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
  }
}

describe('where npm run backup writes', () => {
  it('defaults outside the project, and refuses a BACKUP_DIR inside it that git does not ignore', async () => {
    // The default ./data: beside the project, named after it. A DATA_DIR elsewhere: beside it.
    expect(defaultBackupDir('/srv/shop', '/srv/shop/data')).toBe('/srv/shop-backups');
    expect(defaultBackupDir('/srv/shop', '/var/lib/soovenirs/data')).toBe('/var/lib/soovenirs/backups');

    const inside = path.join(root, 'content', 'sauvegardes');
    const refused = await command('backup.ts', [], { BACKUP_DIR: inside });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`BACKUP_DIR (${inside}) est dans le dossier du projet et git ne l’ignore pas`);
    expect(refused.stderr).toContain(`par défaut\u00a0: ${path.dirname(root)}/`);
    await expect(fs.access(inside)).rejects.toThrow();
    // `backups/` is ignored by git and by the lint: accepted.
    const check = await run('git', ['check-ignore', '-q', '--no-index', 'backups/'], { cwd: root }).then(
      () => 'ignored',
      () => 'not ignored',
    );
    expect(check).toBe('ignored');
  });
});

describe('npm run backup with DATABASE_URL (an external PostgreSQL)', () => {
  // This file's database is served by PostgreSQL 17 (the test harness's cluster).
  it('stops with what to install when no pg_dump of the server’s version is available', async () => {
    const work = await tempDir();
    const backupDir = path.join(work, 'backups');
    const missing = await command('backup.ts', [], { BACKUP_DIR: backupDir, PG_DUMP: path.join(work, 'pg_dump') });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      'Sauvegarde impossible\u00a0: le serveur PostgreSQL de DATABASE_URL est en version 17',
    );
    expect(missing.stderr).toContain('Installez le paquet postgresql-client-17');

    // An older pg_dump, as Debian 12 ships (15): refused before it runs, with the same advice.
    const old = path.join(work, 'pg_dump');
    await fs.writeFile(old, '#!/bin/sh\necho "pg_dump (PostgreSQL) 15.14"\n', { mode: 0o755 });
    const tooOld = await command('backup.ts', [], { BACKUP_DIR: backupDir, PG_DUMP: old });
    expect(tooOld.code).toBe(1);
    expect(tooOld.stderr).toContain(`trouvé\u00a0: pg_dump 15 (${old}), trop ancien`);
    expect(tooOld.stderr).toContain('postgresql-client-17');
    // Nothing that could pass for a backup is left behind.
    expect(await fs.readdir(backupDir)).toEqual([]);
  });
});

describe('npm run backup on the embedded PostgreSQL, and retention', () => {
  it('takes backups with the server stopped too, and --keep removes older backups and their WAL', {
    timeout: 120_000,
  }, async () => {
    const work = await tempDir();
    const env = { DATABASE_URL: '', DATA_DIR: path.join(work, 'data'), BACKUP_DIR: path.join(work, 'backups') };
    const bad = await command('backup.ts', ['--keep', 'zéro'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--keep attend un nombre entier');

    const first = await command('backup.ts', [], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Sauvegarde terminée en');
    const second = await command('backup.ts', ['--keep', '1'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      /Rétention \(--keep 1\)\u00a0: 1 ancienne\(s\) sauvegarde\(s\) supprimée\(s\), [1-9]\d* segment/,
    );

    const backups = await fs.readdir(env.BACKUP_DIR);
    expect(backups).toHaveLength(1);
    const manifest = JSON.parse(
      await fs.readFile(path.join(env.BACKUP_DIR, backups[0] as string, 'manifest.json'), 'utf8'),
    );
    // The archive starts at the kept backup's first segment: what a restore of it needs, no more.
    const archived = (await fs.readdir(path.join(env.DATA_DIR, 'wal-archive')))
      .filter((n) => /^[0-9A-F]{24}$/.test(n))
      .sort();
    expect(archived[0]).toBe(manifest.startWal);
  });
});

describe('npm run restore', () => {
  it('refuses a target that is not empty, and a pg_dump folder', async () => {
    const work = await tempDir();
    await fs.mkdir(path.join(work, 'target'));
    await fs.writeFile(path.join(work, 'target', 'important.txt'), 'à garder');
    const refused = await command('restore.ts', [work, '--target', path.join(work, 'target')], {});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('n’est pas vide\u00a0: la restauration se fait toujours dans un nouveau dossier');
    expect(await fs.readFile(path.join(work, 'target', 'important.txt'), 'utf8')).toBe('à garder');

    await fs.mkdir(path.join(work, 'dump'));
    await fs.writeFile(
      path.join(work, 'dump', 'manifest.json'),
      JSON.stringify({ format: 1, kind: 'dump', files: [] }),
    );
    const dump = await command('restore.ts', [path.join(work, 'dump'), '--target', path.join(work, 'new')], {});
    expect(dump.code).toBe(1);
    expect(dump.stderr).toContain('il se restaure avec pg_restore');

    // A restored DATA_DIR holds the customers' data and secrets: not where git would take it.
    const inside = path.join(root, 'content', 'restauree');
    const intoProject = await command('restore.ts', [path.join(work, 'dump'), '--target', inside], {});
    expect(intoProject.code).toBe(1);
    expect(intoProject.stderr).toContain(`--target (${inside}) est dans le dossier du projet et git ne l’ignore pas`);
  });
});
