import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { closeDatabase } from '~/server/db/client.server';
import { configureSmtpFor } from '~/server/email/testing/fixtures';
import { startTestSmtpServer, type TestSmtpServer } from '~/server/email/testing/smtp-test-server';
import { startServer, type TestServer } from './server';
import { routeSharedSmtp, type SharedServer, sharedServer } from './shared-shop';

/** A query that never answers fails after 30 s instead of holding the test to its time-out. */
function assertionClient(connectionString: string): pg.Client {
  return new pg.Client({ connectionString, query_timeout: 30_000 });
}

export interface ServerWithSmtp {
  server: TestServer;
  /** The real SMTP peer the server delivers to (STARTTLS, self-signed). */
  smtp: TestSmtpServer;
  /** A connection to the server's database, for assertions. */
  db: pg.Client;
  dispose(): Promise<void>;
}

/**
 * The real server with its e-mail configuration saved (encrypted with the server's own secret) and
 * pointing at an in-process SMTP peer: what the shop owner's settings page would have done.
 */
export async function startServerWithSmtp(env: Record<string, string> = {}): Promise<ServerWithSmtp> {
  const appSecret = randomBytes(32).toString('hex');
  const smtp = await startTestSmtpServer({ mode: 'starttls' });
  const server = await startServer({
    env: {
      APP_SECRET: appSecret,
      // The saved configuration says port 587; the test peer listens elsewhere, self-signed.
      SMTP_CONNECT_PORT: String(smtp.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      ...env,
    },
  });
  // configureSmtpFor writes through this process's database module, into the server's database.
  process.env.DATABASE_URL = server.databaseUrl;
  process.env.APP_SECRET = appSecret;
  await configureSmtpFor(smtp, 'starttls');
  const db = assertionClient(server.databaseUrl);
  await db.connect();
  return {
    server,
    smtp,
    db,
    async dispose() {
      await db.end();
      await closeDatabase();
      await server.dispose();
      await smtp.stop();
    },
  };
}

export interface SharedServerWithSmtp extends Omit<ServerWithSmtp, 'server'> {
  server: SharedServer;
}

/**
 * startServerWithSmtp on the worker's shared server (tests/support/shared-shop.ts): this file's
 * own SMTP peer, reached through the worker's relay; the e-mail configuration saved again (the same
 * for every file). Mail that a previous file's test left in the outbox may reach this peer: a test
 * looks for its own recipients' messages (`smtp.waitForMail(to, …)`), never counts them all.
 */
export async function sharedServerWithSmtp(env: Record<string, string> = {}): Promise<SharedServerWithSmtp> {
  const smtp = await startTestSmtpServer({ mode: 'starttls' });
  const [server] = await Promise.all([sharedServer(env, { smtp: true }), routeSharedSmtp(smtp.port)]);
  process.env.DATABASE_URL = server.databaseUrl;
  process.env.APP_SECRET = server.appSecret;
  await configureSmtpFor(smtp, 'starttls');
  const db = assertionClient(server.databaseUrl);
  await db.connect();
  return {
    server,
    smtp,
    db,
    async dispose() {
      await db.end();
      await closeDatabase();
      await smtp.stop();
    },
  };
}
