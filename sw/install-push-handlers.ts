import { handleNotificationClick } from './click.js';
import { handlePush, type PushHandlerOptions } from './push.js';

/** Options of {@link installPushHandlers}. */
export type InstallOptions = Omit<PushHandlerOptions, 'scope'>;

/**
 * Add pushbridge's `push` and `notificationclick` listeners to a worker. It adds nothing else:
 * no `skipWaiting`, no `clients.claim`, and it never stops other listeners, so it drops into an
 * existing worker. Returns a function that removes the listeners again.
 *
 * @example
 * ```ts
 * // sw.ts
 * import { installPushHandlers } from 'pushbridge/sw';
 * declare const self: ServiceWorkerGlobalScope;
 * installPushHandlers(self, { fallbackTitle: 'Shop' });
 * ```
 */
export function installPushHandlers(scope: ServiceWorkerGlobalScope, options: InstallOptions = {}): () => void {
  const onPush = (event: PushEvent): void => handlePush(event, { ...options, scope });
  const onClick = (event: NotificationEvent): void => handleNotificationClick(event, { scope });
  scope.addEventListener('push', onPush);
  scope.addEventListener('notificationclick', onClick);
  return () => {
    scope.removeEventListener('push', onPush);
    scope.removeEventListener('notificationclick', onClick);
  };
}
