import { NBSP } from '~/domain/format';
import { log } from '~/server/log.server';

/*
 * A start that fails after it opened something (the embedded PostgreSQL above all) must close it:
 * otherwise the next `npm start` finds a PostgreSQL that nobody supervises, and an operator who
 * fixed the port has a stray process to hunt. `npm start` registers what to undo as it goes.
 */

const undo: Array<() => Promise<void>> = [];
let failing = false;

export function onFailedStart(cleanup: () => Promise<void>): void {
  undo.push(cleanup);
}

/** Says why in French on the console, undoes the start (latest first), exits with code 1. */
export async function failStart(message: string, error?: unknown): Promise<never> {
  if (!failing) {
    failing = true;
    log.error({ err: error }, 'the server could not start: stopping what it started');
    console.error(`\n${message}\n`);
    for (const cleanup of undo.reverse()) {
      try {
        await cleanup();
      } catch (cleanupError) {
        log.error({ err: cleanupError }, 'undoing a failed start failed');
      }
    }
    process.exit(1);
  }
  // A second failure while the first is being undone waits for that exit.
  return new Promise<never>(() => {});
}

/** What an operator reads when the server cannot take its port. */
export function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): string {
  if (error.code === 'EADDRINUSE') {
    return `Le port ${port} est déjà utilisé sur ${host}${NBSP}: arrêtez le programme qui l’occupe ou choisissez un autre port (variable PORT).`;
  }
  if (error.code === 'EACCES') {
    return `Le port ${port} demande des droits d’administrateur${NBSP}: choisissez un port au-dessus de 1024 (variable PORT) et placez un proxy devant.`;
  }
  return `Le serveur ne peut pas écouter sur ${host}:${port}${NBSP}: ${error.message}`;
}

/** Anything else that stops a start (a failed migration, a broken build…). */
export function startFailure(error: unknown): string {
  return `Soovenirs n’a pas pu démarrer${NBSP}: ${error instanceof Error ? error.message : String(error)}`;
}
