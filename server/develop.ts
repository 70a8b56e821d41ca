import type { ViteDevServer } from 'vite';
import { openDatabase } from '~/server/db/open.server';
import { startEmailWorker, stopEmailWorker } from '~/server/email/worker.server';
import { parseEnv } from '~/server/env.server';
import { startOrderHousekeeping, stopOrderHousekeeping } from '~/server/orders/housekeeping.server';
import { ensureAppSecret } from '~/server/secrets.server';
import { ensureDefaultPriceList } from '~/server/seed/price-list.server';
import { createApp } from './app';
import { failStart, listenFailure, onFailedStart, startFailure } from './start-failure';

/*
 * `npm run dev`'s server, loaded by server/dev.ts through Vite (ssrLoadModule), as the pages are:
 * the startup, the workers and the pages share one copy of each app/server module, as in the
 * production bundle (docs/decisions/033). The same database setup as `npm start`.
 *
 * Vite runs an edited module again on the next request that needs it, with fresh module state: an
 * edited worker module no longer reaches the worker started here (it still polls, and stops with the
 * server); restart `npm run dev` after changing a worker.
 */
export async function develop(vite: ViteDevServer): Promise<void> {
  onFailedStart(() => vite.close());
  try {
    await start(vite);
  } catch (error) {
    await failStart(startFailure(error), error);
  }
}

async function start(vite: ViteDevServer) {
  const env = parseEnv();
  await ensureAppSecret(env.DATA_DIR);
  const database = await openDatabase({ role: 'server', databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  onFailedStart(() => database.stop());
  await ensureDefaultPriceList();
  startEmailWorker();
  startOrderHousekeeping();

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
    await stopOrderHousekeeping();
    await stopEmailWorker();
    await vite.close();
    await database.stop();
    process.exit(0);
  }
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
