/**
 * Seconds of a notification's TTL left at `now`, never below 0. The TTL counts from when the
 * notification was accepted, not from each try: a retry, or a send after a restart, must not
 * give the push service more time than the sender asked for.
 *
 * @example
 * ```ts
 * remainingTtlSeconds({ createdAt: 0, ttlSeconds: 3600 }, 600_000); // 3000
 * ```
 */
export function remainingTtlSeconds(item: { createdAt: number; ttlSeconds: number }, now: number): number {
  // Rounded up: a send right after the 202 carries the whole TTL, not one second less; 0 only
  // once the expiry has passed.
  return Math.max(0, Math.ceil((item.createdAt + item.ttlSeconds * 1000 - now) / 1000));
}
