import { createHash, randomBytes } from 'node:crypto';

/*
 * Bearer tokens for what a guest may open without an account: a saved quote (its private link
 * /devis/<token>) here, an order (cookie `sv_order_<id>`) in access.server.ts, with the same recipe:
 * 32 random bytes, base64url; only the SHA-256 (hex of the token's text) is stored, so a database
 * leak gives no access.
 */

export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Tokens we issue are 43 base64url characters; anything else is not worth a database lookup. */
export function looksLikeAccessToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
