/** How retries are spaced. */
export interface BackoffPolicy {
  /** Delay before the second try, before jitter. */
  baseMs: number;
  /** Largest delay, before Retry-After. */
  maxMs: number;
  /** A number in [0, 1); injected so that tests can pin it. */
  random: () => number;
}

/**
 * Delay before try `nextTry` (2 for the first retry): exponential in the tries so far, with
 * "equal jitter" (half fixed, half random) so that many failed deliveries do not come back at
 * once yet each delay still grows. A push service's Retry-After is a floor.
 */
export function backoffDelayMs(nextTry: number, policy: BackoffPolicy, retryAfterSeconds: number | null = null): number {
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, nextTry - 2));
  const jittered = exponential / 2 + (exponential / 2) * policy.random();
  return Math.max(Math.round(jittered), retryAfterSeconds === null ? 0 : retryAfterSeconds * 1000);
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
