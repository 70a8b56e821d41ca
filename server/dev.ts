// `npm run dev`: the same Express server with Vite in middleware mode (hot reload), on the same
// database setup as `npm start`.
process.env.NODE_ENV ??= 'development';

const { createServer } = await import('vite');
const { parseEnv } = await import('~/server/env.server');
const { openDatabase } = await import('~/server/db/open.server');
const { ensureAppSecret } = await import('~/server/secrets.server');
const { createApp } = await import('./app');
const { startEmailWorker, stopEmailWorker } = await import('~/server/email/worker.server');
const { startOrderHousekeeping, stopOrderHousekeeping } = await import('~/server/orders/housekeeping.server');
const { ensureDefaultPriceList } = await import('~/server/seed/price-list.server');
const { failStart, listenFailure, onFailedStart, startFailure } = await import('./start-failure');

const env = parseEnv();
await ensureAppSecret(env.DATA_DIR);
const database = await openDatabase({ role: 'server', databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
onFailedStart(() => database.stop());
try {
  await ensureDefaultPriceList();
} catch (error) {
  await failStart(startFailure(error), error);
}
startEmailWorker();
startOrderHousekeeping();

// Vite exits the process on SIGTERM (after closing itself): the embedded PostgreSQL would outlive
// it. Its handler is dropped; shutdown() below closes Vite and then the database.
const signalHandlers = process.listeners('SIGTERM');
const vite = await createServer({ server: { middlewareMode: true } });
for (const handler of process.listeners('SIGTERM')) {
  if (!signalHandlers.includes(handler)) process.off('SIGTERM', handler);
}
onFailedStart(() => vite.close());

const app = createApp({ mode: 'development', vite });
const server = app.listen(env.PORT, env.HOST, (error?: Error) => {
  // Express 5 calls back on a listen error too: the 'error' handler below answers it.
  if (!error) console.log(`Soovenirs (développement) : http://localhost:${env.PORT}`);
});
server.on('error', (error) => void failStart(listenFailure(error, env.HOST, env.PORT), error));

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  server.close();
  stopOrderHousekeeping();
  await stopEmailWorker();
  await vite.close();
  await database.stop();
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

export {};
