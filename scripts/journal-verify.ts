import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { formatEurosFromCents } from '../app/domain/format';
import { verifyArchive } from '../app/domain/payment-journal/archive';
import { describeProblem } from '../app/domain/payment-journal/verify';
import { verifyJournal } from '../app/server/payment-journal/journal.server';
import { CommandError, readArguments, reportFailure, withDatabase } from './database';

/*
 * npm run journal:verify [-- --archive FILE [--fingerprint HEX]]
 * The payment journal's verification (docs/payment-journal.md, « Verification »): the chain and the
 * closures recomputed from the database, or an archive file checked offline (its signature, its
 * chain, its closures). Exit 0 with a summary, 1 naming the first bad entry or closure.
 */

const usage = `Usage\u00a0: npm run journal:verify [-- --archive FICHIER [--fingerprint EMPREINTE]]

Vérifie le journal des paiements\u00a0: recalcule la chaîne des écritures et les clôtures.
  (sans option)               depuis la base de données de la boutique
  --archive FICHIER           une archive exportée, hors ligne (signature, chaîne, clôtures)
  --fingerprint EMPREINTE     l’empreinte SHA-256 attendue de la clé publique de la boutique
Code de sortie 0 si tout concorde, 1 en nommant la première écriture ou clôture en défaut.
Base de données\u00a0: DATABASE_URL si défini, sinon la PostgreSQL embarquée de DATA_DIR (./data).`;

function parse() {
  return parseArgs({
    options: {
      archive: { type: 'string' },
      fingerprint: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}

async function verifyFile(file: string, fingerprint: string | undefined): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    throw new CommandError(`Archive illisible (${file})\u00a0: ${(error as Error).message}`);
  }
  const result = verifyArchive(bytes, fingerprint);
  if (!result.ok) {
    throw new CommandError(
      `Archive NON conforme\u00a0: ${result.reason}${result.problem ? `\n${describeProblem(result.problem)}` : ''}`,
    );
  }
  const { manifest, chain } = result;
  console.log(
    `Archive conforme\u00a0: du ${manifest.from} au ${manifest.to}, ${chain.count} écriture(s)` +
      (chain.firstSeq === null ? '' : ` (n° ${chain.firstSeq} à ${chain.lastSeq})`) +
      `, ${result.closures} clôture(s), signature Ed25519 valide.\nClé publique (empreinte SHA-256)\u00a0: ${manifest.keyFingerprint}`,
  );
}

async function main(): Promise<void> {
  const parsed = readArguments(parse, usage);
  if (!parsed) return;
  const { archive, fingerprint } = parsed.values;
  if (archive) {
    await verifyFile(archive, fingerprint);
    return;
  }
  await withDatabase(async () => {
    const result = await verifyJournal();
    if (!result.ok) throw new CommandError(`Journal des paiements NON conforme\u00a0: ${result.message}`);
    console.log(
      `Journal des paiements conforme\u00a0: ${result.entries} écriture(s)` +
        (result.lastSeq === null ? '' : ` (n° 1 à ${result.lastSeq}, tête ${result.headHash})`) +
        `, ${result.closures} clôture(s) recalculée(s)` +
        (result.perpetualCents === null
          ? '.'
          : `, total perpétuel à la dernière clôture\u00a0: ${formatEurosFromCents(result.perpetualCents)}.`),
    );
  });
}

main().catch(reportFailure);
