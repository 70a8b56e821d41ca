import type { Server } from 'node:http';
import type { ServerBuild } from 'react-router';
import { issueSetupCode } from '~/server/auth/setup-code.server';
import { closeDatabase } from '~/server/db/client.server';
import { DataDirBusyError } from '~/server/db/embedded.server';
import { type OpenedDatabase, openDatabase } from '~/server/db/open.server';
// The plateforme agréée's deposits and statuses (docs/plateforme-agreee.md).
import { startPaWorker, stopPaWorker } from '~/server/einvoicing/pa-worker.server';
import { checkMailHoldAtStart } from '~/server/email/mail-hold.server';
import { startEmailWorker, stopEmailWorker } from '~/server/email/worker.server';
import { parseEnv } from '~/server/env.server';
import { startFilePreviews, stopFilePreviews } from '~/server/files/previews.server';
import { checkFileStorage } from '~/server/files/storage.server';
import { log } from '~/server/log.server';
import { startObservability, stopObservability } from '~/server/observability/start.server';
import { startOrderHousekeeping, stopOrderHousekeeping } from '~/server/orders/housekeeping.server';
import { getCardAvailability, isDemoShopRunning } from '~/server/payments/sandbox-mode.server';
import { ensureAppSecret, requireSharedAppSecret } from '~/server/secrets.server';
import { ensureDefaultPriceList } from '~/server/seed/price-list.server';
import { startSharedCaches, stopSharedCaches } from '~/server/shared-caches.server';
import { createApp } from './app';
import { answerClientErrorsInFrench } from './client-errors';
import { drainable } from './drain';
import { failStart, listenFailure, onFailedStart } from './start-failure';

// What server/start.js calls when serve() throws: the copy of start-failure.ts that serve() filled.
export { failStart, startFailure } from './start-failure';

/*
 * The production server: the entry of the server bundle (vite.config.ts builds build/server/index.js
 * from this file), so that the startup, the Express app, the background workers and the pages share
 * one copy of each app/server module (docs/decisions/033). `npm start` (server/start.js) checks that
 * build/ is fresh, loads the bundle and calls serve(): validate the environment, open (or start) the
 * database and migrate it, start the workers, serve the pages, and shut down cleanly on SIGTERM/SIGINT.
 */

function fail(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

export async function serve(): Promise<void> {
  let env: ReturnType<typeof parseEnv>;
  try {
    env = parseEnv();
  } catch (error) {
    fail((error as Error).message);
  }
  // Metrics, error reporting (docs/operations.md « Observability »): only what is configured.
  await startObservability(env);

  await ensureAppSecret(env.DATA_DIR);

  let database: OpenedDatabase;
  try {
    database = await openDatabase({ role: 'server', databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  } catch (error) {
    if (error instanceof DataDirBusyError) fail(error.message);
    throw error;
  }
  // From here on a failed start stops what it started: no embedded PostgreSQL is left running.
  onFailedStart(() => database.stop());
  onFailedStart(closeDatabase);

  // Same APP_SECRET as the other instances of this database (else stop: docs/operations.md), and their
  // cache invalidations heard through LISTEN/NOTIFY.
  await requireSharedAppSecret().catch(async (error: Error) => {
    await database.stop();
    fail(error.message);
  });
  await startSharedCaches();
  // The customers' files: the bucket answers (S3_*), or FILES_DIR (default DATA_DIR/files) can be written.
  await checkFileStorage().catch(async (error: Error) => {
    await database.stop();
    fail(error.message);
  });

  // A shop always has a price list: the defaults until the back office publishes one.
  await ensureDefaultPriceList();
  // Outgoing e-mail held on a restored or copied database until an operator releases it: said
  // here, before the worker starts (app/server/email/mail-hold.server.ts, decision 041).
  await checkMailHoldAtStart({ dataDir: database.embedded ? env.DATA_DIR : null });
  startEmailWorker();
  startFilePreviews();
  startOrderHousekeeping();
  startPaWorker();
  onFailedStart(async () => {
    await stopPaWorker();
    await stopOrderHousekeeping();
    await stopEmailWorker();
    await stopFilePreviews();
  });
  await warnAboutPayments();

  // The pages, from this same bundle (React Router's virtual module): loaded once the database is
  // open and the workers run, as before, so that no page module runs its top level any earlier.
  const build = (await import('virtual:react-router/server-build')) as ServerBuild;
  const app = createApp({ mode: 'production', build });

  const server: Server = app.listen(env.PORT, env.HOST, async (error?: Error) => {
    // Express 5 calls back on a listen error too: the 'error' handler below answers it.
    if (error) return;
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.PORT;
    const url = env.BASE_URL ?? `http://localhost:${port}`;
    log.info({ port, embeddedDatabase: database.embedded }, 'Soovenirs is listening');
    console.log(`\nSoovenirs est en ligne : ${url}`);
    // The setup code goes to this terminal only (never to the JSON log): it lets whoever sees it claim the shop.
    const setupCode = await issueSetupCode();
    if (setupCode) {
      console.log(
        'Aucun administrateur pour le moment. Créez le premier :\n' +
          `  - dans le navigateur : ${url}/setup-super-admin, avec le code d’installation ${setupCode}\n` +
          '  - ou en ligne de commande : npm run admin:create -- --email vous@exemple.fr --password "…"\n',
      );
    }
  });
  answerClientErrorsInFrench(server);
  // Counts the requests under way, for a stop that answers them all (server/drain.ts).
  const drainer = drainable(server);
  server.on('error', (error) => void failStart(listenFailure(error, env.HOST, env.PORT), error));

  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    // Stop taking requests, answer those under way (SHUTDOWN_GRACE_SECONDS at most), end the event
    // streams with a reconnect hint (server/drain.ts); then the workers finish what they hold (the
    // e-mail being sent, the preview being made, the housekeeping pass), and the database closes.
    log.info({ signal }, 'shutting down');
    await drainer.drain(env.SHUTDOWN_GRACE_SECONDS * 1000);
    await Promise.all([stopOrderHousekeeping(), stopEmailWorker(), stopFilePreviews(), stopPaWorker()]);
    log.info('shutting down: workers stopped');
    await stopSharedCaches();
    await closeDatabase();
    await database.stop();
    await stopObservability();
    log.info('stopped');
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** An operator must learn at start that customers cannot pay by card, or that nobody pays for real. */
async function warnAboutPayments() {
  const card = await getCardAvailability();
  if (!card.available) {
    log.warn(
      { reason: card.reason },
      card.reason === 'sandbox-disabled'
        ? 'card payment unavailable: the payment sandbox is off in production (PAYMENT_SANDBOX) and no real gateway is configured; configure Stripe or Monetico in the back office'
        : 'card payment unavailable: the chosen payment gateway lacks its keys; complete them in the back office',
    );
  }
  if (isDemoShopRunning())
    log.warn('PAYMENT_SANDBOX=on: demo shop, the payment sandbox takes test payments and no real money');
}
