import { createHash, randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { db } from '../db/client.server';
import { setupCode } from '../db/schema';
import { countAdmins } from '../users.server';

/*
 * The one-time setup code of /setup-super-admin (docs/product.md, « Security »): whoever reaches a new
 * shop's port first must not become its administrator. While the shop has no administrator, each
 * server start draws a code, keeps its SHA-256 in `setup_code` and prints the code on its own
 * standard output (server/serve.ts), nowhere else. Every code in the table is valid, so several
 * instances on one database each print one that works. Creating the first administrator (the page
 * or `npm run admin:create`) deletes them all (seed/admin.server.ts).
 */

/** No 0/O, 1/I/L: read from a terminal and typed by hand. 12 characters of 31: about 59 bits. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 12;

export function normalizeSetupCode(typed: string): string {
  return typed.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

function hashCode(code: string): string {
  return createHash('sha256').update(normalizeSetupCode(code)).digest('hex');
}

/** A fresh code, grouped by four for reading: ABCD-EFGH-JKMN. */
export function generateSetupCode(): string {
  const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return [0, 4, 8].map((start) => chars.slice(start, start + 4).join('')).join('-');
}

/** At start: a new code while the shop has no administrator (its hash stored), otherwise null. */
export async function issueSetupCode(): Promise<string | null> {
  if ((await countAdmins()) > 0) return null;
  const code = generateSetupCode();
  await db()
    .insert(setupCode)
    .values({ codeHash: hashCode(code) });
  return code;
}

export async function isValidSetupCode(typed: string): Promise<boolean> {
  if (normalizeSetupCode(typed).length !== LENGTH) return false;
  const [row] = await db()
    .select({ hash: setupCode.codeHash })
    .from(setupCode)
    .where(eq(setupCode.codeHash, hashCode(typed)))
    .limit(1);
  return Boolean(row);
}

/** Attempts at the setup page per client address and window (counted in PostgreSQL, shared by instances). */
export const SETUP_ATTEMPTS = { max: 10, windowMs: 15 * 60 * 1000 };

/**
 * Counts one attempt of this client at the setup page and says whether it is over the limit. Kept
 * in Better Auth's `rate_limit` table under a key of ours (Better Auth never reads it).
 */
export async function setupAttemptLimited(client: string): Promise<boolean> {
  const now = Date.now();
  const key = `setup-super-admin:${client}`;
  const windowStart = now - SETUP_ATTEMPTS.windowMs;
  const result = await db().execute<{ count: number }>(sql`
    insert into rate_limit (id, key, count, last_request) values (${crypto.randomUUID()}, ${key}, 1, ${now})
    on conflict (key) do update set
      count = case when rate_limit.last_request < ${windowStart} then 1 else rate_limit.count + 1 end,
      last_request = case when rate_limit.last_request < ${windowStart} then ${now} else rate_limit.last_request end
    returning count`);
  const count = Number(result.rows[0]?.count ?? 0);
  return count > SETUP_ATTEMPTS.max;
}
