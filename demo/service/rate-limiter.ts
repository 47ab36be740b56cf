import type { Clock } from './clock.ts';
import type { ServiceDatabase } from './database.ts';

/** The outcome of taking one request from a bucket. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A rolling-window limiter: at most `limit` requests per `windowMs` per bucket. */
export interface RateLimiter {
  take(bucket: string, limit: number): RateDecision;
}

/**
 * A sliding-log limiter kept in the service database, so that a restart does not hand out a
 * fresh minute. Only allowed requests are logged: a client that keeps hammering is not locked
 * out for longer than the window.
 */
export function createRateLimiter(database: ServiceDatabase, clock: Clock, windowMs = 60_000): RateLimiter {
  const prune = database.prepare('DELETE FROM limits.rate_hits WHERE bucket = ? AND at <= ?');
  const count = database.prepare<[string, number], { hits: number; oldest: number | null }>(
    'SELECT count(*) AS hits, min(at) AS oldest FROM limits.rate_hits WHERE bucket = ? AND at > ?',
  );
  const insert = database.prepare('INSERT INTO limits.rate_hits (bucket, at) VALUES (?, ?)');
  const take = database.transaction((bucket: string, limit: number): RateDecision => {
    const now = clock.now();
    const since = now - windowMs;
    prune.run(bucket, since);
    const { hits, oldest } = count.get(bucket, since) as { hits: number; oldest: number | null };
    if (hits >= limit) {
      const freeAt = (oldest ?? now) + windowMs;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
    }
    insert.run(bucket, now);
    return { allowed: true };
  });
  return { take: (bucket, limit) => take(bucket, limit) };
}
