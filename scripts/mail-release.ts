import { parseArgs } from 'node:util';
import { readMailHold, releaseMail } from '../app/server/email/mail-hold.server';
import { readArguments, reportFailure, withDatabase } from './database';

/*
 * npm run mail:release [-- --discard-copied]
 * Lifts the hold on outgoing e-mail that a restored or copied database starts with
 * (app/server/email/mail-hold.server.ts): the running instances send again within a poll. The same
 * as the back office's banner, for an operator at the console.
 */

const usage = `Usage\u00a0: npm run mail:release [-- --discard-copied]

Libère les e-mails sortants retenus sur une copie restaurée (ou copiée) de la boutique.
  (sans option)      tous les e-mails en attente partent, y compris ceux qui attendaient dans la sauvegarde
  --discard-copied   ceux qui attendaient dans la sauvegarde sont écartés (marqués en échec, toujours
                     visibles et renvoyables un par un depuis le back-office), les plus récents partent
Base de données\u00a0: DATABASE_URL si défini, sinon la PostgreSQL embarquée de DATA_DIR (./data).`;

function parse() {
  return parseArgs({
    options: { 'discard-copied': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: false,
  });
}

async function main(): Promise<void> {
  const parsed = readArguments(parse, usage);
  if (!parsed) return;
  const discard = Boolean(parsed.values['discard-copied']);
  await withDatabase(async () => {
    const hold = await readMailHold();
    const result = await releaseMail(discard ? 'discard-copied' : 'send');
    if (!hold || !result.released) {
      console.log('Les e-mails sortants ne sont pas retenus\u00a0: rien à libérer.');
      return;
    }
    const origin = hold.reason === 'restore' ? `copie restaurée de ${hold.source}` : `base copiée (${hold.source})`;
    console.log(
      `E-mails sortants libérés (${origin}, retenus depuis le ${hold.since})\u00a0: ` +
        `${result.queued} e-mail(s) en attente partent maintenant` +
        (discard ? `, ${result.discarded} e-mail(s) de la sauvegarde écarté(s).` : '.'),
    );
  });
}

main().catch(reportFailure);
