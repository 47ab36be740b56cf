import { broadcast } from './broadcast.js';
import { resolveClickUrl } from './resolve-click-url.js';
import { workerScope, type ScopeOption } from './worker-scope.js';

/** Options of {@link handleNotificationClick}. */
export type ClickHandlerOptions = ScopeOption;

/**
 * Route a `notificationclick`: close the notification, then focus a window of the app that is
 * already at `data.url`, or open one there. Only same-origin URLs are followed. All of it runs
 * inside `event.waitUntil`, which is also what lets the browser allow `focus()` and `openWindow()`.
 *
 * @example
 * ```ts
 * self.addEventListener('notificationclick', (event) => handleNotificationClick(event));
 * ```
 */
export function handleNotificationClick(event: NotificationEvent, options: ClickHandlerOptions = {}): void {
  const scope = workerScope(options);
  const notification = event.notification;
  notification.close();
  const data = (typeof notification.data === 'object' && notification.data !== null ? notification.data : {}) as Record<string, string>;
  const url = resolveClickUrl(data.url, scope.registration.scope);
  event.waitUntil(
    (async () => {
      const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const atUrl = windows.find((client) => client.url === url);
      if (atUrl) await atUrl.focus();
      else await scope.clients.openWindow(url);
      broadcast({ pushbridge: 1, type: 'click', clickId: crypto.randomUUID(), notificationId: null, action: event.action, url, data });
    })(),
  );
}
