import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type pg from 'pg';
import { log } from '../log.server';
import { pool } from './client.server';

/*
 * Rate limits counted in PostgreSQL, so that they hold across every instance sharing the database
 * (docs/operations.md, « Several instances »): one row per (key, window start) in the unlogged table
 * rate_limit_hits, counted by one upsert, and a sliding-window estimate from the previous window. The window starts are computed from the database's
 * clock, the same for every instance. Expired rows are deleted now and then by whichever process
 * counts.
 *
 * When the database does not answer, a limit lets the request through (fail open) after a short
 * wait: the contact form and the checkout then meet the outage themselves and say so, and the pages
 * that need no database keep answering (docs/decisions/007-database-outages.md).
 */

export interface RateLimitResult {
  allowed: boolean;
  /** Hits counted over the last window (sliding estimate, rounded up), this one included. */
  hits: number;
  remaining: number;
  /** When the window ends. */
  resetAt: Date;
}

type Queryable = Pick<pg.Pool, 'query'>;

const PRUNE_EVERY_MS = 60_000;
/** When this process last pruned (ms since the epoch). */
let lastPruneAt = 0;

export interface CountedHit {
  /** Hits in the current window, this one included. */
  hits: number;
  /**
   * The sliding-window estimate: this window's hits plus the previous window's weighted by how much
   * of it the last `windowMs` still covers. A burst across a window boundary counts in full, so
   * five messages at 9:59 and a sixth at 10:00 are six, not one.
   */
  estimate: number;
  /** When the current window ends. */
  resetAt: Date;
}

/** Counts one hit of `key` in the current window of `windowMs` (the database's clock). */
export async function countHit(key: string, windowMs: number, client: Queryable = pool()): Promise<CountedHit> {
  const { rows } = await client.query<{ hits: number; previous: number; elapsed: number; reset_at: Date }>(
    `with w as (
       select to_timestamp(floor(extract(epoch from now())::float8 / $2::float8) * $2::float8) as start,
              (extract(epoch from now())::float8 / $2::float8) - floor(extract(epoch from now())::float8 / $2::float8)
                as elapsed
     ), hit as (
       insert into rate_limit_hits (key, window_start, hits, expires_at)
       select $1, w.start, 1, w.start + make_interval(secs => 2 * $2::float8) from w
       on conflict (key, window_start) do update set hits = rate_limit_hits.hits + 1
       returning hits
     )
     select hit.hits, w.elapsed, w.start + make_interval(secs => $2::float8) as reset_at,
            coalesce((select p.hits from rate_limit_hits p
                       where p.key = $1 and p.window_start = w.start - make_interval(secs => $2::float8)), 0) as previous
       from hit, w`,
    [key, windowMs / 1000],
  );
  const row = rows[0];
  if (!row) throw new Error('rate_limit_hits: the upsert returned no row');
  pruneNowAndThen(client);
  return { hits: row.hits, estimate: row.hits + row.previous * (1 - row.elapsed), resetAt: row.reset_at };
}

/**
 * The sliding-window estimate of `key` without counting a hit (0 when nothing was counted): for a
 * limit on failures, which every request must check but only a failure counts (a share's token).
 */
export async function peekHits(key: string, windowMs: number, client: Queryable = pool()): Promise<number> {
  const { rows } = await client.query<{ estimate: number }>(
    `with w as (
       select to_timestamp(floor(extract(epoch from now())::float8 / $2::float8) * $2::float8) as start,
              (extract(epoch from now())::float8 / $2::float8) - floor(extract(epoch from now())::float8 / $2::float8)
                as elapsed
     )
     select coalesce((select c.hits from rate_limit_hits c where c.key = $1 and c.window_start = w.start), 0)
          + coalesce((select p.hits from rate_limit_hits p
                       where p.key = $1 and p.window_start = w.start - make_interval(secs => $2::float8)), 0)
            * (1 - w.elapsed) as estimate
       from w`,
    [key, windowMs / 1000],
  );
  return Number(rows[0]?.estimate ?? 0);
}

/** Forgets the hits of `key` (all windows). */
export async function resetHits(key: string, client: Queryable = pool()): Promise<void> {
  await client.query('delete from rate_limit_hits where key = $1', [key]);
}

/** Deletes the counters of ended windows; returns how many. */
export async function pruneExpiredHits(client: Queryable = pool()): Promise<number> {
  const { rowCount } = await client.query('delete from rate_limit_hits where expires_at < now()');
  return rowCount ?? 0;
}

/** Prunes at most once a minute per process, without making the request wait. */
function pruneNowAndThen(client: Queryable): void {
  const now = Date.now();
  if (lastPruneAt > now - PRUNE_EVERY_MS) return;
  lastPruneAt = now;
  pruneExpiredHits(client).catch((error) =>
    log.warn({ err: error }, 'rate limits: expired counters could not be deleted'),
  );
}

/** Rejects after `ms`: a limiter waits for the database this long before letting the request pass. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface SharedRateLimiter {
  /** Counts a hit of `key`; never throws (an unreachable database lets the request through). */
  hit(key: string): Promise<RateLimitResult>;
  /** Whether `key` is already over the limit, without counting a hit; never throws (fails open). */
  isOver(key: string): Promise<boolean>;
  /** Whether `key` has used up its limit (the next hit would be over it); never throws (fails open). */
  isSpent(key: string): Promise<boolean>;
  reset(key: string): Promise<void>;
}

export function createSharedRateLimiter({
  name,
  limit,
  windowMs,
  timeoutMs = 2_000,
}: {
  /** Prefixes the keys (`contact:…`), so that limits never share counters. */
  name: string;
  /** Read on every hit, so that the environment variable of a test or an operator applies. */
  limit: () => number;
  windowMs: number;
  timeoutMs?: number;
}): SharedRateLimiter {
  const fullKey = (key: string) => `${name}:${key}`;
  /** Compares the hits counted so far with the limit, without counting one; fails open. */
  const peek = async (key: string, reached: (hits: number, max: number) => boolean) => {
    try {
      return reached(Math.ceil(await withTimeout(peekHits(fullKey(key), windowMs), timeoutMs)), limit());
    } catch (error) {
      log.warn({ err: error, limiter: name }, 'rate limit not read (database unavailable): request let through');
      return false;
    }
  };
  return {
    async hit(key) {
      const max = limit();
      try {
        const { estimate, resetAt } = await withTimeout(countHit(fullKey(key), windowMs), timeoutMs);
        const hits = Math.ceil(estimate);
        return { allowed: hits <= max, hits, remaining: Math.max(max - hits, 0), resetAt };
      } catch (error) {
        log.warn({ err: error, limiter: name }, 'rate limit not counted (database unavailable): request let through');
        return { allowed: true, hits: 0, remaining: max, resetAt: new Date(Date.now() + windowMs) };
      }
    },
    isOver: (key) => peek(key, (hits, max) => hits > max),
    isSpent: (key) => peek(key, (hits, max) => hits >= max),
    reset: (key) => resetHits(fullKey(key)),
  };
}

/**
 * The counters of express-rate-limit (server/app.ts, every form post) in PostgreSQL. Errors are
 * thrown: the middleware's passOnStoreError lets the request through and logs them.
 */
export class PostgresRateLimitStore implements Store {
  readonly localKeys = false;
  private windowMs = 60_000;

  constructor(
    readonly prefix: string,
    private readonly timeoutMs = 2_000,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const { estimate, resetAt } = await withTimeout(countHit(`${this.prefix}:${key}`, this.windowMs), this.timeoutMs);
    return { totalHits: Math.ceil(estimate), resetTime: resetAt };
  }

  async decrement(key: string): Promise<void> {
    await pool().query(
      `update rate_limit_hits set hits = greatest(hits - 1, 0)
        where key = $1 and window_start = (select max(window_start) from rate_limit_hits where key = $1)`,
      [`${this.prefix}:${key}`],
    );
  }

  async resetKey(key: string): Promise<void> {
    await resetHits(`${this.prefix}:${key}`);
  }
}
