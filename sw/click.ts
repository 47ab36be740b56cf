import type { PushbridgeMessage } from '../src/common/messages.js';
import { broadcast } from './broadcast.js';
import { keepAlive } from './keep-alive.js';
import { readNotification, type NotificationMeta } from './notification-meta.js';
import { recordEvent } from './record-event.js';
import { resolveClickUrl } from './resolve-click-url.js';
import { waitForClickAck } from './wait-for-click-ack.js';
import { workerScope } from './worker-scope.js';
import type { WorkerOptions } from './worker-options.js';

/**
 * Route a `notificationclick` on one of pushbridge's notifications (others are left to their own
 * code): close it, keep a `clicked` event, and bring a window to the action button's URL or
 * `data.url`, resolved against the worker's scope and kept only when it is an http(s) URL of the
 * worker's origin (else the scope root). In `focus-or-open` mode (the default) a window already at
 * the URL is focused; else an open window of the app is focused and told (`click`), and navigated
 * unless its page answers `click-ack` (an SPA that routed itself); else a window is opened. The
 * windows are told with a `click` message in every case. All of it runs inside `waitUntil`, which
 * is also what lets the browser allow `focus()` and `openWindow()`.
 *
 * @example
 * ```ts
 * self.addEventListener('notificationclick', (event) => handleNotificationClick(event, { clickMode: 'open-new' }));
 * ```
 */
export function handleNotificationClick(event: NotificationEvent, options: WorkerOptions = {}): Promise<void> {
  const meta = readNotification(event.notification);
  if (!meta) return Promise.resolve();
  event.notification.close();
  return keepAlive(event, route(meta, event.action, options));
}

async function route(meta: NotificationMeta, action: string, options: WorkerOptions): Promise<void> {
  const { clients, registration } = workerScope(options);
  const url = resolveClickUrl(meta.actionUrls[action] ?? meta.data.url, registration.scope);
  const click: PushbridgeMessage = {
    pushbridge: 1,
    type: 'click',
    clickId: crypto.randomUUID(),
    notificationId: meta.notificationId,
    action,
    url,
    data: meta.data,
  };
  const recorded = recordEvent({ type: 'clicked', notificationId: meta.notificationId, action, at: Date.now() }, options);
  const windows = options.clickMode === 'open-new' ? [] : await appWindows(clients);
  const atUrl = windows.find((client) => client.url === url);
  const other = windows.find((client) => client.url.startsWith(registration.scope));
  if (atUrl) {
    await atUrl.focus();
    broadcast(click);
  } else if (other) {
    await other.focus();
    const acked = waitForClickAck(click.clickId, options.clickAckTimeoutMs ?? 1000);
    broadcast(click);
    if (!(await acked)) {
      // navigate() refuses a window this worker does not control (loaded before it activated).
      const moved = await other.navigate(url).catch(() => null);
      if (!moved) await clients.openWindow(url);
    }
  } else {
    await clients.openWindow(url);
    broadcast(click);
  }
  await recorded;
}

/** The origin's windows, the focused one first, then visible ones. */
async function appWindows(clients: Clients): Promise<WindowClient[]> {
  const all = (await clients.matchAll({ type: 'window', includeUncontrolled: true })) as WindowClient[];
  const rank = (client: WindowClient): number => (client.focused ? 0 : client.visibilityState === 'visible' ? 1 : 2);
  return all.sort((a, b) => rank(a) - rank(b));
}
