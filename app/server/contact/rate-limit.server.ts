/*
 * A sliding-window limiter kept in this process's memory: enough for the contact form of a shop
 * served by one process (several processes each allow the limit; server/app.ts keeps its wider
 * limit on every POST in front of it).
 */

export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
  now?: () => number;
  /** Keys remembered at most (the oldest are forgotten first), so that memory stays bounded. */
  maxKeys?: number;
}

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** When the oldest counted hit leaves the window (ms since epoch). */
  retryAt: number;
}

export interface RateLimiter {
  hit(key: string): RateLimitResult;
  reset(key?: string): void;
}

export function createRateLimiter({
  limit,
  windowMs,
  now = Date.now,
  maxKeys = 10_000,
}: RateLimiterOptions): RateLimiter {
  const hits = new Map<string, number[]>();
  return {
    hit(key) {
      const at = now();
      const recent = (hits.get(key) ?? []).filter((time) => time > at - windowMs);
      hits.delete(key);
      if (recent.length >= limit) {
        hits.set(key, recent);
        return { allowed: false, remaining: 0, retryAt: (recent[0] as number) + windowMs };
      }
      recent.push(at);
      hits.set(key, recent);
      if (hits.size > maxKeys) hits.delete(hits.keys().next().value as string);
      return { allowed: true, remaining: limit - recent.length, retryAt: (recent[0] as number) + windowMs };
    },
    reset(key) {
      if (key === undefined) hits.clear();
      else hits.delete(key);
    },
  };
}
