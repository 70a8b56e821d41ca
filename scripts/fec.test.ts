import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLatin9, FEC_COLUMNS } from '~/domain/accounting/fec';
import { log } from '~/server/log.server';
import { ensureDefaultPriceList } from '~/server/seed/price-list.server';
import { payByCard } from '../tests/support/card-payment';
import { insertTestOrder } from '../tests/support/orders';

/*
 * `npm run fec` as an operator runs it (`node --import tsx scripts/fec.ts`, what the npm script
 * runs), against this file's database through DATABASE_URL: the file's name, its place, its
 * content, and the messages of a wrong period.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
let dir: string;

async function fec(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/fec.ts', ...args], {
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

beforeAll(async () => {
  await ensureDefaultPriceList();
  dir = await mkdtemp(path.join(tmpdir(), 'fec-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm run fec', () => {
  it('writes <SIREN>FEC<closing day>.txt of the month in the folder, one balanced entry per movement', async () => {
    const order = await insertTestOrder(process.env.DATABASE_URL as string);
    await payByCard(order.id, order.totalCents, null, 'stripe');
    const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date()).slice(0, 7);
    const [year, m] = month.split('-').map(Number);
    const closing = new Date(Date.UTC(year as number, m as number, 0)).toISOString().slice(0, 10);

    const result = await fec(['--month', month, '--dir', dir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const name = `912345678FEC${closing.replaceAll('-', '')}.txt`;
    expect(result.stdout).toContain(`Fichier écrit\u00a0: ${path.join(dir, name)}`);
    expect(await readdir(dir)).toEqual([name]);
    const text = decodeLatin9(await readFile(path.join(dir, name)));
    // Every record ends with CR LF; the last fields are empty, so no trimming.
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = text.slice(0, -2).split('\r\n');
    expect(lines[0]).toBe(FEC_COLUMNS.join('\t'));
    // The invoice (customer, services, goods, VAT) and its receipt (Stripe, customer).
    const rows = lines.slice(1).map((line) => line.split('\t'));
    expect(rows.every((row) => row.length === 18)).toBe(true);
    expect(new Set(rows.map((row) => row[2]))).toEqual(new Set(['1', '2']));
    expect(rows.filter((row) => row[0] === 'BQ').map((row) => [row[4], row[11], row[12]])).toEqual([
      ['467100', '94,90', '0,00'],
      ['411000', '0,00', '94,90'],
    ]);
  }, 120_000);

  it('explains a wrong period in French, without writing anything', async () => {
    const reversed = await fec(['--from', '2026-11-30', '--to', '2026-11-01', '--dir', dir]);
    expect(reversed.code).toBe(1);
    expect(reversed.stderr).toContain('La date de fin doit suivre la date de début.');
    const none = await fec(['--dir', dir]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Choisissez un mois, une année ou deux dates.');
    expect(none.stderr).toContain('Usage');
    expect((await readdir(dir)).filter((file) => file.endsWith('.partiel'))).toEqual([]);
  }, 120_000);
});
