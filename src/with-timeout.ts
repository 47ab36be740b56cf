import { PushError } from './common/push-error.js';

/**
 * Settle with `promise`, or reject with a `timeout` {@link PushError} after `ms` milliseconds,
 * so that no wait in the package can hang forever.
 *
 * @example
 * ```ts
 * const registration = await withTimeout(waitForActive(reg), 10_000, 'service worker activation');
 * ```
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PushError('timeout', `${what} did not finish within ${ms} ms.`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
