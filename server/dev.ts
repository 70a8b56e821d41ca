// `npm run dev`: the same Express server with Vite in middleware mode (hot reload), on the same
// database setup as `npm start`.
process.env.NODE_ENV ??= 'development';

const { createServer } = await import('vite');

// Vite exits the process on SIGTERM (after closing itself): the embedded PostgreSQL would outlive
// it. Its handler is dropped; the server's shutdown (server/develop.ts) closes Vite and then the database.
const signalHandlers = process.listeners('SIGTERM');
const vite = await createServer({ server: { middlewareMode: true } });
for (const handler of process.listeners('SIGTERM')) {
  if (!signalHandlers.includes(handler)) process.off('SIGTERM', handler);
}

// Everything else through Vite, like the pages: one copy of each app/server module in this process
// (docs/decisions/033). Nothing here imports app/server itself.
const { develop } = (await vite.ssrLoadModule('/server/develop.ts')) as typeof import('./develop');
await develop(vite);

export {};
