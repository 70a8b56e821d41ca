import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pool } from '~/server/db/client.server';

/*
 * The operations commands as an operator runs them: `node --import tsx scripts/...` (what the npm
 * scripts run), against this file's database through DATABASE_URL. Exit codes and messages matter.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

async function command(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', `scripts/${script}`, ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL, BASE_URL: '' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
  }
}

describe('npm run admin:create', () => {
  it('explains invalid input without touching the database', async () => {
    const noEmail = await command('admin-create.ts', ['--password', 'Cerf-Volant-Rouge-7']);
    expect(noEmail.code).toBe(1);
    expect(noEmail.stderr).toContain('L’option --email est obligatoire');

    const bad = await command('admin-create.ts', ['--email', 'nimportequoi', '--password', '123']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Adresse e-mail invalide');
    expect(bad.stderr).toContain('au moins 6 caractères');

    const unknown = await command('admin-create.ts', ['--email', 'a@example.fr', '--mot-de-passe', 'x']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Usage');
  });

  // Four runs of the script, each starting Node and tsx: longer than one test's default.
  it('creates, then promotes, and says what it did', async () => {
    // A new administrator has a name: the history and the Journal show staff by name.
    const nameless = await command('admin-create.ts', [
      '--email',
      'Patronne@Example.fr',
      '--password',
      'Cerf-Volant-Rouge-7',
    ]);
    expect(nameless.code).toBe(1);
    expect(nameless.stderr).toContain('indiquez le prénom et le nom du nouvel administrateur');

    const created = await command('admin-create.ts', [
      '--email',
      'Patronne@Example.fr',
      '--password',
      'Cerf-Volant-Rouge-7',
      '--first-name',
      'Olivia',
      '--last-name',
      'Patronne',
    ]);
    expect(created).toMatchObject({ code: 0 });
    expect(created.stdout).toContain('Administrateur créé : patronne@example.fr');
    const { rows: named } = await pool().query(`select name from "user" where email = 'patronne@example.fr'`);
    expect(named).toEqual([{ name: 'Olivia Patronne' }]);

    const again = await command('admin-create.ts', ['--email', 'patronne@example.fr']);
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toContain('est déjà administrateur');

    await pool().query(
      `insert into "user" (id, name, email, role) values ('u-cli', 'Client', 'client-cli@example.fr', 'customer')`,
    );
    const promoted = await command('admin-create.ts', [
      '--email',
      'client-cli@example.fr',
      '--password',
      'Cerf-Volant-Rouge-7',
    ]);
    expect(promoted).toMatchObject({ code: 0 });
    expect(promoted.stdout).toContain('Compte existant promu administrateur : client-cli@example.fr');
    const { rows } = await pool().query(`select email from "user" where role = 'admin' order by email`);
    expect(rows).toEqual([{ email: 'client-cli@example.fr' }, { email: 'patronne@example.fr' }]);
  }, 120_000);
});

describe('npm run seed', () => {
  it('ensures the price list, seeds demo orders once, and refuses a second time without --force', async () => {
    const plain = await command('seed.ts', []);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/Grille tarifaire active : version 1, (créée|déjà en place)/);

    const demo = await command('seed.ts', ['--demo', '--orders', '40', '--seed-value', 'cli']);
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(/40 commandes créées en [\d,]+ s/);
    expect(demo.stdout).toContain('souvenirs-demo');

    const twice = await command('seed.ts', ['--demo', '--orders', '40']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('--force');

    const forced = await command('seed.ts', ['--demo', '--orders', '5', '--force']);
    expect(forced.code).toBe(0);
    const { rows } = await pool().query('select count(*)::int as n from orders');
    expect(rows).toEqual([{ n: 45 }]);
  }, 120_000);

  it('checks its options', async () => {
    const bad = await command('seed.ts', ['--demo', '--orders', 'beaucoup']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--orders attend un nombre entier');
    const orphan = await command('seed.ts', ['--orders', '10']);
    expect(orphan.code).toBe(1);
    expect(orphan.stderr).toContain('qu’avec --demo');
  });
});

// The move itself needs two servers: tests/resilience/db-move.test.ts.
describe('npm run db:move', () => {
  // Three runs of the script, each starting Node and tsx.
  it('says what it needs before opening anything', async () => {
    const help = await command('db-move.ts', ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage\u00a0: npm run db:move -- --to');
    expect(help.stdout).toContain('Moving to an external PostgreSQL');

    const noTarget = await command('db-move.ts', []);
    expect(noTarget.code).toBe(1);
    expect(noTarget.stderr).toContain('Indiquez la base cible avec --to.');

    const filesOnly = await command('db-move.ts', ['--files-only']);
    expect(filesOnly.code).toBe(1);
    expect(filesOnly.stderr).toContain('--files-only s’utilise avec --files-to-s3.');
  }, 60_000);
});
