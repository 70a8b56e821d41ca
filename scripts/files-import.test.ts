import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pool } from '~/server/db/client.server';
import { insertTestOrder } from '../tests/support/orders';

/*
 * `npm run files:import` as a scanning station runs it: `node --import tsx scripts/files-import.ts`
 * against this file's database (DATABASE_URL) and a DATA_DIR of its own (the local storage).
 * Supports from subfolders, refusals in French, a second run that sends nothing again.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
let work: string;
let dataDir: string;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-import-'));
  dataDir = path.join(work, 'data');
  await fs.mkdir(dataDir);
});
afterAll(() => fs.rm(work, { recursive: true, force: true }));

async function importFiles(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/files-import.ts', ...args], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: process.env.DATABASE_URL,
        DATA_DIR: dataDir,
        BASE_URL: '',
        LOG_LEVEL: 'warn',
      },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
  }
}

async function write(folder: string, relative: string, bytes: number): Promise<string> {
  const file = path.join(folder, relative);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const content = randomBytes(bytes);
  await fs.writeFile(file, content);
  return createHash('sha256').update(content).digest('hex');
}

async function rows(orderId: string) {
  const { rows } = await pool().query<{
    name: string;
    support: string;
    sha256: string;
    uploaded_by: string;
    storage_key: string;
  }>(
    'select name, support, sha256, uploaded_by, storage_key from order_files where order_id = $1 and deleted_at is null order by name',
    [orderId],
  );
  return rows;
}

// Each case runs the script in a child process through tsx (several seconds each on a busy 2-core
// machine): the file's cases get the time of four such runs, not the integration default.
describe('npm run files:import', { timeout: 120_000 }, () => {
  it('refuses an unknown order and files without a support, in French, storing nothing', async () => {
    const folder = path.join(work, 'refus');
    await write(folder, 'a.jpg', 10);
    const unknown = await importFiles(['--order', 'SV-2099-999999', folder]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Commande SV-2099-999999 introuvable');

    const order = await insertTestOrder(process.env.DATABASE_URL as string);
    const orphan = await importFiles(['--order', order.number, folder]);
    expect(orphan.code).toBe(1);
    expect(orphan.stderr).toContain('Support inconnu pour 1 fichier (a.jpg)');
    expect(orphan.stderr).toContain('plusieurs supports (photos, vhs)');
    const badSupport = await importFiles(['--order', order.number, folder, '--support', 'diapos']);
    expect(badSupport.code).toBe(1);
    expect(badSupport.stderr).toContain('Support « diapos » inconnu');
    const missingFolder = await importFiles(['--order', order.number, path.join(work, 'absent')]);
    expect(missingFolder.code).toBe(1);
    expect(missingFolder.stderr).toContain('n’existe pas');
    expect(await rows(order.id)).toEqual([]);
  });

  it('stores every file with its support and SHA-256, then sends nothing again; a new file alone', async () => {
    const order = await insertTestOrder(process.env.DATABASE_URL as string, {
      paymentStatus: 'paid',
      status: 'processing',
    });
    const folder = path.join(work, 'scans');
    const photo1 = await write(folder, 'photos/IMG_0001.jpg', 200_000);
    const photo2 = await write(folder, 'photos/album 2/IMG_0002.jpg', 150_000);
    const tape = await write(folder, 'vhs/Cassette 1.mp4', 1_500_000);
    // Same name, other bytes, in another support: kept beside, never over it.
    const tape2 = await write(folder, 'autres/Cassette 1.mp4', 1000);
    const notice = await write(folder, 'notice.pdf', 5000);
    await write(folder, '.DS_Store', 10);

    const first = await importFiles(['--order', order.number, folder, '--support', 'autres']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Commande ${order.number} : 5 fichiers`);
    expect(first.stdout).toMatch(/\[1\/5\] autres\/Cassette 1\.mp4 \(1\u00a0Ko\) : déposé/);
    expect(first.stdout).toContain('[5/5]');
    expect(first.stdout).toContain('renommé en « Cassette 1 (2).mp4 »');
    expect(first.stdout).toContain('Terminé : 5 déposés (dont 1 renommé), 0 déjà présent.');
    const stored = await rows(order.id);
    expect(stored.map(({ name, support, sha256, uploaded_by }) => ({ name, support, sha256, uploaded_by }))).toEqual([
      { name: 'Cassette 1 (2).mp4', support: 'vhs', sha256: tape, uploaded_by: 'import' },
      { name: 'Cassette 1.mp4', support: 'autres', sha256: tape2, uploaded_by: 'import' },
      { name: 'IMG_0001.jpg', support: 'photos', sha256: photo1, uploaded_by: 'import' },
      { name: 'IMG_0002.jpg', support: 'photos', sha256: photo2, uploaded_by: 'import' },
      { name: 'notice.pdf', support: 'autres', sha256: notice, uploaded_by: 'import' },
    ]);
    for (const row of stored) {
      const bytes = await fs.readFile(path.join(dataDir, 'files', ...row.storage_key.split('/')));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(row.sha256);
    }

    const again = await importFiles(['--order', order.number, folder, '--support', 'autres']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Terminé : 0 déposé, 5 déjà présents.');
    expect(await rows(order.id)).toHaveLength(5);

    const photo3 = await write(folder, 'photos/IMG_0003.jpg', 1234);
    const third = await importFiles(['--order', order.number, folder, '--support', 'autres']);
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('IMG_0003.jpg (1,2\u00a0Ko) : déposé');
    expect(third.stdout).toContain('Terminé : 1 déposé, 5 déjà présents.');
    expect((await rows(order.id)).find((r) => r.name === 'IMG_0003.jpg')?.sha256).toBe(photo3);
  });
});
