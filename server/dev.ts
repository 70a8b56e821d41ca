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

const env = parseEnv();
await ensureAppSecret(env.DATA_DIR);
const database = await openDatabase({ role: 'server', databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
await ensureDefaultPriceList();
startEmailWorker();
startOrderHousekeeping();
const vite = await createServer({ server: { middlewareMode: true } });
const app = createApp({ mode: 'development', vite });
const server = app.listen(env.PORT, env.HOST, () =>
  console.log(`Soovenirs (développement) : http://localhost:${env.PORT}`),
);

async function shutdown() {
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
