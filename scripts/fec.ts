import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parseArgs } from 'node:util';
import { parseAccountingPeriod } from '../app/domain/accounting/period';
import { readAccountingSettings } from '../app/server/accounting/accounting-settings.server';
import { accountingExport } from '../app/server/accounting/journal.server';
import { CommandError, readArguments, reportFailure, withDatabase } from './database';

/*
 * npm run fec -- --from 2026-01-01 --to 2026-12-31 [--dir DOSSIER] [--csv]
 * The FEC of a period (docs/accounting-exports.md), the same file as the back office's « Exports
 * comptables »: `<SIREN>FEC<AAAAMMJJ>.txt` written in the folder (the current one by default),
 * streamed from the database. `--csv`: the journal in entries as a spreadsheet instead.
 */

const usage = `Usage\u00a0: npm run fec -- --from AAAA-MM-JJ --to AAAA-MM-JJ [--dir DOSSIER] [--csv]
       npm run fec -- --month AAAA-MM | --year AAAA [--dir DOSSIER] [--csv]

Écrit le fichier des écritures comptables (FEC) de la période, jours de Paris inclus\u00a0:
<SIREN>FEC<date de clôture>.txt, ISO 8859-15, séparé par des tabulations.
  --dir   le dossier où l’écrire (par défaut, le dossier courant)
  --csv   le journal en écritures au format tableur (CSV) plutôt que le FEC
Les documents de démonstration (TEST-…) n’y figurent jamais.
Base de données\u00a0: DATABASE_URL si défini, sinon la PostgreSQL embarquée de DATA_DIR (./data).`;

function parse() {
  return parseArgs({
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      month: { type: 'string' },
      year: { type: 'string' },
      dir: { type: 'string' },
      csv: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}

async function main(): Promise<void> {
  const parsed = readArguments(parse, usage);
  if (!parsed) return;
  const { values } = parsed;
  const period = parseAccountingPeriod({ month: values.month, year: values.year, from: values.from, to: values.to });
  if (!period.ok) throw new CommandError(`${period.error}\n\n${usage}`);
  const dir = path.resolve(values.dir ?? '.');
  await withDatabase(async () => {
    const settings = await readAccountingSettings();
    const exported = await accountingExport(period.period, settings, values.csv ? 'csv' : 'fec', 'system');
    if (!exported.ok) throw new CommandError(exported.error);
    const { file } = exported;
    const target = path.join(dir, file.fileName);
    // Written beside, then renamed: an interrupted run never leaves a file that looks complete.
    const partial = `${target}.partiel`;
    try {
      await pipeline(Readable.fromWeb(file.body as WebReadableStream<Uint8Array>), createWriteStream(partial));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    console.log(`Fichier écrit\u00a0: ${target} (du ${period.period.from} au ${period.period.to})`);
  });
}

main().catch(reportFailure);
