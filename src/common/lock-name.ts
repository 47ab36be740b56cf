/**
 * The Web Lock that serializes subscribe, register and unsubscribe for one worker scope,
 * across every tab and the worker itself.
 *
 * @example
 * ```ts
 * await navigator.locks.request(lockName(registration.scope), () => resubscribe());
 * ```
 */
export function lockName(scope: string): string {
  return `pushbridge:subscription:${scope}`;
}
