import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * APP_SECRET signs sessions and encrypts stored secrets. When the operator did not set one, it is
 * generated once into DATA_DIR/app-secret and reused, so that restarts keep sessions valid.
 */
export async function ensureAppSecret(dataDir: string): Promise<string> {
  if (process.env.APP_SECRET) return process.env.APP_SECRET;
  const file = path.resolve(dataDir, 'app-secret');
  let secret: string;
  try {
    secret = (await fs.readFile(file, 'utf8')).trim();
  } catch {
    await fs.mkdir(path.dirname(file), { recursive: true });
    secret = randomBytes(32).toString('base64url');
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(async () => {
      secret = (await fs.readFile(file, 'utf8')).trim(); // another process won the race
    });
  }
  process.env.APP_SECRET = secret;
  return secret;
}
