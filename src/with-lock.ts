import { lockName } from './common/lock-name.js';
import { PushError } from './common/push-error.js';

const fallbackQueues = new WeakMap<object, Promise<unknown>>();

/**
 * Run `task` while holding the subscription lock of `scope`, shared by every tab and the worker
 * (Web Locks). Where Web Locks are missing, tasks of this page still run one at a time.
 *
 * @throws {@link PushError} `timeout` when the lock is not granted within `timeoutMs`.
 *
 * @example
 * ```ts
 * await withLock(navigator.locks, scope, 10_000, () => registerOnce());
 * ```
 */
export async function withLock<T>(locks: LockManager | undefined, scope: string, timeoutMs: number, task: () => Promise<T>): Promise<T> {
  if (!locks) {
    // One queue per page: the fallback only keeps this page's own calls apart.
    const key = globalThis;
    const previous = fallbackQueues.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    fallbackQueues.set(
      key,
      run.then(
        () => undefined,
        () => undefined,
      ),
    );
    return run;
  }
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await locks.request(lockName(scope), { signal }, task);
  } catch (error) {
    if (signal.aborted && error instanceof DOMException && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
      throw new PushError('timeout', `The subscription lock was not granted within ${timeoutMs} ms.`, { cause: error });
    }
    throw error;
  }
}

/**
 * Whether any tab or the worker holds the subscription lock of `scope` right now.
 *
 * @example
 * ```ts
 * if (await lockHeld(navigator.locks, scope)) showSpinner();
 * ```
 */
export async function lockHeld(locks: LockManager | undefined, scope: string): Promise<boolean> {
  if (!locks) return false;
  const snapshot = await locks.query();
  return (snapshot.held ?? []).some((lock) => lock.name === lockName(scope));
}
