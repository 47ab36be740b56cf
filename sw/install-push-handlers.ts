import { handleNotificationClick } from './click.js';
import { handleNotificationClose } from './close.js';
import { flushEvents, SYNC_TAG } from './flush-events.js';
import { keepAlive } from './keep-alive.js';
import { handlePush } from './push.js';
import { handleSubscriptionChange } from './subscription-change.js';
import type { WorkerOptions } from './worker-options.js';

/** Options of {@link installPushHandlers}: those of the handlers, whose `scope` it sets. */
export type InstallOptions = Omit<WorkerOptions, 'scope'>;

/**
 * Add pushbridge's listeners to a worker: `push`, `notificationclick`, `notificationclose`,
 * `pushsubscriptionchange`, and `sync` for its own report retries. It adds nothing else: no
 * `skipWaiting`, no `clients.claim`, no `message` listener, and it never stops other listeners,
 * so it drops into an existing worker. Returns a function that removes the listeners again.
 *
 * @example
 * ```ts
 * // sw.ts
 * import { installPushHandlers } from 'pushbridge/sw';
 * declare const self: ServiceWorkerGlobalScope;
 * installPushHandlers(self, { fallbackTitle: 'Shop', reportUrl: '/api/push/events' });
 * ```
 */
export function installPushHandlers(scope: ServiceWorkerGlobalScope, options: InstallOptions = {}): () => void {
  const bound: WorkerOptions = { ...options, scope };
  const listeners: [string, (event: never) => unknown][] = [
    ['push', (event: PushEvent) => handlePush(event, bound)],
    ['notificationclick', (event: NotificationEvent) => handleNotificationClick(event, bound)],
    ['notificationclose', (event: NotificationEvent) => handleNotificationClose(event, bound)],
    ['pushsubscriptionchange', (event: PushSubscriptionChangeEvent) => handleSubscriptionChange(event, bound)],
    ['sync', (event: ExtendableEvent & { tag?: string }) => event.tag === SYNC_TAG && keepAlive(event, flushEvents(bound))],
  ];
  for (const [type, listener] of listeners) scope.addEventListener(type, listener as EventListener);
  return () => {
    for (const [type, listener] of listeners) scope.removeEventListener(type, listener as EventListener);
  };
}
