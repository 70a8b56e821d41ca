import { closeDatabase } from '../app/server/db/client.server';
import { DataDirBusyError } from '../app/server/db/embedded.server';
import { type OpenedDatabase, openDatabase } from '../app/server/db/open.server';
import { parseEnv } from '../app/server/env.server';
import { AppSecretMismatchError, checkAppSecretFingerprint, ensureAppSecret } from '../app/server/secrets.server';

/** A failure to report to the operator in one line, without a stack trace. */
export class CommandError extends Error {
  override name = 'CommandError';
}

/**
 * A command's arguments as `parse` reads them, or null when `--help` was asked (the usage is then
 * printed). A wrong option stops the command with the message and the usage.
 */
export function readArguments<T extends { values: { help?: boolean } }>(parse: () => T, usage: string): T | null {
  let parsed: T;
  try {
    parsed = parse();
  } catch (error) {
    throw new CommandError(`${(error as Error).message}\n\n${usage}`);
  }
  if (parsed.values.help) {
    console.log(usage);
    return null;
  }
  return parsed;
}

/**
 * Runs a command against the shop's database: DATABASE_URL when set, else the embedded PostgreSQL
 * of DATA_DIR (the running server's, or started for the duration of the command), migrated first.
 * Always closes the pool and stops what it started, so that the process exits.
 */
export async function withDatabase<T>(run: (database: OpenedDatabase) => Promise<T>): Promise<T> {
  let env: ReturnType<typeof parseEnv>;
  try {
    env = parseEnv();
  } catch (error) {
    throw new CommandError((error as Error).message);
  }
  let opened: Awaited<ReturnType<typeof openDatabase>>;
  try {
    opened = await openDatabase({ role: 'script', databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  } catch (error) {
    if (error instanceof DataDirBusyError) throw new CommandError(error.message);
    const code = (error as { code?: string }).code;
    if (env.DATABASE_URL && code && ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', '28P01', '3D000'].includes(code)) {
      throw new CommandError(`Impossible d’ouvrir la base de données de DATABASE_URL : ${(error as Error).message}`);
    }
    throw error;
  }
  try {
    // A command writes what the server reads (stored passwords): it must use the shop's secret.
    if (!env.DATABASE_URL) await ensureAppSecret(env.DATA_DIR);
    await checkAppSecretFingerprint().catch((error) => {
      throw error instanceof AppSecretMismatchError ? new CommandError(error.message) : error;
    });
    return await run(opened);
  } finally {
    await closeDatabase();
    await opened.stop();
  }
}

/** Prints a failure and sets the exit code: one line for expected failures, the stack otherwise. */
export function reportFailure(error: unknown): void {
  if (error instanceof CommandError) console.error(`\n${error.message}\n`);
  else console.error(error);
  process.exitCode = 1;
}
