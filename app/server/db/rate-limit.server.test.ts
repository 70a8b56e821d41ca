import { describe, expect, it } from 'vitest';
import { pool } from './client.server';
import { countHit, createSharedRateLimiter, pruneExpiredHits } from './rate-limit.server';

// The counters live in PostgreSQL: two limiters (as in two instances) share them.

describe('the shared rate limit', () => {
  it('allows the limit in a window across limiters sharing the database, then refuses', async () => {
    const options = { name: 'contact-test', limit: () => 5, windowMs: 10 * 60_000 };
    const first = createSharedRateLimiter(options);
    const second = createSharedRateLimiter(options);
    const results = [];
    for (let i = 0; i < 7; i++) results.push(await (i % 2 === 0 ? first : second).hit('203.0.113.7'));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(results.map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    // Another address, another counter; the window ends within its length.
    expect((await first.hit('198.51.100.2')).allowed).toBe(true);
    const resetIn = (results[0]?.resetAt.getTime() ?? 0) - Date.now();
    expect(resetIn).toBeGreaterThan(0);
    expect(resetIn).toBeLessThanOrEqual(10 * 60_000 + 1000);
    await first.reset('203.0.113.7');
    expect((await second.hit('203.0.113.7')).allowed).toBe(true);
  });

  it('counts concurrent hits exactly (one upsert per hit)', async () => {
    const day = 24 * 3_600_000; // a window no test run straddles (but at midnight UTC)
    const hits = await Promise.all(Array.from({ length: 20 }, () => countHit('burst:192.0.2.1', day)));
    expect(hits.map((h) => h.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('weighs the previous window by how much of it the sliding window still covers', async () => {
    const day = 86_400;
    await pool().query(
      `insert into rate_limit_hits (key, window_start, hits, expires_at)
       values ('slide:192.0.2.8', to_timestamp(floor(extract(epoch from now()) / ${day}) * ${day}) - interval '1 day', 5,
               now() + interval '1 day')`,
    );
    const counted = await countHit('slide:192.0.2.8', day * 1000);
    const { rows } = await pool().query<{ elapsed: number }>(
      `select (extract(epoch from now())::float8 / ${day}) - floor(extract(epoch from now())::float8 / ${day}) as elapsed`,
    );
    expect(counted.hits).toBe(1);
    expect(counted.estimate).toBeCloseTo(1 + 5 * (1 - (rows[0]?.elapsed ?? 0)), 2);
    // Five messages just before a window ends and a sixth just after are six, not one.
    const limiter = createSharedRateLimiter({ name: 'edge', limit: () => 5, windowMs: day * 1000 });
    await pool().query(
      `insert into rate_limit_hits (key, window_start, hits, expires_at)
       values ('edge:192.0.2.9', to_timestamp(floor(extract(epoch from now()) / ${day}) * ${day}) - interval '1 day', 5,
               now() + interval '1 day'),
              ('edge:192.0.2.9', to_timestamp(floor(extract(epoch from now()) / ${day}) * ${day}), 4, now() + interval '1 day')`,
    );
    expect((await limiter.hit('192.0.2.9')).allowed).toBe(false);
  });

  it('starts a new window once the previous one ended, and prunes the expired rows', async () => {
    await pool().query(
      `insert into rate_limit_hits (key, window_start, hits, expires_at)
       values ('old:192.0.2.9', now() - interval '2 minutes', 99, now() - interval '1 minute')`,
    );
    // 99 hits in an ended window do not count in the current one.
    expect((await countHit('old:192.0.2.9', 60_000)).hits).toBe(1);
    expect(await pruneExpiredHits()).toBeGreaterThanOrEqual(1);
    const { rows } = await pool().query(`select hits from rate_limit_hits where key = 'old:192.0.2.9'`);
    expect(rows).toEqual([{ hits: 1 }]);
  });

  it('lets the request through when the database does not answer in time', async () => {
    const limiter = createSharedRateLimiter({ name: 'slow', limit: () => 1, windowMs: 60_000, timeoutMs: 50 });
    const client = await pool().connect();
    try {
      // Hold a lock on the table so that the upsert waits (as it would for an unreachable database).
      await client.query('begin');
      await client.query('lock table rate_limit_hits in access exclusive mode');
      const results = [await limiter.hit('192.0.2.50'), await limiter.hit('192.0.2.50')];
      expect(results.map((r) => r.allowed)).toEqual([true, true]);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
