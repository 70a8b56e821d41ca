import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DataDirBusyError } from '../app/server/db/embedded.server';
import { openDatabase } from '../app/server/db/open.server';
import { parseEnv } from '../app/server/env.server';

/*
 * node --import tsx scripts/db-url.ts
 * Prints the connection URL of the shop's database on stdout (for pg_dump, pg_restore, psql):
 * DATABASE_URL when set, else the embedded PostgreSQL of DATA_DIR. When no server is running, the
 * embedded PostgreSQL is started and kept running until Ctrl-C, so that a backup can be restored
 * while the shop is stopped (docs/operations.md). Messages go to stderr, the URL alone to stdout.
 */

const usage = `Usage : node --import tsx scripts/db-url.ts

Affiche l’URL de connexion de la base de la boutique (DATABASE_URL, ou la PostgreSQL embarquée de
DATA_DIR). Si le serveur ne tourne pas, démarre la base embarquée et la garde ouverte jusqu’à Ctrl-C.`;

const { values } = parseArgs({ options: { help: { type: 'boolean', short: 'h' } }, strict: true });
if (values.help) {
  console.log(usage);
  process.exit(0);
}

try {
  const env = parseEnv();
  const database = await openDatabase({ role: 'script', databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  // The owner's: pg_restore and the operator's psql need it, not the role the shop runs as.
  console.log(database.ownerUrl);
  // With a cluster started here (embedded, no server running), keep it up for the operator.
  const owned = database.embedded && (await holdsDataDir(env.DATA_DIR));
  if (owned) {
    console.error('Base embarquée démarrée pour cette commande : Ctrl-C pour l’arrêter.');
    const stop = async () => {
      await database.stop();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    setInterval(() => {}, 60_000);
  }
} catch (error) {
  console.error(error instanceof DataDirBusyError || error instanceof Error ? error.message : error);
  process.exitCode = 1;
}

/** Whether DATA_DIR/server.json names this process: the cluster was started here, not by a server. */
async function holdsDataDir(dataDir: string): Promise<boolean> {
  try {
    const holder = JSON.parse(await readFile(path.resolve(dataDir, 'server.json'), 'utf8')) as { pid: number };
    return holder.pid === process.pid;
  } catch {
    return false;
  }
}
