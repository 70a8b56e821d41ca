import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { keyFingerprint } from '../app/domain/payment-journal/archive';
import {
  ArchivePeriodError,
  archiveFileName,
  exportJournalArchive,
} from '../app/server/payment-journal/archive.server';
import { CommandError, readArguments, reportFailure, withDatabase } from './database';

/*
 * npm run journal:archive -- --from AAAA-MM-JJ --to AAAA-MM-JJ [--out FICHIER]
 * The signed archive of a period of the payment journal (docs/payment-journal.md, « Archives »),
 * the same file as the back office's « Journal des paiements » exports.
 */

const usage = `Usage\u00a0: npm run journal:archive -- --from AAAA-MM-JJ --to AAAA-MM-JJ [--out FICHIER]

Exporte les écritures et les clôtures du journal des paiements d’une période (jours de Paris,
inclus), signées par la clé Ed25519 de la boutique. Vérification\u00a0: npm run journal:verify -- --archive FICHIER
  --out FICHIER   où l’écrire (par défaut journal-paiements_DEBUT_FIN.jsonl dans le dossier courant)
Base de données\u00a0: DATABASE_URL si défini, sinon la PostgreSQL embarquée de DATA_DIR (./data).`;

function parse() {
  return parseArgs({
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}

async function main(): Promise<void> {
  const parsed = readArguments(parse, usage);
  if (!parsed) return;
  const { from, to, out } = parsed.values;
  if (!from || !to) throw new CommandError(`Les options --from et --to sont obligatoires.\n\n${usage}`);
  const file = path.resolve(out ?? archiveFileName(from, to));
  await withDatabase(async () => {
    let text: string;
    try {
      text = await exportJournalArchive(from, to);
    } catch (error) {
      if (error instanceof ArchivePeriodError) throw new CommandError(error.message);
      throw error;
    }
    await fs.writeFile(file, text, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      throw new CommandError(
        error.code === 'EEXIST' ? `${file} existe déjà\u00a0: rien n’a été écrit.` : `${file}\u00a0: ${error.message}`,
      );
    });
    const manifest = JSON.parse(text.slice(0, text.indexOf('\n'))) as {
      entryCount: number;
      closureCount: number;
      publicKey: string;
    };
    console.log(
      `Archive écrite\u00a0: ${file} (${manifest.entryCount} écriture(s), ${manifest.closureCount} clôture(s)).\n` +
        `Clé publique (empreinte SHA-256)\u00a0: ${keyFingerprint(manifest.publicKey)}`,
    );
  });
}

main().catch(reportFailure);
